/** Nomad's ACL endpoints: bootstrap, policies and tokens (`/v1/acl/...`). */
import { z } from 'zod';
import { blockingRead } from '../../http/blocking';
import { badRequest, forbidden, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import type { Store } from '../../store';
import { parseBody } from '../routes/common';
import type { SchedAuthorizer } from './authorize';
import { policyStub, tokenStub, type AclPolicyRecord, type AclTokenRecord } from './model';
import { parsePolicyRules, PolicyRulesError } from './rules';
import { bootstrapToken, buildToken } from './tokens';
import { ACL_T } from './tables';
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POLICY_NAME = /^[a-zA-Z0-9-]{1,128}$/;

const BootstrapBody = z.looseObject({ BootstrapSecret: z.string().nullish() });
const PolicyBody = z.looseObject({
  Name: z.string().nullish(),
  Description: z.string().nullish(),
  Rules: z.string().nullish(),
  JobACL: z
    .looseObject({
      Namespace: z.string().nullish(),
      JobID: z.string().nullish(),
      Group: z.string().nullish(),
      Task: z.string().nullish(),
    })
    .nullish(),
});
const TokenBody = z.looseObject({
  AccessorID: z.string().nullish(),
  Name: z.string().nullish(),
  Type: z.string().nullish(),
  Policies: z.array(z.string()).nullish(),
  Global: z.boolean().nullish(),
  ExpirationTTL: z.number().nullish(),
  ExpirationTime: z.string().nullish(),
});

export function aclRoutes(router: Router, store: Store, auth: SchedAuthorizer): void {
  const enabled = (): void => {
    if (!auth.enabled) throw badRequest('ACL support disabled');
  };
  const self = (ctx: RequestContext) => auth.identify(ctx);

  router.add(
    ['PUT', 'POST'],
    '/v1/acl/bootstrap',
    async (ctx) => {
      enabled();
      const raw = await ctx.json();
      const body = raw === undefined ? {} : await parseBody(ctx, BootstrapBody, 'BootstrapSecret');
      const secret = body.BootstrapSecret || undefined;
      if (secret !== undefined && !UUID.test(secret))
        throw badRequest('BootstrapSecret: invalid acl bootstrap secret (must be a UUID)');
      const { result } = store.write((tx) => bootstrapToken(tx, secret, Date.now()));
      return { body: result };
    },
    { acl: 'none' },
  );

  router.get(
    '/v1/acl/policies',
    (ctx) => {
      enabled();
      const { token, acl } = self(ctx);
      const prefix = ctx.query.get('prefix') ?? '';
      const mine = new Set(token?.Policies ?? []);
      return blockingRead(ctx, store, [{ table: ACL_T.policies }], () => ({
        // A client token sees the policies it carries, as in Nomad.
        value: store
          .list<AclPolicyRecord>(ACL_T.policies)
          .filter((p) => p.Name.startsWith(prefix) && (acl.management || mine.has(p.Name)))
          .map(policyStub),
        index: store.tableIndex(ACL_T.policies),
      }));
    },
    { acl: 'none' },
  );

  router.get(
    '/v1/acl/policy/:name',
    (ctx) => {
      enabled();
      const name = ctx.params['name']!;
      const { token, acl } = self(ctx);
      if (!acl.management && !(token?.Policies ?? []).includes(name)) throw forbidden();
      return blockingRead(ctx, store, [{ table: ACL_T.policies, key: name }], () => {
        const p = store.get<AclPolicyRecord>(ACL_T.policies, name);
        if (!p) throw notFound('ACL policy not found');
        return { value: p, index: store.keyIndex(ACL_T.policies, name) };
      });
    },
    { acl: 'none' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/acl/policy/:name',
    async (ctx) => {
      enabled();
      const name = ctx.params['name']!;
      const body = await parseBody(ctx, PolicyBody, 'Rules');
      if (body.Name && body.Name !== name)
        throw badRequest(`Name: policy name "${body.Name}" does not match request path "${name}"`);
      if (!POLICY_NAME.test(name))
        throw badRequest(`Name: invalid policy name "${name}" (letters, digits and dashes, at most 128)`);
      const rules = body.Rules ?? '';
      try {
        parsePolicyRules(rules);
      } catch (e) {
        if (e instanceof PolicyRulesError) throw badRequest(`Rules: ${e.message}`);
        throw e;
      }
      if ((body.Description ?? '').length > 256)
        throw badRequest('Description: description longer than 256 characters');
      const jobAcl = body.JobACL
        ? {
            Namespace: body.JobACL.Namespace || 'default',
            JobID: body.JobACL.JobID ?? '',
            Group: body.JobACL.Group ?? '',
            Task: body.JobACL.Task ?? '',
          }
        : null;
      if (jobAcl && !jobAcl.JobID) throw badRequest('JobACL.JobID: a job ID is required');
      const { index } = store.write((tx) => {
        tx.put<Omit<AclPolicyRecord, 'CreateIndex' | 'ModifyIndex'>>(ACL_T.policies, name, {
          Name: name,
          Description: body.Description ?? '',
          Rules: rules,
          JobACL: jobAcl,
          Hash: createHash('sha256')
            .update(rules)
            .update('\0')
            .update(body.Description ?? '')
            .digest('base64'),
        });
      });
      return { body: null, index };
    },
    { acl: 'management' },
  );

  /** Policies and tokens are deleted alike: by the key in the path, a 404 when there is none. */
  const deleteRoute = (path: string, param: string, table: string, what: string): void => {
    router.add(
      'DELETE',
      path,
      (ctx) => {
        enabled();
        const key = ctx.params[param]!;
        const { index } = store.write((tx) => {
          if (!tx.delete(table, key)) throw notFound(`${what} not found`);
        });
        return { body: null, index };
      },
      { acl: 'management' },
    );
  };

  deleteRoute('/v1/acl/policy/:name', 'name', ACL_T.policies, 'ACL policy');

  router.get(
    '/v1/acl/tokens',
    (ctx) => {
      enabled();
      const prefix = ctx.query.get('prefix') ?? '';
      return blockingRead(ctx, store, [{ table: ACL_T.tokens }], () => ({
        value: store
          .list<AclTokenRecord>(ACL_T.tokens)
          .filter((t) => t.AccessorID.startsWith(prefix))
          .sort((a, b) => a.CreateIndex - b.CreateIndex)
          .map(tokenStub),
        index: store.tableIndex(ACL_T.tokens),
      }));
    },
    { acl: 'management' },
  );

  const upsertToken = async (ctx: RequestContext, pathAccessor?: string) => {
    enabled();
    const body = await parseBody(ctx, TokenBody, 'Type');
    const accessor = pathAccessor ?? (body.AccessorID || undefined);
    if (pathAccessor && body.AccessorID && body.AccessorID !== pathAccessor)
      throw badRequest('AccessorID: does not match request path');
    const { result } = store.write((tx) => {
      const prev = accessor ? tx.get<AclTokenRecord>(ACL_T.tokens, accessor) : undefined;
      if (accessor && !prev) throw notFound('ACL token not found');
      const token = buildToken(
        {
          Name: body.Name ?? undefined,
          Type: body.Type ?? undefined,
          Policies: body.Policies === undefined ? undefined : body.Policies,
          Global: body.Global ?? undefined,
          ExpirationTTL: body.ExpirationTTL ?? undefined,
          ExpirationTime: body.ExpirationTime ?? undefined,
        },
        prev,
        Date.now(),
      );
      return tx.put(ACL_T.tokens, token.AccessorID, token);
    });
    return { body: result };
  };
  router.add(['PUT', 'POST'], '/v1/acl/token', (ctx) => upsertToken(ctx), { acl: 'management' });
  router.add(['PUT', 'POST'], '/v1/acl/token/:accessor', (ctx) => upsertToken(ctx, ctx.params['accessor']), {
    acl: 'management',
  });

  router.get(
    '/v1/acl/token/self',
    (ctx) => {
      enabled();
      const { token } = self(ctx);
      if (!token) throw forbidden('ACL token not found');
      return { body: token, index: store.keyIndex(ACL_T.tokens, token.AccessorID) };
    },
    { acl: 'none' },
  );

  router.get(
    '/v1/acl/token/:accessor',
    (ctx) => {
      enabled();
      const accessor = ctx.params['accessor']!;
      const { token, acl } = self(ctx);
      if (!acl.management && token?.AccessorID !== accessor) throw forbidden();
      return blockingRead(ctx, store, [{ table: ACL_T.tokens, key: accessor }], () => {
        const t = store.get<AclTokenRecord>(ACL_T.tokens, accessor);
        if (!t) throw notFound('ACL token not found');
        return { value: t, index: store.keyIndex(ACL_T.tokens, accessor) };
      });
    },
    { acl: 'none' },
  );

  deleteRoute('/v1/acl/token/:accessor', 'accessor', ACL_T.tokens, 'ACL token');
}
