/** /v1/acl/policy and /v1/acl/policies, following Consul's ACL policy endpoints. */
import { badRequest, invalidField } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { blockingRead } from '../../http/blocking';
import type { RegContext } from '../context';
import type { StoredPolicy } from '../model';
import { applyFilter, optString, type Body } from '../request';
import { DEFAULT_NAMESPACE, T } from '../tables';
import { GLOBAL_MANAGEMENT_POLICY_ID } from './builtins';
import { POLICY_NAME_RE, putList, stringList } from './identities';
import { addNamedObjectReads, namespaceOf, priorForWrite, writeTarget } from './object-routes';
import { hasNamespaceBlocks, parsePolicyRules, RulesError } from './policy-rules';

export function renderPolicy(p: StoredPolicy, withRules = true): Record<string, unknown> {
  const out: Record<string, unknown> = { ID: p.ID, Name: p.Name, Description: p.Description };
  if (withRules) out['Rules'] = p.Rules;
  putList(out, 'Datacenters', p.Datacenters);
  out['Namespace'] = p.Namespace;
  out['CreateIndex'] = p.CreateIndex;
  out['ModifyIndex'] = p.ModifyIndex;
  return out;
}

function buildPolicy(body: Body, id: string, namespace: string): StoredPolicy {
  const name = body['Name'];
  if (typeof name !== 'string' || name === '') throw invalidField('Name', 'is required (rule: required)');
  if (!POLICY_NAME_RE.test(name))
    throw invalidField(
      'Name',
      `must be 1-128 letters, digits, dashes or underscores; got ${JSON.stringify(name)} (rule: policy-name)`,
    );
  const rules = optString(body, 'Rules') ?? '';
  try {
    const parsed = parsePolicyRules(rules);
    if (namespace !== DEFAULT_NAMESPACE && hasNamespaceBlocks(parsed))
      throw invalidField(
        'Rules',
        `namespace blocks are only allowed in policies of the "default" namespace (rule: namespace-blocks)`,
      );
  } catch (err) {
    if (err instanceof RulesError) throw invalidField('Rules', `${err.message} (rule: acl-rules)`);
    throw err;
  }
  return {
    ID: id,
    Name: name,
    Description: optString(body, 'Description') ?? '',
    Rules: rules,
    Datacenters: stringList('Datacenters', body['Datacenters']),
    Namespace: namespace,
  };
}

export function addPolicyRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  const nsOf = (ctx: RequestContext): string => namespaceOf(rc, ctx);

  const write = async (ctx: RequestContext, pathId: string | undefined): Promise<{ body: unknown }> => {
    const target = await writeTarget(rc, ctx, pathId);
    const { id, namespace } = target;
    const policy = buildPolicy(target.body, id, namespace);
    const { result } = store.write((tx) => {
      const existing = priorForWrite<StoredPolicy>(
        tx,
        T.policies,
        target,
        pathId !== undefined,
        'ACL policy',
      );
      if (existing && existing.Namespace !== namespace)
        throw invalidField('Namespace', 'cannot move a policy to another namespace (rule: immutable)');
      if (
        id === GLOBAL_MANAGEMENT_POLICY_ID &&
        existing &&
        (policy.Name !== existing.Name || policy.Rules !== existing.Rules)
      )
        throw badRequest(
          'Rules: changing the name or rules of the builtin global-management policy is not permitted (rule: builtin)',
        );
      const clash = tx
        .list<StoredPolicy>(T.policies)
        .find((p) => p.Name === policy.Name && p.Namespace === namespace && p.ID !== id);
      if (clash) throw invalidField('Name', `a policy named "${policy.Name}" already exists (rule: unique)`);
      return tx.put(T.policies, id, policy);
    });
    return { body: renderPolicy(result) };
  };

  router.add('PUT', '/v1/acl/policy', (ctx) => write(ctx, undefined), { acl: 'acl:write' });
  router.add('PUT', '/v1/acl/policy/:id', (ctx) => write(ctx, ctx.params['id']!), { acl: 'acl:write' });

  addNamedObjectReads<StoredPolicy>(router, rc, {
    kind: 'policy',
    table: T.policies,
    watch: [T.policies],
    what: 'ACL policy',
    render: (p) => renderPolicy(p),
  });

  router.add(
    'DELETE',
    '/v1/acl/policy/:id',
    (ctx) => {
      const id = ctx.params['id']!;
      if (id === GLOBAL_MANAGEMENT_POLICY_ID)
        throw badRequest(
          'id: deleting the builtin global-management policy is not permitted (rule: builtin)',
        );
      const { result } = store.write((tx) => tx.delete(T.policies, id));
      return { body: result };
    },
    { acl: 'acl:write' },
  );

  router.add(
    'GET',
    '/v1/acl/policies',
    (ctx) => {
      const ns = nsOf(ctx);
      return blockingRead(ctx, store, [{ table: T.policies }], () => ({
        value: applyFilter(
          ctx,
          store
            .list<StoredPolicy>(T.policies)
            .filter((p) => p.Namespace === ns)
            .map((p) => renderPolicy(p, false)),
        ),
        index: store.tableIndex(T.policies),
      }));
    },
    { acl: 'acl:read' },
  );
}
