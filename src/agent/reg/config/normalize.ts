/**
 * A config entry request body, checked as Consul's Normalize/Validate do, into its stored form:
 * durations become Go duration strings and split weights are rounded to hundredths.
 */
import type { RuleViolation } from '../../../api/reg/rules';
import { MESH_GATEWAY_MODES, checkOneOf } from '../../../api/reg/rules';
import { configEntrySchemas, isConfigEntryKind, type ConfigEntryKind } from '../../../api/reg/schemas';
import { invalidField } from '../../http/errors';
import { checkTypes, isObject, refuse, rule, type Body } from '../request';
import { DEFAULT_NAMESPACE } from '../tables';
import { normalizeResolver } from './resolver';
import { normalizeRouter } from './router';
import { normalizeSplitter } from './splitter';
import { PROXY_DEFAULTS_NAME, type ChainEntry } from './types';

export const SUPPORTED_KINDS: readonly ConfigEntryKind[] = [
  'service-defaults',
  'proxy-defaults',
  'service-resolver',
  'service-splitter',
  'service-router',
];

export function checkKind(field: string, kind: unknown): ConfigEntryKind {
  if (typeof kind !== 'string' || kind === '') throw invalidField(field, 'is required (rule: required)');
  if (!isConfigEntryKind(kind) || !SUPPORTED_KINDS.includes(kind)) {
    throw invalidField(
      field,
      `unsupported config entry kind ${JSON.stringify(kind)}; supported: ${SUPPORTED_KINDS.join(', ')} (rule: kind)`,
    );
  }
  return kind;
}

function checkMeta(meta: unknown): RuleViolation | undefined {
  if (meta === undefined || meta === null) return undefined;
  if (!isObject(meta)) return rule('Meta', 'type', 'must be an object of strings');
  const keys = Object.keys(meta);
  if (keys.length > 64) return rule('Meta', 'meta-size', `may have at most 64 keys; got ${keys.length}`);
  for (const k of keys) {
    if (k.length > 128) return rule(`Meta.${k}`, 'meta-key', 'keys may be at most 128 characters');
    const v = meta[k];
    if (typeof v !== 'string') return rule(`Meta.${k}`, 'type', 'must be a string');
    if (v.length > 512) return rule(`Meta.${k}`, 'meta-value', 'values may be at most 512 characters');
  }
  return undefined;
}

function serviceDefaults(e: Body): void {
  if (typeof e['Protocol'] === 'string') e['Protocol'] = e['Protocol'].toLowerCase();
  meshGateway(e, 'MeshGateway');
  if (e['Mode'] !== undefined) refuse([checkOneOf('Mode', e['Mode'], ['', 'direct', 'transparent'])]);
}

function proxyDefaults(e: Body): void {
  if (e['Name'] !== PROXY_DEFAULTS_NAME)
    throw invalidField(
      'Name',
      `must be "${PROXY_DEFAULTS_NAME}" for a proxy-defaults entry; got ${JSON.stringify(e['Name'])} (rule: proxy-defaults-name)`,
    );
  const cfg = e['Config'];
  if (cfg !== undefined && cfg !== null && !isObject(cfg))
    throw invalidField('Config', 'must be an object (rule: type)');
  if (isObject(cfg) && cfg['protocol'] !== undefined && typeof cfg['protocol'] !== 'string')
    throw invalidField('Config.protocol', 'must be a string (rule: type)');
  meshGateway(e, 'MeshGateway');
  if (e['Mode'] !== undefined) refuse([checkOneOf('Mode', e['Mode'], ['', 'direct', 'transparent'])]);
}

function meshGateway(e: Body, field: string): void {
  const mg = e[field];
  if (mg === undefined || mg === null) return;
  if (!isObject(mg)) throw invalidField(field, 'must be an object with Mode (rule: type)');
  refuse([checkOneOf(`${field}.Mode`, mg['Mode'], MESH_GATEWAY_MODES)]);
}

/**
 * Validates a config entry body and returns it as stored. `namespace` is where it lands (the body's
 * Namespace, else the request's); proxy-defaults always live in the default namespace.
 */
export function normalizeEntry(input: Body, namespace: string): ChainEntry {
  const kind = checkKind('Kind', input['Kind']);
  const name = input['Name'];
  if (typeof name !== 'string' || name === '') throw invalidField('Name', 'is required (rule: required)');
  refuse([checkMeta(input['Meta'])]);
  const entry: Body = structuredClone(input);
  checkTypes(configEntrySchemas[kind], entry);
  delete entry['CreateIndex'];
  delete entry['ModifyIndex'];
  entry['Namespace'] = kind === 'proxy-defaults' ? DEFAULT_NAMESPACE : namespace;
  switch (kind) {
    case 'service-defaults':
      serviceDefaults(entry);
      break;
    case 'proxy-defaults':
      proxyDefaults(entry);
      break;
    case 'service-resolver':
      normalizeResolver(entry);
      break;
    case 'service-splitter':
      normalizeSplitter(entry);
      break;
    case 'service-router':
      normalizeRouter(entry);
      break;
  }
  return entry as unknown as ChainEntry;
}
