/** /v1/acl/binding-rule and /v1/acl/binding-rules, following Consul's binding rule endpoints. */
import { ACLBindTypeSchema } from '../../../api/reg/schemas';
import { invalidField, notFound } from '../../http/errors';
import { blockingRead } from '../../http/blocking';
import type { RequestContext, Router } from '../../http/router';
import { FilterError, parseFilter } from '../../filter';
import type { Txn } from '../../store';
import type { RegContext } from '../context';
import type { StoredBindingRule } from '../model';
import { applyFilter, optString, refuse, type Body } from '../request';
import { T, nsKey } from '../tables';
import { namespaceOf, priorForWrite, writeTarget } from './object-routes';
import { checkTemplate } from './templates';

export function renderBindingRule(r: StoredBindingRule): Record<string, unknown> {
  return { ...r };
}

function buildRule(tx: Txn, body: Body, id: string, namespace: string): StoredBindingRule {
  const method = optString(body, 'AuthMethod') ?? '';
  if (method === '') throw invalidField('AuthMethod', 'is required (rule: required)');
  if (!tx.get(T.authMethods, nsKey(namespace, method)))
    throw invalidField(
      'AuthMethod',
      `no auth method named "${method}" in namespace "${namespace}" (rule: method-exists)`,
    );
  const selector = optString(body, 'Selector') ?? '';
  if (selector !== '') {
    try {
      parseFilter(selector);
    } catch (err) {
      if (err instanceof FilterError) throw invalidField('Selector', `${err.message} (rule: selector)`);
      throw err;
    }
  }
  const bindType = body['BindType'];
  if (!ACLBindTypeSchema.safeParse(bindType).success || bindType === 'templated-policy')
    throw invalidField(
      'BindType',
      `must be one of "service", "node", "role", "policy"; got ${JSON.stringify(bindType)} (rule: one-of)`,
    );
  const bindName = optString(body, 'BindName') ?? '';
  refuse([checkTemplate('BindName', bindName)]);
  return {
    ID: id,
    Description: optString(body, 'Description') ?? '',
    AuthMethod: method,
    Selector: selector,
    BindType: bindType as string,
    BindName: bindName,
    Namespace: namespace,
  };
}

export function addBindingRuleRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  const nsOf = (ctx: RequestContext): string => namespaceOf(rc, ctx);

  const write = async (ctx: RequestContext, pathId: string | undefined): Promise<{ body: unknown }> => {
    const target = await writeTarget(rc, ctx, pathId);
    const { id, namespace } = target;
    const { result } = store.write((tx) => {
      const isUpdate = pathId !== undefined;
      const existing = priorForWrite<StoredBindingRule>(
        tx,
        T.bindingRules,
        target,
        isUpdate,
        'ACL binding rule',
      );
      const next = buildRule(tx, target.body, id, namespace);
      if (existing && existing.AuthMethod !== next.AuthMethod)
        throw invalidField(
          'AuthMethod',
          'cannot move a binding rule to another auth method (rule: immutable)',
        );
      return tx.put(T.bindingRules, id, next);
    });
    return { body: renderBindingRule(result) };
  };

  router.add('PUT', '/v1/acl/binding-rule', (ctx) => write(ctx, undefined), { acl: 'acl:write' });
  router.add('PUT', '/v1/acl/binding-rule/:id', (ctx) => write(ctx, ctx.params['id']!), { acl: 'acl:write' });
  router.add(
    'GET',
    '/v1/acl/binding-rule/:id',
    (ctx) =>
      blockingRead(ctx, store, [{ table: T.bindingRules, key: ctx.params['id']! }], () => {
        const r = store.get<StoredBindingRule>(T.bindingRules, ctx.params['id']!);
        if (!r) throw notFound(`ACL binding rule not found: "${ctx.params['id']!}"`);
        return { value: renderBindingRule(r), index: store.keyIndex(T.bindingRules, r.ID) };
      }),
    { acl: 'acl:read' },
  );
  router.add(
    'DELETE',
    '/v1/acl/binding-rule/:id',
    (ctx) => ({
      body: store.write((tx) => tx.delete(T.bindingRules, ctx.params['id']!)).result,
    }),
    { acl: 'acl:write' },
  );
  router.add(
    'GET',
    '/v1/acl/binding-rules',
    (ctx) => {
      const ns = nsOf(ctx);
      const method = ctx.query.get('authmethod');
      return blockingRead(ctx, store, [{ table: T.bindingRules }], () => ({
        value: applyFilter(
          ctx,
          store
            .list<StoredBindingRule>(T.bindingRules)
            .filter((r) => r.Namespace === ns && (!method || r.AuthMethod === method))
            .map(renderBindingRule),
        ),
        index: store.tableIndex(T.bindingRules),
      }));
    },
    { acl: 'acl:read' },
  );
}
