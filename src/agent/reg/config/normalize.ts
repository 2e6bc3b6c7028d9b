/**
 * A config entry request body, checked as Consul's Normalize/Validate do, into its stored form:
 * durations become Go duration strings and split weights are rounded to hundredths.
 */
import type { RuleViolation } from '../../../api/reg/rules';
import { MESH_GATEWAY_MODES, checkOneOf } from '../../../api/reg/rules';
import { configEntrySchemas, isConfigEntryKind, type ConfigEntryKind } from '../../../api/reg/schemas';
import { FilterError, parseFilter } from '../../filter';
import { invalidField } from '../../http/errors';
import { checkTypes, goDuration, isObject, optDurationMs, refuse, rule, type Body } from '../request';
import { DEFAULT_NAMESPACE } from '../tables';
import { PROXY_DEFAULTS_NAME, type ChainEntry, type TargetOpts } from './types';

export const SUPPORTED_KINDS: readonly ConfigEntryKind[] = [
  'service-defaults',
  'proxy-defaults',
  'service-resolver',
  'service-splitter',
  'service-router',
];

/** Subset names end up in SNI names, so they are lowercase DNS labels. */
const SUBSET_NAME_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE'];
const LB_POLICIES = ['', 'random', 'round_robin', 'least_request', 'ring_hash', 'maglev'];
const TARGET_FIELDS = ['Service', 'ServiceSubset', 'Namespace', 'Partition', 'Datacenter', 'Peer'] as const;

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

/** Replaces a duration field by its Go string form (or drops it when zero). */
function normalizeDuration(obj: Body, field: string, path: string): void {
  const v = optDurationMs(obj, field, path);
  if (v === undefined || v === 0) delete obj[field];
  else obj[field] = goDuration(v);
}

