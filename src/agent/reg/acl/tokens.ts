/** /v1/acl/token, /v1/acl/token/self and /v1/acl/tokens, following Consul's ACL token endpoints. */
import { MAX_TOKEN_TTL_MS, MIN_TOKEN_TTL_MS } from '../../../api/reg/rules';
import { badRequest, HttpError, invalidField, notFound } from '../../http/errors';
import { blockingRead } from '../../http/blocking';
import type { RequestContext, Router } from '../../http/router';
import { newId } from '../../ids';
import type { Store, Txn } from '../../store';
import { authOf, type RegContext } from '../context';
import type { StoredToken } from '../model';
import { applyFilter, bodyObject, goDuration, optDurationMs, optString, type Body } from '../request';
import { T } from '../tables';
import { requireWritableNamespace } from '../namespaces/lookup';
import { ANONYMOUS_TOKEN_ID } from './builtins';
import { nodeIdentities, putList, serviceIdentities, UUID_RE } from './identities';
import { renderLinks, resolveLinks } from './links';
import { namespaceOf } from './object-routes';
import { isExpired } from './resolve';

type Reader = Pick<Store, 'get' | 'list'>;

export function renderToken(reader: Reader, t: StoredToken, withSecret = true): Record<string, unknown> {
  const out: Record<string, unknown> = { AccessorID: t.AccessorID };
  if (withSecret) out['SecretID'] = t.SecretID;
  out['Description'] = t.Description;
  putList(out, 'Policies', renderLinks(reader, 'policy', t.Policies));
  putList(out, 'Roles', renderLinks(reader, 'role', t.Roles));
  putList(out, 'ServiceIdentities', t.ServiceIdentities);
  putList(out, 'NodeIdentities', t.NodeIdentities);
  out['Local'] = t.Local;
  if (t.AuthMethod) {
    out['AuthMethod'] = t.AuthMethod;
    out['AuthMethodNamespace'] = t.AuthMethodNamespace;
  }
  if (t.ExpirationTimeMs !== undefined) out['ExpirationTime'] = new Date(t.ExpirationTimeMs).toISOString();
  out['CreateTime'] = new Date(t.CreateTimeMs).toISOString();
  out['Namespace'] = t.Namespace;
  out['CreateIndex'] = t.CreateIndex;
  out['ModifyIndex'] = t.ModifyIndex;
  return out;
}

function uuidField(body: Body, field: string): string | undefined {
  const v = optString(body, field);
  if (v === undefined || v === '') return undefined;
  if (!UUID_RE.test(v)) throw invalidField(field, `must be a UUID; got ${JSON.stringify(v)} (rule: uuid)`);
  return v;
}

function expiration(body: Body, nowMs: number): { ttl?: number; at?: number } {
  const ttl = optDurationMs(body, 'ExpirationTTL');
  const atText = optString(body, 'ExpirationTime');
  if (ttl !== undefined && atText)
    throw invalidField('ExpirationTTL', 'cannot be set together with ExpirationTime (rule: exclusive)');
  if (ttl !== undefined) {
    if (ttl < MIN_TOKEN_TTL_MS || ttl > MAX_TOKEN_TTL_MS)
      throw invalidField(
        'ExpirationTTL',
        `must be between ${goDuration(MIN_TOKEN_TTL_MS)} and ${goDuration(MAX_TOKEN_TTL_MS)}; got ${goDuration(ttl)} (rule: token-ttl-bounds)`,
      );
    return { ttl, at: nowMs + ttl };
  }
  if (atText) {
    const at = Date.parse(atText);
    if (Number.isNaN(at))
      throw invalidField(
        'ExpirationTime',
        `must be an RFC 3339 time; got ${JSON.stringify(atText)} (rule: time)`,
      );
    if (at <= nowMs) throw invalidField('ExpirationTime', 'must be in the future (rule: future)');
    return { at };
  }
  return {};
}

function buildToken(
  tx: Txn,
  body: Body,
  accessor: string,
  secret: string,
  namespace: string,
  prior: StoredToken | undefined,
): StoredToken {
  const now = Date.now();
  const local = body['Local'];
  if (local !== undefined && typeof local !== 'boolean')
    throw invalidField('Local', 'must be true or false (rule: type)');
  const t: StoredToken = {
    AccessorID: accessor,
    SecretID: secret,
    Description: optString(body, 'Description') ?? '',
    Policies: resolveLinks(tx, 'policy', body['Policies'], 'Policies', namespace),
    Roles: resolveLinks(tx, 'role', body['Roles'], 'Roles', namespace),
    ServiceIdentities: serviceIdentities(body['ServiceIdentities']),
    NodeIdentities: nodeIdentities(body['NodeIdentities']),
    Local: local ?? prior?.Local ?? false,
    CreateTimeMs: prior?.CreateTimeMs ?? now,
    Namespace: namespace,
  };
  if (prior) {
    if (local !== undefined && local !== prior.Local)
      throw invalidField('Local', 'cannot change whether a token is local (rule: immutable)');
    if (body['ExpirationTTL'] !== undefined || body['ExpirationTime'] !== undefined) {
      const e = expiration(body, prior.CreateTimeMs);
      if (e.at !== prior.ExpirationTimeMs)
        throw invalidField('ExpirationTime', 'cannot change the expiration of a token (rule: immutable)');
    }
    if (prior.ExpirationTimeMs !== undefined) t.ExpirationTimeMs = prior.ExpirationTimeMs;
    if (prior.AuthMethod) {
      t.AuthMethod = prior.AuthMethod;
      t.AuthMethodNamespace = prior.AuthMethodNamespace;
    }
  } else {
    const e = expiration(body, now);
    if (e.at !== undefined) t.ExpirationTimeMs = e.at;
  }
  return t;
}

