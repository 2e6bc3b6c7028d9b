/** /v1/acl/role and /v1/acl/roles, following Consul's ACL role endpoints. */
import { invalidField } from '../../http/errors';
import { blockingRead } from '../../http/blocking';
import type { RequestContext, Router } from '../../http/router';
import type { Store, Txn } from '../../store';
import type { RegContext } from '../context';
import type { StoredRole } from '../model';
import { applyFilter, optString, type Body } from '../request';
import { T } from '../tables';
import { nodeIdentities, putList, ROLE_NAME_RE, serviceIdentities } from './identities';
import { addNamedObjectReads, namespaceOf, priorForWrite, writeTarget } from './object-routes';
import { renderLinks, resolveLinks } from './links';

export function renderRole(reader: Pick<Store, 'get' | 'list'>, r: StoredRole): Record<string, unknown> {
  const out: Record<string, unknown> = { ID: r.ID, Name: r.Name, Description: r.Description };
  putList(out, 'Policies', renderLinks(reader, 'policy', r.Policies));
  putList(out, 'ServiceIdentities', r.ServiceIdentities);
  putList(out, 'NodeIdentities', r.NodeIdentities);
  out['Namespace'] = r.Namespace;
  out['CreateIndex'] = r.CreateIndex;
  out['ModifyIndex'] = r.ModifyIndex;
  return out;
}

function buildRole(tx: Txn, body: Body, id: string, namespace: string): StoredRole {
  const name = body['Name'];
  if (typeof name !== 'string' || name === '') throw invalidField('Name', 'is required (rule: required)');
  if (!ROLE_NAME_RE.test(name))
    throw invalidField(
      'Name',
      `must be 1-256 letters, digits, dashes or underscores; got ${JSON.stringify(name)} (rule: role-name)`,
    );
  return {
    ID: id,
    Name: name,
    Description: optString(body, 'Description') ?? '',
    Policies: resolveLinks(tx, 'policy', body['Policies'], 'Policies', namespace),
    ServiceIdentities: serviceIdentities(body['ServiceIdentities']),
    NodeIdentities: nodeIdentities(body['NodeIdentities']),
    Namespace: namespace,
  };
}

export function addRoleRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  const nsOf = (ctx: RequestContext): string => namespaceOf(rc, ctx);

  const write = async (ctx: RequestContext, pathId: string | undefined): Promise<{ body: unknown }> => {
    const target = await writeTarget(rc, ctx, pathId);
    const { id, namespace } = target;
    const { result } = store.write((tx) => {
      priorForWrite<StoredRole>(tx, T.roles, target, pathId !== undefined, 'ACL role');
      const role = buildRole(tx, target.body, id, namespace);
      const clash = tx
        .list<StoredRole>(T.roles)
        .find((r) => r.Name === role.Name && r.Namespace === namespace && r.ID !== id);
      if (clash) throw invalidField('Name', `a role named "${role.Name}" already exists (rule: unique)`);
      return tx.put(T.roles, id, role);
    });
    return { body: renderRole(store, result) };
  };

  router.add('PUT', '/v1/acl/role', (ctx) => write(ctx, undefined), { acl: 'acl:write' });
  router.add('PUT', '/v1/acl/role/:id', (ctx) => write(ctx, ctx.params['id']!), { acl: 'acl:write' });

  addNamedObjectReads<StoredRole>(router, rc, {
    kind: 'role',
    table: T.roles,
    watch: [T.roles, T.policies],
    what: 'ACL role',
    render: (r) => renderRole(store, r),
  });

  router.add(
    'DELETE',
    '/v1/acl/role/:id',
    (ctx) => ({ body: store.write((tx) => tx.delete(T.roles, ctx.params['id']!)).result }),
    { acl: 'acl:write' },
  );

  router.add(
    'GET',
    '/v1/acl/roles',
    (ctx) => {
      const ns = nsOf(ctx);
      const policy = ctx.query.get('policy');
      return blockingRead(ctx, store, [{ table: T.roles }], () => ({
        value: applyFilter(
          ctx,
          store
            .list<StoredRole>(T.roles)
            .filter((r) => r.Namespace === ns && (!policy || r.Policies.some((l) => l.ID === policy)))
            .map((r) => renderRole(store, r)),
        ),
        index: store.tableIndex(T.roles),
      }));
    },
    { acl: 'acl:read' },
  );
}
