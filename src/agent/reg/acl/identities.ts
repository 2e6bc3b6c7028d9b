/** Field checks shared by ACL roles and tokens (following Consul's ACL endpoint validation). */
import { invalidField } from '../../http/errors';
import type { NodeIdentity, ServiceIdentity } from '../model';
import { isObject } from '../request';

export const POLICY_NAME_RE = /^[A-Za-z0-9_-]{1,128}$/;
export const ROLE_NAME_RE = /^[A-Za-z0-9_-]{1,256}$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Consul's rule for service identity names: lowercase letters, digits, dashes and underscores. */
const SERVICE_IDENTITY_RE = /^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$/;
const NODE_NAME_RE = /^[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?$/;

function strings(field: string, v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw invalidField(field, 'must be a list of strings (rule: type)');
  return v;
}

export function serviceIdentities(v: unknown, field = 'ServiceIdentities'): ServiceIdentity[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalidField(field, 'must be a list (rule: type)');
  return v.map((raw, i) => {
    const f = `${field}[${i}]`;
    const o = isObject(raw) ? raw : {};
    const name = o['ServiceName'];
    if (typeof name !== 'string' || name === '')
      throw invalidField(`${f}.ServiceName`, 'is required (rule: required)');
    if (!SERVICE_IDENTITY_RE.test(name))
      throw invalidField(
        `${f}.ServiceName`,
        `must be lowercase letters, digits, dashes or underscores; got ${JSON.stringify(name)} (rule: service-name)`,
      );
    const dcs = strings(`${f}.Datacenters`, o['Datacenters']);
    return dcs.length > 0 ? { ServiceName: name, Datacenters: dcs } : { ServiceName: name };
  });
}

export function nodeIdentities(v: unknown, field = 'NodeIdentities'): NodeIdentity[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalidField(field, 'must be a list (rule: type)');
  return v.map((raw, i) => {
    const f = `${field}[${i}]`;
    const o = isObject(raw) ? raw : {};
    const name = o['NodeName'];
    const dc = o['Datacenter'];
    if (typeof name !== 'string' || !NODE_NAME_RE.test(name))
      throw invalidField(
        `${f}.NodeName`,
        `is required and must be a valid node name; got ${JSON.stringify(name)} (rule: node-name)`,
      );
    if (typeof dc !== 'string' || dc === '')
      throw invalidField(`${f}.Datacenter`, 'is required (rule: required)');
    return { NodeName: name, Datacenter: dc };
  });
}

export function stringList(field: string, v: unknown): string[] {
  return strings(field, v);
}

/** Responses leave empty lists out, as Consul's `omitempty` does. */
export function putList(out: Record<string, unknown>, key: string, list: readonly unknown[]): void {
  if (list.length > 0) out[key] = list;
}