function targetOpts(o: Body): TargetOpts {
  const out: TargetOpts = {};
  for (const f of TARGET_FIELDS) if (typeof o[f] === 'string' && o[f] !== '') out[f] = o[f];
  return out;
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

function resolver(e: Body): void {
  const name = e['Name'] as string;
  const subsets = isObject(e['Subsets']) ? e['Subsets'] : {};
  for (const [sub, def] of Object.entries(subsets)) {
    if (!SUBSET_NAME_RE.test(sub))
      throw invalidField(
        `Subsets.${sub}`,
        'subset names must be lowercase DNS labels (letters, digits, dashes) (rule: subset-name)',
      );
    const filter = isObject(def) ? def['Filter'] : undefined;
    if (typeof filter === 'string' && filter !== '') {
      try {
        parseFilter(filter);
      } catch (err) {
        if (err instanceof FilterError)
          throw invalidField(`Subsets.${sub}.Filter`, `${err.message} (rule: filter)`);
        throw err;
      }
    }
  }
  const isSubset = (s: string): boolean => s in subsets;
  const def = e['DefaultSubset'];
  if (typeof def === 'string' && def !== '' && !isSubset(def))
    throw invalidField('DefaultSubset', `"${def}" is not a subset defined in Subsets (rule: subset-exists)`);
  const failover = isObject(e['Failover']) ? e['Failover'] : {};
  if (e['Redirect'] !== undefined && e['Redirect'] !== null) {
    if (!isObject(e['Redirect'])) throw invalidField('Redirect', 'must be an object (rule: type)');
    const r = targetOpts(e['Redirect']);
    if (Object.keys(failover).length > 0)
      throw invalidField('Redirect', 'cannot be set together with Failover (rule: exclusive)');
    if (Object.keys(r).length === 0)
      throw invalidField(
        'Redirect',
        'is empty; set at least one of Service, ServiceSubset, Namespace, Datacenter or Peer (rule: non-empty)',
      );
    if (r.Peer && r.ServiceSubset)
      throw invalidField(
        'Redirect.Peer',
        'cannot be set together with Redirect.ServiceSubset (rule: exclusive)',
      );
    if (r.Peer && r.Datacenter)
      throw invalidField(
        'Redirect.Peer',
        'cannot be set together with Redirect.Datacenter (rule: exclusive)',
      );
    if (!r.Service) {
      for (const f of ['ServiceSubset', 'Namespace', 'Peer'] as const)
        if (r[f]) throw invalidField(`Redirect.${f}`, 'needs Redirect.Service (rule: needs-service)');
    } else if (r.ServiceSubset && r.Service === name && !isSubset(r.ServiceSubset)) {
      throw invalidField(
        'Redirect.ServiceSubset',
        `"${r.ServiceSubset}" is not a subset of "${name}" (rule: subset-exists)`,
      );
    }
    e['Redirect'] = r;
  }
  for (const [sub, raw] of Object.entries(failover)) {
    const field = `Failover.${sub}`;
    if (!isObject(raw)) throw invalidField(field, 'must be an object (rule: type)');
    if (sub !== '*' && !isSubset(sub))
      throw invalidField(
        field,
        `"${sub}" is neither "*" nor a subset defined in Subsets (rule: subset-exists)`,
      );
    const base = targetOpts(raw);
    const dcs = Array.isArray(raw['Datacenters']) ? (raw['Datacenters'] as unknown[]) : [];
    const targets = Array.isArray(raw['Targets']) ? (raw['Targets'] as unknown[]) : [];
    if (Object.keys(base).length === 0 && dcs.length === 0 && targets.length === 0)
      throw invalidField(
        field,
        'needs one of Service, ServiceSubset, Namespace, Targets or Datacenters (rule: non-empty)',
      );
    if (dcs.length > 0 && targets.length > 0)
      throw invalidField(field, 'Targets cannot be set together with Datacenters (rule: exclusive)');
    if (targets.length > 0 && (base.Service || base.ServiceSubset || base.Namespace))
      throw invalidField(
        field,
        'Targets cannot be set together with Service, ServiceSubset or Namespace (rule: exclusive)',
      );
    if (base.ServiceSubset && (!base.Service || base.Service === name) && !isSubset(base.ServiceSubset))
      throw invalidField(
        `${field}.ServiceSubset`,
        `"${base.ServiceSubset}" is not a subset of "${name}" (rule: subset-exists)`,
      );
    dcs.forEach((d, i) => {
      if (typeof d !== 'string' || d === '')
        throw invalidField(`${field}.Datacenters[${i}]`, 'must be a datacenter name (rule: required)');
    });
    const out: Body = { ...raw, ...base };
    if (dcs.length > 0) out['Datacenters'] = dcs;
    if (targets.length > 0) out['Targets'] = targets.map((t) => targetOpts(isObject(t) ? t : {}));
    failover[sub] = out;
  }
  if (Object.keys(failover).length > 0) e['Failover'] = failover;
  normalizeDuration(e, 'ConnectTimeout', 'ConnectTimeout');
  normalizeDuration(e, 'RequestTimeout', 'RequestTimeout');
  const lb = e['LoadBalancer'];
  if (isObject(lb)) refuse([checkOneOf('LoadBalancer.Policy', lb['Policy'], LB_POLICIES)]);
}

function splitter(e: Body): void {
  const splits = e['Splits'];
  if (!Array.isArray(splits) || splits.length === 0)
    throw invalidField('Splits', 'at least one split is required (rule: required)');
  const seen = new Set<string>();
  let total = 0;
  e['Splits'] = splits.map((raw, i) => {
    const s = raw as Body;
    const w = s['Weight'];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0 || w > 100)
      throw invalidField(
        `Splits[${i}].Weight`,
        `must be a number from 0 to 100; got ${JSON.stringify(w)} (rule: weight)`,
      );
    const key = JSON.stringify([s['Service'] || e['Name'], s['ServiceSubset'] ?? '', s['Namespace'] ?? '']);
    if (seen.has(key))
      throw invalidField(`Splits[${i}]`, 'the same destination occurs more than once (rule: unique)');
    seen.add(key);
    const scaled = Math.round(w * 100);
    total += scaled;
    return { ...s, Weight: scaled / 100 };
  });
  if (total !== 10000)
    throw invalidField(
      'Splits',
      `the weights must add up to 100; they add up to ${total / 100} (rule: weights-sum)`,
    );
}

