/** /v1/allocations, /v1/allocation/<id> and the client allocation endpoints (spec 4.3). */
import { AllocRestartRequestSchema, AllocSignalRequestSchema } from '../../../api/sched/schemas';
import { blockingRead } from '../../http/blocking';
import { badRequest, notFound } from '../../http/errors';
import { boolParam } from '../../http/query';
import type { Router } from '../../http/router';
import type { ClientRunner } from '../client/runner';
import type { SchedContext } from '../context';
import { newEval } from '../evaluator';
import type { AllocRecord } from '../model';
import { isTerminalAlloc } from '../state';
import { allocStub } from '../stubs';
import { T, childKey } from '../tables';
import { checkPrefix, checkRegion, listPage, namespaceOf, parseBody, requireUuid } from './common';

const SIGNALS = new Set([
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGKILL',
  'SIGUSR1',
  'SIGSEGV',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
  'SIGCHLD',
  'SIGCONT',
  'SIGSTOP',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGWINCH',
]);

export function findAlloc(sc: SchedContext, id: string): AllocRecord {
  requireUuid(id, 'alloc_id');
  const key = sc.state.keyOf(id);
  const a = key ? sc.store.get<AllocRecord>(T.allocs, key) : undefined;
  if (!a) throw notFound(`alloc not found`);
  return a;
}

function liveAlloc(sc: SchedContext, id: string, ns: string): AllocRecord {
  const a = findAlloc(sc, id);
  if (a.Namespace !== ns) throw notFound('alloc not found');
  if (isTerminalAlloc(a))
    throw badRequest(`allocation ${id} is not running (client status "${a.ClientStatus}")`);
  return a;
}

export function allocationRoutes(router: Router, sc: SchedContext, runner: ClientRunner): void {
  const { store } = sc;

  router.get(
    '/v1/allocations',
    (ctx) => {
      checkRegion(sc, ctx);
      const ns = namespaceOf(ctx, true);
      const prefix = ctx.query.get('prefix') ?? '';
      checkPrefix(prefix);
      const opts = {
        resources: boolParam(ctx.query, 'resources'),
        taskStates: boolParam(ctx.query, 'task_states', true),
      };
      return blockingRead(ctx, store, [{ table: T.allocs }], () => {
        const all = store
          .list<AllocRecord>(T.allocs)
          .filter((a) => (ns === '*' || a.Namespace === ns) && a.ID.startsWith(prefix));
        return listPage(store.tableIndex(T.allocs), all, {
          query: ctx.query,
          key: (a) => a.ID,
          otherFilters: ['prefix'],
          stub: (a) => allocStub(a, opts),
        });
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.get(
    '/v1/allocation/:id',
    (ctx) => {
      checkRegion(sc, ctx);
      const id = ctx.params['id']!;
      const a = findAlloc(sc, id);
      const key = childKey(a.Namespace, a.JobID, a.ID);
      return blockingRead(ctx, store, [{ table: T.allocs, key }], () => ({
        value: store.get<AllocRecord>(T.allocs, key) ?? a,
        index: store.keyIndex(T.allocs, key),
      }));
    },
    { acl: 'namespace:read-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/allocation/:id/stop',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const a = findAlloc(sc, ctx.params['id']!);
      if (a.Namespace !== ns) throw notFound('alloc not found');
      const { result } = store.write((tx) => {
        const key = childKey(a.Namespace, a.JobID, a.ID);
        const cur = tx.get<AllocRecord>(T.allocs, key)!;
        // Stopping marks the allocation for migration: the scheduler places a replacement.
        tx.put(T.allocs, key, {
          ...cur,
          DesiredStatus: 'stop',
          DesiredDescription: 'alloc is being migrated',
          DesiredTransition: { ...cur.DesiredTransition, Migrate: true },
          ModifyTime: sc.clock.nowNs(),
        });
        const ev = newEval(
          {
            Namespace: a.Namespace,
            JobID: a.JobID,
            Type: a.Job.Type ?? 'service',
            Priority: a.Job.Priority ?? 50,
            TriggeredBy: 'alloc-stop',
            JobModifyIndex: a.Job.JobModifyIndex ?? 0,
          },
          sc.clock.nowNs(),
        );
        tx.put(T.evals, childKey(a.Namespace, a.JobID, ev.ID), ev);
        return { EvalID: ev.ID, Index: tx.index };
      });
      return { body: result };
    },
    { acl: 'namespace:alloc-lifecycle' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/client/allocation/:id/signal',
    async (ctx) => {
      const ns = namespaceOf(ctx);
      const body =
        (await ctx.json()) === undefined
          ? { Signal: '' }
          : await parseBody(ctx, AllocSignalRequestSchema, 'Signal');
      const a = liveAlloc(sc, ctx.params['id']!, ns);
      const signal = (body.Signal || 'SIGKILL').toUpperCase();
      if (!SIGNALS.has(signal)) throw badRequest(`Signal: unknown signal "${body.Signal}"`);
      if (body.Task && !Object.keys(a.TaskStates).includes(body.Task))
        throw badRequest(`Task: allocation has no task "${body.Task}"`);
      runner.signal(a.ID, signal, body.Task || undefined);
      return { body: {} };
    },
    { acl: 'namespace:alloc-lifecycle' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/client/allocation/:id/restart',
    async (ctx) => {
      const ns = namespaceOf(ctx);
      const body =
        (await ctx.json()) === undefined ? {} : await parseBody(ctx, AllocRestartRequestSchema, 'TaskName');
      const a = liveAlloc(sc, ctx.params['id']!, ns);
      const task = (body as { TaskName?: string }).TaskName;
      if (task && !Object.keys(a.TaskStates).includes(task))
        throw badRequest(`TaskName: allocation has no task "${task}"`);
      runner.restart(a.ID, task || undefined);
      return { body: {} };
    },
    { acl: 'namespace:alloc-lifecycle' },
  );
}