export function addTokenRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  const nsOf = (ctx: RequestContext, body?: Body): string => namespaceOf(rc, ctx, body);

  router.add(
    'PUT',
    '/v1/acl/token',
    async (ctx) => {
      const body = await bodyObject(ctx);
      const namespace = nsOf(ctx, body);
      authOf(rc, ctx).require('acl:write', namespace);
      const accessor = uuidField(body, 'AccessorID') ?? newId();
      const secret = uuidField(body, 'SecretID') ?? newId();
      const { result } = store.write((tx) => {
        requireWritableNamespace(tx, namespace);
        const tokens = tx.list<StoredToken>(T.tokens);
        if (tokens.some((t) => t.AccessorID === accessor))
          throw invalidField('AccessorID', 'is already in use (rule: unique)');
        if (tokens.some((t) => t.SecretID === secret))
          throw invalidField('SecretID', 'is already in use (rule: unique)');
        return tx.put(T.tokens, accessor, buildToken(tx, body, accessor, secret, namespace, undefined));
      });
      return { body: renderToken(store, result) };
    },
    { acl: 'acl:write' },
  );

  router.add('GET', '/v1/acl/token/self', (ctx) => {
    const t = rc.gate.resolveAny(ctx);
    if (!t) throw new HttpError(403, 'ACL not found');
    return { body: renderToken(store, t), index: store.keyIndex(T.tokens, t.AccessorID) };
  });

  router.add(
    'GET',
    '/v1/acl/token/:id',
    (ctx) =>
      blockingRead(ctx, store, [{ table: T.tokens, key: ctx.params['id']! }], () => {
        const t = store.get<StoredToken>(T.tokens, ctx.params['id']!);
        if (!t || isExpired(t, Date.now())) throw notFound(`ACL token not found: "${ctx.params['id']!}"`);
        return { value: renderToken(store, t), index: store.keyIndex(T.tokens, t.AccessorID) };
      }),
    { acl: 'acl:read' },
  );

  router.add(
    'PUT',
    '/v1/acl/token/:id',
    async (ctx) => {
      const id = ctx.params['id']!;
      const body = await bodyObject(ctx);
      const bodyId = optString(body, 'AccessorID');
      if (bodyId && bodyId !== id)
        throw invalidField('AccessorID', `must match the ID in the path "${id}" (rule: matches-path)`);
      const { result } = store.write((tx) => {
        const prior = tx.get<StoredToken>(T.tokens, id);
        if (!prior) throw notFound(`ACL token not found: "${id}"`);
        authOf(rc, ctx).require('acl:write', prior.Namespace);
        const secret = optString(body, 'SecretID');
        if (secret && secret !== prior.SecretID)
          throw invalidField('SecretID', 'cannot be changed (rule: immutable)');
        const namespace = optString(body, 'Namespace') || prior.Namespace;
        if (namespace !== prior.Namespace)
          throw invalidField('Namespace', 'cannot move a token to another namespace (rule: immutable)');
        return tx.put(T.tokens, id, buildToken(tx, body, id, prior.SecretID, namespace, prior));
      });
      return { body: renderToken(store, result) };
    },
    { acl: 'acl:write' },
  );

  router.add(
    'DELETE',
    '/v1/acl/token/:id',
    (ctx) => {
      const id = ctx.params['id']!;
      if (id === ANONYMOUS_TOKEN_ID)
        throw badRequest('id: deleting the anonymous token is not permitted (rule: builtin)');
      if (authOf(rc, ctx).token?.AccessorID === id)
        throw badRequest('id: deleting the token this request is made with is not permitted (rule: self)');
      return { body: store.write((tx) => tx.delete(T.tokens, id)).result };
    },
    { acl: 'acl:write' },
  );

  router.add(
    'GET',
    '/v1/acl/tokens',
    (ctx) => {
      const ns = nsOf(ctx);
      const policy = ctx.query.get('policy');
      const role = ctx.query.get('role');
      const method = ctx.query.get('authmethod');
      return blockingRead(ctx, store, [{ table: T.tokens }], () => {
        const now = Date.now();
        const list = store
          .list<StoredToken>(T.tokens)
          .filter(
            (t) =>
              t.Namespace === ns &&
              !isExpired(t, now) &&
              (!policy || t.Policies.some((l) => l.ID === policy)) &&
              (!role || t.Roles.some((l) => l.ID === role)) &&
              (!method || t.AuthMethod === method),
          );
        return {
          value: applyFilter(
            ctx,
            list.map((t) => renderToken(store, t)),
          ),
          index: store.tableIndex(T.tokens),
        };
      });
    },
    { acl: 'acl:read' },
  );
}