function router(e: Body): void {
  const routes = e['Routes'];
  if (routes === undefined || routes === null) {
    e['Routes'] = [];
    return;
  }
  (routes as Body[]).forEach((route, i) => {
    const f = `Routes[${i}]`;
    const http =
      isObject(route['Match']) && isObject(route['Match']['HTTP']) ? route['Match']['HTTP'] : undefined;
    let rewritable = false;
    if (http) {
      const paths = ['PathExact', 'PathPrefix', 'PathRegex'].filter(
        (k) => typeof http[k] === 'string' && http[k] !== '',
      );
      if (paths.length > 1)
        throw invalidField(
          `${f}.Match.HTTP`,
          `at most one of PathExact, PathPrefix or PathRegex may be set; got ${paths.join(', ')} (rule: one-path-match)`,
        );
      for (const k of ['PathExact', 'PathPrefix']) {
        const v = http[k];
        if (typeof v === 'string' && v !== '') {
          rewritable = true;
          if (!v.startsWith('/'))
            throw invalidField(
              `${f}.Match.HTTP.${k}`,
              `must begin with "/"; got ${JSON.stringify(v)} (rule: leading-slash)`,
            );
        }
      }
      const regex = http['PathRegex'];
      if (typeof regex === 'string' && regex !== '') checkRegex(`${f}.Match.HTTP.PathRegex`, regex);
      ((http['Header'] as Body[] | undefined) ?? []).forEach((h, j) => {
        const hf = `${f}.Match.HTTP.Header[${j}]`;
        if (typeof h['Name'] !== 'string' || h['Name'] === '')
          throw invalidField(`${hf}.Name`, 'is required (rule: required)');
        const set = ['Exact', 'Prefix', 'Suffix', 'Regex'].filter(
          (k) => typeof h[k] === 'string' && h[k] !== '',
        );
        if (h['Present'] === true) set.push('Present');
        if (set.length !== 1)
          throw invalidField(
            hf,
            `exactly one of Present, Exact, Prefix, Suffix or Regex must be set; got ${set.length} (rule: one-header-match)`,
          );
      });
      ((http['QueryParam'] as Body[] | undefined) ?? []).forEach((q, j) => {
        const qf = `${f}.Match.HTTP.QueryParam[${j}]`;
        if (typeof q['Name'] !== 'string' || q['Name'] === '')
          throw invalidField(`${qf}.Name`, 'is required (rule: required)');
        const set = ['Exact', 'Regex'].filter((k) => typeof q[k] === 'string' && q[k] !== '');
        if (q['Present'] === true) set.push('Present');
        if (set.length !== 1)
          throw invalidField(
            qf,
            `exactly one of Present, Exact or Regex must be set; got ${set.length} (rule: one-query-match)`,
          );
      });
      const methods = (http['Methods'] as unknown[] | undefined) ?? [];
      const upper = methods.map((m) => String(m).toUpperCase());
      upper.forEach((m, j) => {
        if (!HTTP_METHODS.includes(m))
          throw invalidField(
            `${f}.Match.HTTP.Methods[${j}]`,
            `${JSON.stringify(m)} is not an HTTP method (rule: http-method)`,
          );
        if (upper.indexOf(m) !== j)
          throw invalidField(`${f}.Match.HTTP.Methods[${j}]`, `${m} occurs more than once (rule: unique)`);
      });
      if (methods.length > 0) http['Methods'] = upper;
    }
    const dest = isObject(route['Destination']) ? route['Destination'] : undefined;
    if (dest) {
      if (typeof dest['PrefixRewrite'] === 'string' && dest['PrefixRewrite'] !== '' && !rewritable)
        throw invalidField(
          `${f}.Destination.PrefixRewrite`,
          'needs PathExact or PathPrefix in the route match (rule: prefix-rewrite)',
        );
      normalizeDuration(dest, 'RequestTimeout', `${f}.Destination.RequestTimeout`);
      normalizeDuration(dest, 'IdleTimeout', `${f}.Destination.IdleTimeout`);
      const n = dest['NumRetries'];
      if (n !== undefined && n !== null && (!Number.isInteger(n) || (n as number) < 0))
        throw invalidField(
          `${f}.Destination.NumRetries`,
          `must be a non-negative integer; got ${JSON.stringify(n)} (rule: non-negative)`,
        );
      ((dest['RetryOnStatusCodes'] as unknown[] | undefined) ?? []).forEach((c, j) => {
        if (!Number.isInteger(c) || (c as number) < 100 || (c as number) > 599)
          throw invalidField(
            `${f}.Destination.RetryOnStatusCodes[${j}]`,
            `must be an HTTP status code (100-599); got ${JSON.stringify(c)} (rule: status-code)`,
          );
      });
    }
  });
}

function checkRegex(field: string, re: string): void {
  try {
    new RegExp(re);
  } catch (err) {
    throw invalidField(field, `is not a valid regular expression: ${(err as Error).message} (rule: regex)`);
  }
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
      resolver(entry);
      break;
    case 'service-splitter':
      splitter(entry);
      break;
    case 'service-router':
      router(entry);
      break;
  }
  return entry as unknown as ChainEntry;
}
