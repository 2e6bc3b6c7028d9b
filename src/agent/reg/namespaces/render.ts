import type { Store } from '../../store';
import { renderLinks } from '../acl/links';
import type { StoredNamespace } from '../model';

type Reader = Pick<Store, 'get' | 'list'>;

/** The namespace as served: links carry both ID and Name (spec section 2, ACLLink). */
export function renderNamespace(reader: Reader, ns: StoredNamespace): Record<string, unknown> {
  const out: Record<string, unknown> = {
    Name: ns.Name,
    Description: ns.Description,
  };
  if (ns.ACLs) {
    out['ACLs'] = {
      PolicyDefaults: renderLinks(reader, 'policy', ns.ACLs.PolicyDefaults),
      RoleDefaults: renderLinks(reader, 'role', ns.ACLs.RoleDefaults),
    };
  }
  if (ns.Meta) out['Meta'] = ns.Meta;
  if (ns.DeletedAt) out['DeletedAt'] = ns.DeletedAt;
  out['CreateIndex'] = ns.CreateIndex;
  out['ModifyIndex'] = ns.ModifyIndex;
  return out;
}
