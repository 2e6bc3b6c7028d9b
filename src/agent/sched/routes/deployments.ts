/** Deployments and evaluations as top-level resources, following Nomad's endpoints. */
import { DeploymentFailRequestSchema, DeploymentPromoteRequestSchema } from '../../../api/sched/schemas';
import { blockingRead } from '../../http/blocking';
import { badRequest, notFound } from '../../http/errors';
import { boolParam } from '../../http/query';
import type { RequestContext, Router } from '../../http/router';
import type { SchedContext } from '../context';
import { DESCRIPTIONS, requireDeployment, type DeploymentWatcher } from '../deployments/watcher';
import type { AllocRecord, DeploymentRecord, EvalRecord } from '../model';
import { allocStub } from '../stubs';
import { jobAllocs } from '../state';
import { T } from '../tables';
import { checkPrefix, checkRegion, listPage, namespaceOf, parseBody, requireUuid } from './common';

function byId<R>(sc: SchedContext, table: string, id: string, what: string): { rec: R; key: string } {
  requireUuid(id, `${what}_id`);
  const key = sc.state.keyOf(id);
  const rec = key ? sc.store.get<R>(table, key) : undefined;
  if (!rec || !key) throw notFound(`${what} not found`);
  return { rec, key };
}

export function deploymentRoutes(router: Router, sc: SchedContext, watcher: DeploymentWatcher): void {
  const { store } = sc;
  const readOne = (ctx: RequestContext, table: string, what: string) => {
    const { key } = byId(sc, table, ctx.params['id']!, what);
    return blockingRead(ctx, store, [{ table, key }], () => ({
      value: store.get(table, key),
      index: store.keyIndex(table, key),
    }));
  };

  router.get(
    '/v1/deployments',
    (ctx) => {
      checkRegion(sc, ctx);
      const ns = namespaceOf(ctx, true);
      const prefix = ctx.query.get('prefix') ?? '';
      checkPrefix(prefix);
      return blockingRead(ctx, store, [{ table: T.deployments }], () => {
        const all = store
          .list<DeploymentRecord>(T.deployments)
          .filter((d) => (ns === '*' || d.Namespace === ns) && d.ID.startsWith(prefix));
        return listPage(store.tableIndex(T.deployments), all, {
          query: ctx.query,
          key: (d) => `${String(d.CreateIndex).padStart(12, '0')}.${d.ID}`,
          otherFilters: ['prefix'],
        });
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.get('/v1/deployment/:id', (ctx) => readOne(ctx, T.deployments, 'deployment'), {
    acl: 'namespace:read-job',
  });

  router.get(
    '/v1/deployment/allocations/:id',
    (ctx) => {
      const { rec } = byId<DeploymentRecord>(sc, T.deployments, ctx.params['id']!, 'deployment');
      const opts = { resources: false, taskStates: boolParam(ctx.query, 'task_states', true) };
      return blockingRead(ctx, store, [{ table: T.allocs }], () => ({
        value: jobAllocs(store, rec.Namespace, rec.JobID)
          .filter((a) => a.DeploymentID === rec.ID)
          .map((a) => allocStub(a, opts)),
        index: store.tableIndex(T.allocs),
      }));
    },
    { acl: 'namespace:read-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/deployment/promote/:id',
    async (ctx) => {
      const id = ctx.params['id']!;
      const body = await parseBody(ctx, DeploymentPromoteRequestSchema, 'DeploymentID');
      if (body.DeploymentID && body.DeploymentID !== id)
        throw badRequest('DeploymentID: does not match request path');
      if (!body.All && !(body.Groups && body.Groups.length > 0))
        throw badRequest('All: set All or name Groups to promote');
      const { key } = byId<DeploymentRecord>(sc, T.deployments, id, 'deployment');
      const { index } = store.write((tx) =>
        watcher.promote(tx, requireDeployment(tx, key, id), body.All ? 'all' : (body.Groups ?? [])),
      );
      return { body: { Index: index, DeploymentModifyIndex: index, EvalID: '', EvalCreateIndex: index } };
    },
    { acl: 'namespace:submit-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/deployment/fail/:id',
    async (ctx) => {
      const id = ctx.params['id']!;
      const raw = await ctx.json();
      if (raw !== undefined) {
        const body = await parseBody(ctx, DeploymentFailRequestSchema, 'DeploymentID');
        if (body.DeploymentID && body.DeploymentID !== id)
          throw badRequest('DeploymentID: does not match request path');
      }
      const { key } = byId<DeploymentRecord>(sc, T.deployments, id, 'deployment');
      const { index } = store.write((tx) => {
        const d = requireDeployment(tx, key, id);
        if (d.Status !== 'running' && d.Status !== 'paused')
          throw badRequest(`can't fail terminal deployment (status "${d.Status}")`);
        watcher.fail(tx, d, DESCRIPTIONS.failedByUser);
      });
      return { body: { Index: index, DeploymentModifyIndex: index } };
    },
    { acl: 'namespace:submit-job' },
  );

  router.get(
    '/v1/evaluations',
    (ctx) => {
      const ns = namespaceOf(ctx, true);
      const prefix = ctx.query.get('prefix') ?? '';
      checkPrefix(prefix);
      const job = ctx.query.get('job');
      const status = ctx.query.get('status');
      return blockingRead(ctx, store, [{ table: T.evals }], () => {
        const all = store
          .list<EvalRecord>(T.evals)
          .filter(
            (e) =>
              (ns === '*' || e.Namespace === ns) &&
              e.ID.startsWith(prefix) &&
              (!job || e.JobID === job) &&
              (!status || e.Status === status),
          );
        return listPage(store.tableIndex(T.evals), all, {
          query: ctx.query,
          key: (e) => e.ID,
          otherFilters: ['prefix', 'job', 'status'],
        });
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.get('/v1/evaluation/:id', (ctx) => readOne(ctx, T.evals, 'eval'), { acl: 'namespace:read-job' });

  router.get(
    '/v1/evaluation/:id/allocations',
    (ctx) => {
      const { rec } = byId<EvalRecord>(sc, T.evals, ctx.params['id']!, 'eval');
      return blockingRead(ctx, store, [{ table: T.allocs }], () => ({
        value: store
          .list<AllocRecord>(T.allocs)
          .filter((a) => a.EvalID === rec.ID)
          .map((a) => allocStub(a, { resources: false, taskStates: true })),
        index: store.tableIndex(T.allocs),
      }));
    },
    { acl: 'namespace:read-job' },
  );
}
