/**
 * The plan of a registry resource from its prior state and its configuration: which attributes changed
 * (by each attribute's own notion of equality), whether any of them forces a replacement, and the state
 * expected afterwards, with values the registry assigns marked UNKNOWN.
 */
import type { z } from 'zod';
import type { Config, PlannedChange, State } from '../resource';
import { computedOnlyAttributes, forceNewAttributes, metaOf } from '../schema';
import { UNKNOWN, type AttrPath } from '../values';
import { knownAndEqual, sameValue, type Equal } from './compare';

export interface PlanRules {
  shape: Record<string, z.ZodType>;
  /** Semantic equality by attribute; sameValue (empty equals null) by default. */
  equal?: Record<string, Equal>;
}

/** Config with null attributes dropped, the form the planner works on. */
export function present(config: Config): Config {
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined && v !== null));
}

export function optionalComputedAttributes(shape: Record<string, z.ZodType>): string[] {
  return Object.entries(shape)
    .filter(([, s]) => {
      const m = metaOf(s);
      return m.computed === true && m.optional === true;
    })
    .map(([k]) => k);
}

/** The configured attributes, with every computed one that the configuration leaves open set UNKNOWN. */
function fresh(shape: Record<string, z.ZodType>, desired: Config): State {
  const planned: State = {};
  for (const k of Object.keys(shape)) planned[k] = desired[k] ?? null;
  for (const k of computedOnlyAttributes(shape)) planned[k] = UNKNOWN;
  for (const k of optionalComputedAttributes(shape)) if (desired[k] === undefined) planned[k] = UNKNOWN;
  return planned;
}

export function planChange(rules: PlanRules, prior: State | null, config: Config | null): PlannedChange {
  const { shape } = rules;
  if (config === null) {
    return prior === null
      ? { action: 'noop', prior: null, planned: null, diagnostics: [] }
      : { action: 'delete', prior, planned: null, diagnostics: [] };
  }
  const desired = present(config);
  if (prior === null) {
    return { action: 'create', prior: null, planned: fresh(shape, desired), diagnostics: [] };
  }
  const computedOnly = new Set(computedOnlyAttributes(shape));
  const optionalComputed = new Set(optionalComputedAttributes(shape));
  const forceNew = new Set(forceNewAttributes(shape));
  const changed: string[] = [];
  const replacePaths: AttrPath[] = [];
  for (const k of Object.keys(shape)) {
    if (computedOnly.has(k)) continue;
    const want = desired[k] ?? null;
    // Left open by the configuration: the registry's value stands.
    if (optionalComputed.has(k) && want === null) continue;
    if (knownAndEqual(rules.equal?.[k] ?? sameValue, prior[k] ?? null, want)) continue;
    changed.push(k);
    if (forceNew.has(k)) replacePaths.push([k]);
  }
  if (changed.length === 0) return { action: 'noop', prior, planned: prior, diagnostics: [] };
  if (replacePaths.length > 0) {
    return { action: 'replace', replacePaths, prior, planned: fresh(shape, desired), diagnostics: [] };
  }
  const planned: State = { ...prior };
  for (const k of changed) planned[k] = desired[k] ?? null;
  return { action: 'update', prior, planned, diagnostics: [] };
}
