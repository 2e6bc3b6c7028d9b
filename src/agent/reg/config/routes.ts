/** Consul's /v1/config endpoints for the entries that feed the discovery chain. */
import { blockingRead } from '../../http/blocking';
import { notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { intParam } from '../../http/query';
import type { RequestAuth } from '../acl/gate';
import { authOf, type RegContext } from '../context';
import type { StoredConfigEntry } from '../model';
import { applyFilter, bodyObject, namedNamespace, optString, serviceName } from '../request';
import { DEFAULT_NAMESPACE, T, configKey, configKindPrefix } from '../tables';
import { requireWritableNamespace } from '../namespaces/lookup';
import { validateEntryGraph } from './graph';
import { checkKind, normalizeEntry } from './normalize';

/** Reads of service-* entries need service:read on the entry's name; proxy-defaults need nothing. */
function canRead(auth: RequestAuth, e: { Kind: string; Name: string; Namespace: string }): boolean {
  return e.Kind === 'proxy-defaults' || auth.can(`service:${e.Name}:read`, e.Namespace);
}

function requireWrite(auth: RequestAuth, kind: string, name: string, ns: string): void {
  if (kind === 'proxy-defaults') auth.require(['operator:write', 'mesh:write'], DEFAULT_NAMESPACE);
  else auth.require(`service:${name}:write`, ns);
}

/** Entries of the service kinds are named after a service; proxy-defaults has its own fixed name. */
function entryName(kind: string, field: string, name: unknown): string {
  return kind === 'proxy-defaults' ? String(name) : serviceName(field, name);
}

export function addConfigRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  const nsOf = (ctx: RequestContext): string => authOf(rc, ctx).namespace(ctx);
  const nsFor = (ctx: RequestContext, kind: string): string =>
    kind === 'proxy-defaults' ? DEFAULT_NAMESPACE : nsOf(ctx);

  router.add('PUT', '/v1/config', async (ctx) => {
    const body = await bodyObject(ctx);
    const kind = checkKind('Kind', body['Kind']);
    const namespace =
      kind === 'proxy-defaults' ? DEFAULT_NAMESPACE : optString(body, 'Namespace') || nsOf(ctx);
    const auth = authOf(rc, ctx);
    if (typeof body['Name'] === 'string' && body['Name'] !== '')
      requireWrite(auth, kind, entryName(kind, 'Name', body['Name']), namespace);
    const entry = normalizeEntry(body, namespace);
    const cas = intParam(ctx.query, 'cas', { min: 0 });
    const key = configKey(namespace, kind, entry.Name);
    const { result } = store.write((tx) => {
      requireWritableNamespace(tx, namespace);
      if (cas !== undefined) {
        const existing = tx.get<StoredConfigEntry>(T.configEntries, key);
        if (cas === 0 ? existing !== undefined : existing?.ModifyIndex !== cas) return false;
      }
      tx.put(T.configEntries, key, entry);
      validateEntryGraph(tx, rc.datacenter, rc.trustDomain);
      return true;
    });
    return { body: result };
  });

  router.add('GET', '/v1/config/:kind', (ctx) => {
    const kind = checkKind('kind', ctx.params['kind']);
    const ns = nsFor(ctx, kind);
    const all = namedNamespace(ctx) === '*';
    const auth = authOf(rc, ctx);
    return blockingRead(ctx, store, [{ table: T.configEntries }], () => {
      const entries = all
        ? store.list<StoredConfigEntry>(T.configEntries).filter((e) => e.Kind === kind)
        : store.list<StoredConfigEntry>(T.configEntries, { prefix: configKindPrefix(ns, kind) });
      const visible = entries.filter((e) => canRead(auth, e));
      const headers: Record<string, string> =
        visible.length < entries.length ? { 'X-Reg-Results-Filtered-By-ACLs': 'true' } : {};
      return {
        value: applyFilter(
          ctx,
          visible.map((e) => ({ ...e })),
        ),
        index: store.tableIndex(T.configEntries),
        headers,
      };
    });
  });

  router.add('GET', '/v1/config/:kind/:name', (ctx) => {
    const kind = checkKind('kind', ctx.params['kind']);
    const name = entryName(kind, 'name', ctx.params['name']);
    const ns = nsFor(ctx, kind);
    if (kind !== 'proxy-defaults') authOf(rc, ctx).require(`service:${name}:read`, ns);
    const key = configKey(ns, kind, name);
    return blockingRead(ctx, store, [{ table: T.configEntries, key }], () => {
      const e = store.get<StoredConfigEntry>(T.configEntries, key);
      if (!e) throw notFound(`Config entry not found for "${kind}" / "${name}"`);
      return { value: e, index: store.keyIndex(T.configEntries, key) };
    });
  });

  router.add('DELETE', '/v1/config/:kind/:name', (ctx) => {
    const kind = checkKind('kind', ctx.params['kind']);
    const name = entryName(kind, 'name', ctx.params['name']);
    const ns = nsFor(ctx, kind);
    requireWrite(authOf(rc, ctx), kind, name, ns);
    const cas = intParam(ctx.query, 'cas', { min: 0 });
    const key = configKey(ns, kind, name);
    const { result } = store.write((tx) => {
      const existing = tx.get<StoredConfigEntry>(T.configEntries, key);
      if (cas !== undefined && existing?.ModifyIndex !== cas) return false;
      if (existing) {
        tx.delete(T.configEntries, key);
        validateEntryGraph(tx, rc.datacenter, rc.trustDomain);
      }
      return true;
    });
    // Consul answers a plain delete with {} and a check-and-set delete with whether it happened.
    return { body: cas === undefined ? {} : result };
  });
}
