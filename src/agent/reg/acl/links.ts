/** ACLLinks ({ID} and/or {Name}) to stored policy/role IDs, and back to {ID, Name} for responses. */
import { invalidField } from '../../http/errors';
import type { Store } from '../../store';
import type { Link, StoredPolicy, StoredRole } from '../model';
import { isObject } from '../request';
import { DEFAULT_NAMESPACE, T } from '../tables';

type Reader = Pick<Store, 'get' | 'list'>;
export type LinkKind = 'policy' | 'role';

const tableOf = (kind: LinkKind): string => (kind === 'policy' ? T.policies : T.roles);

/**
 * Resolves links against policies/roles of `namespace` or of `default` (which any namespace may link).
 * A link naming something that does not exist is a 400 naming the field.
 */
export function resolveLinks(
  reader: Reader,
  kind: LinkKind,
  input: unknown,
  field: string,
  namespace: string,
): Link[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input))
    throw invalidField(field, 'must be a list of {ID} or {Name} objects (rule: type)');
  const visible = (x: { Namespace: string }): boolean =>
    x.Namespace === namespace || x.Namespace === DEFAULT_NAMESPACE;
  const out: Link[] = [];
  input.forEach((raw, i) => {
    const f = `${field}[${i}]`;
    if (!isObject(raw)) throw invalidField(f, 'must be an object with ID or Name (rule: acl-link)');
    const id = typeof raw['ID'] === 'string' ? raw['ID'] : '';
    const name = typeof raw['Name'] === 'string' ? raw['Name'] : '';
    let found: StoredPolicy | StoredRole | undefined;
    if (id !== '') {
      found = reader.get<StoredPolicy | StoredRole>(tableOf(kind), id);
      if (!found || !visible(found)) throw invalidField(f, `no ${kind} with ID "${id}" (rule: link-exists)`);
      if (name !== '' && found.Name !== name)
        throw invalidField(
          f,
          `ID "${id}" is the ${kind} named "${found.Name}", not "${name}" (rule: link-consistent)`,
        );
    } else if (name !== '') {
      const candidates = reader
        .list<StoredPolicy | StoredRole>(tableOf(kind))
        .filter((x) => x.Name === name && visible(x));
      found = candidates.find((x) => x.Namespace === namespace) ?? candidates[0];
      if (!found)
        throw invalidField(
          f,
          `no ${kind} named "${name}" in namespace "${namespace}" or "default" (rule: link-exists)`,
        );
    } else throw invalidField(f, 'must have an ID or a Name (rule: acl-link)');
    if (!out.some((l) => l.ID === found.ID)) out.push({ ID: found.ID });
  });
  return out;
}

/** {ID, Name} of links that still point at something; links to deleted objects are left out, as Consul does. */
export function renderLinks(
  reader: Reader,
  kind: LinkKind,
  links: readonly Link[],
): { ID: string; Name: string }[] {
  const out: { ID: string; Name: string }[] = [];
  for (const l of links) {
    const x = reader.get<StoredPolicy | StoredRole>(tableOf(kind), l.ID);
    if (x) out.push({ ID: x.ID, Name: x.Name });
  }
  return out;
}
