/** service-resolver checks (Consul's ServiceResolverConfigEntry.Validate). */
import { checkOneOf } from '../../../api/reg/rules';
import { FilterError, parseFilter } from '../../filter';
import { invalidField } from '../../http/errors';
import { isObject, refuse, type Body } from '../request';
import { normalizeDuration, targetOpts } from './shared';

/** Subset names end up in SNI names, so they are lowercase DNS labels. */
const SUBSET_NAME_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const LB_POLICIES = ['', 'random', 'round_robin', 'least_request', 'ring_hash', 'maglev'];

export function normalizeResolver(e: Body): void {
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
