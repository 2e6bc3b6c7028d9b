/**
 * Consul ACL rules interpreted for the resources the registry checks: acl, operator, peering, mesh,
 * service/service_prefix and namespace/namespace_prefix blocks (which may nest acl and service rules).
 * Other resource kinds (node, key, agent, ...) are accepted and ignored: nothing here guards them.
 */
import { HclError, parseRulesText } from './hcl';

export type Level = 'read' | 'write' | 'deny' | 'list';

export interface ScopedRules {
  acl?: Level;
  service: Map<string, Level>;
  servicePrefix: Map<string, Level>;
}

export interface NamespaceBlock extends ScopedRules {
  /** Access to the namespace itself (reading its definition). */
  policy?: Level;
}

export interface PolicyRules extends ScopedRules {
  operator?: Level;
  peering?: Level;
  mesh?: Level;
  namespaces: Map<string, NamespaceBlock>;
  namespacePrefixes: Map<string, NamespaceBlock>;
}

export class RulesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RulesError';
  }
}

const LEVELS: readonly Level[] = ['read', 'write', 'deny', 'list'];
const SIMPLE_LEVELS: readonly Level[] = ['read', 'write', 'deny'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function level(where: string, v: unknown, allowed: readonly Level[] = SIMPLE_LEVELS): Level {
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as Level;
  throw new RulesError(`invalid ${where} policy ${JSON.stringify(v)} (must be one of ${allowed.join(', ')})`);
}

/** `service { "a" = {...} }`, `service "a" {...}` and JSON `[{"a": {...}}]` all become { a: {...} }. */
function labelled(where: string, v: unknown): Obj {
  if (v === undefined) return {};
  if (Array.isArray(v)) return Object.assign({}, ...v.map((x) => labelled(where, x))) as Obj;
  if (!isObj(v)) throw new RulesError(`${where} must be a block labelled with a name`);
  return v;
}

function scoped(where: string, obj: Obj, into: ScopedRules): void {
  if (obj['acl'] !== undefined) into.acl = level(`${where}acl`, obj['acl']);
  for (const [kind, map] of [
    ['service', into.service],
    ['service_prefix', into.servicePrefix],
  ] as const) {
    for (const [name, block] of Object.entries(labelled(`${where}${kind}`, obj[kind]))) {
      const b = isObj(block) ? block : {};
      map.set(name, level(`${where}${kind} "${name}"`, b['policy']));
    }
  }
}

function namespaceBlocks(kind: string, v: unknown): Map<string, NamespaceBlock> {
  const out = new Map<string, NamespaceBlock>();
  for (const [name, block] of Object.entries(labelled(kind, v))) {
    const b = isObj(block) ? block : {};
    if (b['namespace'] !== undefined || b['namespace_prefix'] !== undefined) {
      throw new RulesError(`${kind} "${name}" may not contain namespace blocks`);
    }
    const nb: NamespaceBlock = { service: new Map(), servicePrefix: new Map() };
    if (b['policy'] !== undefined) nb.policy = level(`${kind} "${name}"`, b['policy'], LEVELS);
    scoped(`${kind} "${name}" > `, b, nb);
    out.set(name, nb);
  }
  return out;
}

/** Parses and interprets rules text. Throws RulesError naming the problem. */
export function parsePolicyRules(text: string): PolicyRules {
  let raw: Obj;
  try {
    raw = parseRulesText(text);
  } catch (err) {
    if (err instanceof HclError || err instanceof SyntaxError)
      throw new RulesError(`failed to parse: ${err.message}`);
    throw err;
  }
  const rules: PolicyRules = {
    service: new Map(),
    servicePrefix: new Map(),
    namespaces: namespaceBlocks('namespace', raw['namespace']),
    namespacePrefixes: namespaceBlocks('namespace_prefix', raw['namespace_prefix']),
  };
  scoped('', raw, rules);
  if (raw['operator'] !== undefined) rules.operator = level('operator', raw['operator']);
  if (raw['peering'] !== undefined) rules.peering = level('peering', raw['peering']);
  if (raw['mesh'] !== undefined) rules.mesh = level('mesh', raw['mesh']);
  return rules;
}

export function hasNamespaceBlocks(rules: PolicyRules): boolean {
  return rules.namespaces.size > 0 || rules.namespacePrefixes.size > 0;
}
