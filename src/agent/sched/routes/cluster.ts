/** Nodes, namespaces, and the agent/status endpoints, following Nomad. */
import { z } from 'zod';
import { blockingRead } from '../../http/blocking';
import { badRequest, notFound } from '../../http/errors';
import { listWith } from '../../http/list';
import type { Router } from '../../http/router';
import type { SchedContext } from '../context';
import type { AllocRecord, NamespaceRecord, NodeRecord } from '../model';
import { nodeStub } from '../nodes';
import { getNamespace, listJobs, isTerminalAlloc } from '../state';
import { T } from '../tables';
import { checkPrefix, listPage, parseBody, requireUuid } from './common';

const NamespaceBody = z.looseObject({
  Name: z.string().optional(),
  Description: z.string().nullish(),
  Meta: z.record(z.string(), z.string()).nullish(),
  Quota: z.string().nullish(),
  Capabilities: z.unknown().optional(),
  NodePoolConfiguration: z.unknown().optional(),
});

const NAMESPACE_NAME = /^[a-zA-Z0-9-]{1,128}$/;

export function clusterRoutes(router: Router, sc: SchedContext, self: () => { url: string }): void {
  const { store } = sc;

  router.get(
    '/v1/nodes',
    (ctx) => {
      const prefix = ctx.query.get('prefix') ?? '';
      checkPrefix(prefix);
      return blockingRead(ctx, store, [{ table: T.nodes }], () => {
        const nodes = store.list<NodeRecord>(T.nodes).filter((n) => n.ID.startsWith(prefix));
        return listPage(store.tableIndex(T.nodes), nodes, {
          query: ctx.query,
          key: (n) => n.ID,
          otherFilters: ['prefix'],
          stub: nodeStub,
        });
      });
    },
    { acl: 'node:read' },
  );

  router.get(
    '/v1/node/:id',
    (ctx) => {
      const id = ctx.params['id']!;
      requireUuid(id, 'node_id');
      return blockingRead(ctx, store, [{ table: T.nodes, key: id }], () => {
        const n = store.get<NodeRecord>(T.nodes, id);
        if (!n) throw notFound('node not found');
        return { value: n, index: store.keyIndex(T.nodes, id) };
      });
    },
    { acl: 'node:read' },
  );

  router.get(
    '/v1/node/:id/allocations',
    (ctx) => {
      const id = ctx.params['id']!;
      requireUuid(id, 'node_id');
      if (!store.get<NodeRecord>(T.nodes, id)) throw notFound('node not found');
      return blockingRead(ctx, store, [{ table: T.allocs }], () => ({
        value: store.list<AllocRecord>(T.allocs).filter((a) => a.NodeID === id),
        index: store.tableIndex(T.allocs),
      }));
    },
    { acl: 'node:read' },
  );

  router.get('/v1/namespaces', (ctx) => {
    const prefix = ctx.query.get('prefix') ?? '';
    return blockingRead(ctx, store, [{ table: T.namespaces }], () => {
      const list = store.list<NamespaceRecord>(T.namespaces).filter((n) => n.Name.startsWith(prefix));
      return {
        value: listWith(list, {
          query: ctx.query,
          key: (n) => n.Name,
          otherFilters: ['prefix'],
          paginate: false,
        }).items,
        index: store.tableIndex(T.namespaces),
      };
    });
  });

  router.get('/v1/namespace/:name', (ctx) => {
    const name = ctx.params['name']!;
    return blockingRead(ctx, store, [{ table: T.namespaces, key: name }], () => {
      const n = getNamespace(store, name);
      if (!n) throw notFound(`namespace "${name}" not found`);
      return { value: n, index: store.keyIndex(T.namespaces, name) };
    });
  });

  const upsert = async (ctx: Parameters<Parameters<Router['get']>[1]>[0]) => {
    const body = await parseBody(ctx, NamespaceBody, 'Name');
    const pathName = ctx.params['name'];
    const name = body.Name ?? pathName ?? '';
    if (pathName !== undefined && body.Name !== undefined && body.Name !== pathName) {
      throw badRequest(`Name: "${body.Name}" does not match request path "${pathName}"`);
    }
    if (!NAMESPACE_NAME.test(name))
      throw badRequest(`Name: invalid namespace name "${name}" (letters, digits and dashes, at most 128)`);
    const { index } = store.write((tx) => {
      const prev = getNamespace(tx, name);
      tx.put(T.namespaces, name, {
        Name: name,
        Description: body.Description ?? '',
        Quota: body.Quota ?? '',
        Capabilities: body.Capabilities ?? null,
        NodePoolConfiguration: body.NodePoolConfiguration ?? null,
        Meta: body.Meta ?? null,
        CreateIndex: prev?.CreateIndex,
      });
    });
    return { body: null, index };
  };
  router.add(['PUT', 'POST'], '/v1/namespace', upsert, { acl: 'management' });
  router.add(['PUT', 'POST'], '/v1/namespace/:name', upsert, { acl: 'management' });

  router.add(
    'DELETE',
    '/v1/namespace/:name',
    (ctx) => {
      const name = ctx.params['name']!;
      if (name === 'default') throw badRequest('default namespace can not be deleted');
      const { index } = store.write((tx) => {
        if (!getNamespace(tx, name)) throw notFound(`namespace "${name}" not found`);
        const jobs = listJobs(tx, name).filter(
          (j) =>
            !j.Stop ||
            tx
              .list<AllocRecord>(T.allocs)
              .some((a) => a.JobID === j.ID && a.Namespace === name && !isTerminalAlloc(a)),
        );
        if (jobs.length > 0)
          throw badRequest(
            `namespace "${name}" has non-terminal jobs: ${jobs
              .map((j) => j.ID)
              .slice(0, 5)
              .join(', ')}`,
          );
        tx.delete(T.namespaces, name);
      });
      return { body: null, index };
    },
    { acl: 'management' },
  );

  router.get('/v1/status/leader', () => ({ body: `${new URL(self().url).host}` }));
  router.get('/v1/status/peers', () => ({ body: [new URL(self().url).host] }));
  router.get('/v1/regions', () => ({ body: [sc.settings.region] }));
  router.get('/v1/agent/health', () => ({
    body: { client: { ok: true, message: 'ok' }, server: { ok: true, message: 'ok' } },
  }));
  router.get(
    '/v1/agent/self',
    () => ({
      body: {
        config: {
          Region: sc.settings.region,
          Datacenter: sc.settings.datacenter,
          Version: { Version: '0.1.0' },
          DevMode: true,
        },
        member: {
          Name: 'dev-agent',
          Addr: '127.0.0.1',
          Status: 'alive',
          Tags: { region: sc.settings.region, dc: sc.settings.datacenter },
        },
        stats: { nomad: { leader: 'true', known_regions: '1' } },
      },
    }),
    { acl: 'agent:read' },
  );
  router.get(
    '/v1/agent/members',
    () => ({
      body: {
        ServerName: 'dev-agent',
        ServerRegion: sc.settings.region,
        ServerDC: sc.settings.datacenter,
        Members: [
          {
            Name: `dev-agent.${sc.settings.region}`,
            Addr: '127.0.0.1',
            Port: 4648,
            Status: 'alive',
            Tags: { region: sc.settings.region, dc: sc.settings.datacenter, role: 'nomad' },
          },
        ],
      },
    }),
    { acl: 'node:read' },
  );
}
