/** /v1/jobs and /v1/job/<id>/...: everything about jobs, as spec section 4.4 and Nomad define it. */
import { z } from 'zod';
import {
  JobDispatchRequestSchema,
  JobEvaluateRequestSchema,
  JobParseRequestSchema,
  JobPlanRequestSchema,
  JobRegisterRequestSchema,
  JobRevertRequestSchema,
  JobStabilityRequestSchema,
} from '../../../api/sched/schemas';
import { blockingRead } from '../../http/blocking';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { boolParam, intParam } from '../../http/query';
import type { Router } from '../../http/router';
import type { SchedContext } from '../context';
import { annotateTaskDiffs, classifyGroupUpdate, diffJobs, type GroupAnnotation } from '../diff';
import { computeEval, newEval } from '../evaluator';
import { dispatchJob } from '../jobs/dispatch';
import { launchPeriodic, nextLaunch } from '../jobs/periodic';
import { deregisterJob, listVersions, registerJob, revertJob, setStability } from '../jobs/register';
import { JobRequests } from './job-requests';
import { parseJobspec, JobspecError } from '../jobspec';
import type { Job, SubmissionRecord } from '../model';
import { allocStub, jobStub } from '../stubs';
import {
  getJob,
  getSummary,
  jobAllocs,
  jobDeployments,
  jobEvals,
  latestDeployment,
  listJobs,
} from '../state';
import { T, childKey, jobKey, jobPrefix, namespacePrefix, versionKey } from '../tables';
import { checkRegion, listPage, namespaceOf, parseBody } from './common';
import { canonicalizeJob } from '../../../api/sched/canonicalize';

const ROLLBACK = Symbol('dry-run');

function requireJob(sc: SchedContext, ns: string, id: string): Job {
  const job = getJob(sc.store, ns, id);
  if (!job) throw notFound('job not found');
  return job;
}

export function jobRoutes(router: Router, sc: SchedContext): void {
  const { store } = sc;
  const jobRequests = new JobRequests();

  router.get(
    '/v1/jobs',
    (ctx) => {
      checkRegion(sc, ctx);
      const ns = namespaceOf(ctx, true);
      const prefix = ctx.query.get('prefix') ?? '';
      const withMeta = boolParam(ctx.query, 'meta');
      const watch = ns === '*' ? [{ table: T.jobs }] : [{ table: T.jobs, prefix: namespacePrefix(ns) }];
      return blockingRead(ctx, store, watch, () => {
        const jobs = listJobs(store, ns).filter((j) => j.ID!.startsWith(prefix));
        return listPage(store.tableIndex(T.jobs), jobs, {
          query: ctx.query,
          key: (j) => (ns === '*' ? `${j.Namespace}.${j.ID}` : j.ID!),
          otherFilters: ['prefix'],
          stub: (j) => jobStub(j, getSummary(store, j.Namespace!, j.ID!), withMeta),
        });
      });
    },
    { acl: 'namespace:list-jobs' },
  );

  const register = async (ctx: Parameters<Parameters<Router['get']>[1]>[0], pathId?: string) => {
    checkRegion(sc, ctx);
    const { body, job } = await jobRequests.read(ctx, JobRegisterRequestSchema);
    if (pathId !== undefined && job.ID !== pathId)
      throw badRequest(`Job.ID: job ID "${job.ID}" does not match request path "${pathId}"`);
    const sub = body.Submission as Partial<SubmissionRecord> | undefined | null;
    const { result } = store.write((tx) =>
      registerJob(sc, tx, job, {
        enforceIndex: body.EnforceIndex ?? false,
        jobModifyIndex: body.JobModifyIndex ?? 0,
        preserveCounts: (body as { PreserveCounts?: boolean }).PreserveCounts ?? false,
        evalPriority: body.EvalPriority ?? 0,
        submission: sub?.Source
          ? {
              Source: sub.Source,
              Format: sub.Format ?? 'hcl2',
              VariableFlags: sub.VariableFlags ?? null,
              Variables: sub.Variables ?? '',
            }
          : null,
      }),
    );
    const { job: _stored, ...reply } = result;
    return { body: { ...reply, LastContact: 0, KnownLeader: true } };
  };
  router.add(['PUT', 'POST'], '/v1/jobs', (ctx) => register(ctx), { acl: 'namespace:submit-job' });
  router.add(['PUT', 'POST'], '/v1/job/:id', (ctx) => register(ctx, ctx.params['id']), {
    acl: 'namespace:submit-job',
  });

  router.add(
    ['PUT', 'POST'],
    '/v1/jobs/parse',
    async (ctx) => {
      const body = await parseBody(ctx, JobParseRequestSchema, 'JobHCL');
      if (!body.JobHCL) throw badRequest('JobHCL: the HCL text of the job is required');
      let job: Job;
      try {
        job = parseJobspec(body.JobHCL, { variables: body.Variables ?? '' }) as Job;
      } catch (e) {
        if (e instanceof JobspecError) throw badRequest(e.message);
        throw e;
      }
      return { body: body.Canonicalize ? canonicalizeJob(job) : job };
    },
    { acl: 'namespace:parse-job' },
  );

  router.get(
    '/v1/job/:id',
    (ctx) => {
      checkRegion(sc, ctx);
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      return blockingRead(ctx, store, [{ table: T.jobs, key: jobKey(ns, id) }], () => ({
        value: requireJob(sc, ns, id),
        index: store.keyIndex(T.jobs, jobKey(ns, id)),
      }));
    },
    { acl: 'namespace:read-job' },
  );

  router.add(
    'DELETE',
    '/v1/job/:id',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const purge = boolParam(ctx.query, 'purge');
      const evalPriority = intParam(ctx.query, 'eval_priority');
      const { result } = store.write((tx) =>
        deregisterJob(sc, tx, ns, ctx.params['id']!, purge, evalPriority),
      );
      return { body: { ...result, LastContact: 0, KnownLeader: true } };
    },
    { acl: 'namespace:submit-job' },
  );

  router.get(
    '/v1/job/:id/submission',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      const version = intParam(ctx.query, 'version', { min: 0 });
      if (version === undefined) throw badRequest('version: the job version is required');
      requireJob(sc, ns, id);
      const key = versionKey(ns, id, version);
      return blockingRead(ctx, store, [{ table: T.submissions, key }], () => {
        const sub = store.get<SubmissionRecord>(T.submissions, key);
        if (!sub) throw notFound(`job source not found for version ${version}`);
        return { value: sub, index: store.keyIndex(T.submissions, key) };
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.get(
    '/v1/job/:id/versions',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      const diffs = boolParam(ctx.query, 'diffs');
      const diffVersion = intParam(ctx.query, 'diff_version', { min: 0 });
      return blockingRead(ctx, store, [{ table: T.versions, prefix: jobPrefix(ns, id) }], () => {
        requireJob(sc, ns, id);
        const versions = listVersions(store, ns, id);
        let diffList: unknown[] | null = null;
        if (diffs) {
          const against =
            diffVersion !== undefined ? versions.find((v) => v.Version === diffVersion) : undefined;
          if (diffVersion !== undefined && !against) throw notFound(`job version ${diffVersion} not found`);
          diffList = [];
          for (let i = 0; i < versions.length - 1 || (against && i < versions.length); i++) {
            const cur = versions[i]!;
            const prev = against ?? versions[i + 1];
            if (!prev || prev === cur) continue;
            diffList.push(diffJobs(prev, cur));
          }
        }
        return {
          value: {
            Versions: versions,
            Diffs: diffList,
            Index: store.tableIndex(T.versions),
            KnownLeader: true,
            LastContact: 0,
          },
          index: store.keyIndex(T.jobs, jobKey(ns, id)),
        };
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.get(
    '/v1/job/:id/allocations',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      const all = boolParam(ctx.query, 'all');
      const opts = {
        resources: boolParam(ctx.query, 'resources'),
        taskStates: boolParam(ctx.query, 'task_states', true),
      };
      return blockingRead(ctx, store, [{ table: T.allocs, prefix: jobPrefix(ns, id) }], () => {
        const job = getJob(store, ns, id);
        const allocs = jobAllocs(store, ns, id).filter(
          (a) => all || !job || a.Job.CreateIndex === job.CreateIndex,
        );
        return { value: allocs.map((a) => allocStub(a, opts)), index: store.tableIndex(T.allocs) };
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.get(
    '/v1/job/:id/evaluations',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      return blockingRead(ctx, store, [{ table: T.evals, prefix: jobPrefix(ns, id) }], () => ({
        value: jobEvals(store, ns, id).sort((a, b) => b.CreateIndex - a.CreateIndex),
        index: store.tableIndex(T.evals),
      }));
    },
    { acl: 'namespace:read-job' },
  );

  router.get(
    '/v1/job/:id/deployments',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      const all = boolParam(ctx.query, 'all');
      return blockingRead(ctx, store, [{ table: T.deployments, prefix: jobPrefix(ns, id) }], () => {
        const job = getJob(store, ns, id);
        const list = jobDeployments(store, ns, id)
          .filter((d) => all || !job || d.JobCreateIndex === job.CreateIndex)
          .sort((a, b) => b.CreateIndex - a.CreateIndex);
        return { value: list, index: store.tableIndex(T.deployments) };
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.get(
    '/v1/job/:id/deployment',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      return blockingRead(ctx, store, [{ table: T.deployments, prefix: jobPrefix(ns, id) }], () => ({
        value: latestDeployment(store, ns, id) ?? null,
        index: store.tableIndex(T.deployments),
      }));
    },
    { acl: 'namespace:read-job' },
  );

  router.get(
    '/v1/job/:id/summary',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const id = ctx.params['id']!;
      return blockingRead(ctx, store, [{ table: T.summaries, key: jobKey(ns, id) }], () => {
        const s = getSummary(store, ns, id);
        if (!s) throw notFound('job not found');
        return { value: s, index: store.keyIndex(T.summaries, jobKey(ns, id)) };
      });
    },
    { acl: 'namespace:read-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/job/:id/dispatch',
    async (ctx) => {
      const ns = namespaceOf(ctx);
      const body =
        (await ctx.json()) === undefined ? {} : await parseBody(ctx, JobDispatchRequestSchema, 'Payload');
      let payload: Buffer | undefined;
      if (body.Payload) {
        if (typeof body.Payload !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(body.Payload)) {
          throw badRequest('Payload: must be base64-encoded');
        }
        payload = Buffer.from(body.Payload, 'base64');
      }
      const { result } = store.write((tx) =>
        dispatchJob(sc, tx, ns, ctx.params['id']!, {
          payload,
          meta: (body.Meta ?? undefined) as Record<string, string> | undefined,
          idPrefixTemplate: body.IdPrefixTemplate ?? undefined,
          idempotencyToken: ctx.query.get('idempotency_token') ?? undefined,
        }),
      );
      return { body: result };
    },
    { acl: 'namespace:dispatch-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/job/:id/dispatch/payload',
    async (ctx) => {
      const ns = namespaceOf(ctx);
      const payload = await ctx.raw();
      const { result } = store.write((tx) =>
        dispatchJob(sc, tx, ns, ctx.params['id']!, {
          payload,
          idempotencyToken: ctx.query.get('idempotency_token') ?? undefined,
        }),
      );
      return { body: result };
    },
    { acl: 'namespace:dispatch-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/job/:id/revert',
    async (ctx) => {
      const ns = namespaceOf(ctx);
      const body = await parseBody(ctx, JobRevertRequestSchema, 'JobID');
      if (body.JobID !== undefined && body.JobID !== ctx.params['id'])
        throw badRequest(`JobID: "${body.JobID}" does not match request path`);
      if (body.TaggedVersion && body.JobVersion)
        throw badRequest('JobVersion: give JobVersion or TaggedVersion, not both');
      const { result } = store.write((tx) =>
        revertJob(
          sc,
          tx,
          ns,
          ctx.params['id']!,
          { version: body.JobVersion ?? 0, tag: body.TaggedVersion || undefined },
          body.EnforcePriorVersion ?? undefined,
        ),
      );
      const { job: _j, ...reply } = result;
      return { body: reply };
    },
    { acl: 'namespace:submit-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/job/:id/stable',
    async (ctx) => {
      const ns = namespaceOf(ctx);
      const body = await parseBody(ctx, JobStabilityRequestSchema, 'JobID');
      const { result, index } = store.write((tx) =>
        setStability(tx, ns, ctx.params['id']!, body.JobVersion ?? 0, body.Stable ?? false),
      );
      return { body: { JobModifyIndex: result, Index: index } };
    },
    { acl: 'namespace:submit-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/job/:id/evaluate',
    async (ctx) => {
      const ns = namespaceOf(ctx);
      const raw = await ctx.json();
      const body: Partial<z.infer<typeof JobEvaluateRequestSchema>> =
        raw === undefined ? {} : await parseBody(ctx, JobEvaluateRequestSchema, 'JobID');
      const force = body.EvalOptions?.ForceReschedule ?? false;
      const { result } = store.write((tx) => {
        const job = getJob(tx, ns, ctx.params['id']!);
        if (!job) throw notFound('job not found');
        if (job.Periodic && job.Periodic.Enabled !== false) throw badRequest("can't evaluate periodic job");
        if (job.ParameterizedJob && !job.Dispatched) throw badRequest("can't evaluate parameterized job");
        const ev = newEval(
          {
            Namespace: ns,
            JobID: job.ID!,
            Priority: job.Priority ?? 50,
            Type: job.Type ?? 'service',
            TriggeredBy: force ? 'job-eval-force-reschedule' : 'job-eval',
            JobModifyIndex: job.JobModifyIndex ?? 0,
          },
          sc.clock.nowNs(),
        );
        tx.put(T.evals, childKey(ns, job.ID!, ev.ID), ev);
        return { EvalID: ev.ID, EvalCreateIndex: tx.index, JobModifyIndex: job.JobModifyIndex ?? 0 };
      });
      return { body: result };
    },
    { acl: 'namespace:read-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/job/:id/plan',
    async (ctx) => {
      checkRegion(sc, ctx);
      const { body, job } = await jobRequests.read(ctx, JobPlanRequestSchema);
      const ns = job.Namespace!;
      if (job.ID !== ctx.params['id'])
        throw badRequest(`Job.ID: job ID "${job.ID}" does not match request path "${ctx.params['id']}"`);
      const existing = getJob(store, ns, job.ID!);
      let captured: Record<string, unknown> | undefined;
      try {
        // A true dry run: the same register and scheduler code, in a transaction that is thrown away.
        store.write((tx) => {
          const reg = registerJob(sc, tx, job, {});
          const planned = getJob(tx, ns, job.ID!)!;
          const outcome = computeEval(sc, tx, ns, job.ID!, planned, { ID: reg.EvalID || 'plan' });
          const failed = Object.keys(outcome.failed).length > 0;
          const kinds: Record<string, GroupAnnotation> = {};
          const groups = new Set([
            ...(planned.TaskGroups ?? []).map((g) => g.Name!),
            ...(existing?.TaskGroups ?? []).map((g) => g.Name!),
          ]);
          for (const g of groups) {
            const inNew = (planned.TaskGroups ?? []).some((x) => x.Name === g);
            const inOld = (existing?.TaskGroups ?? []).some((x) => x.Name === g);
            const kind = !inOld ? 'create' : !inNew ? 'destroy' : classifyGroupUpdate(existing!, planned, g);
            kinds[g] = { kind, updates: outcome.updates[g] as unknown as GroupAnnotation['updates'] };
          }
          let diff = null;
          if (body.Diff) {
            diff = diffJobs(existing ?? null, planned);
            annotateTaskDiffs(diff, kinds);
          }
          const next = nextLaunch(planned, new Date());
          captured = {
            Index: existing?.JobModifyIndex ?? 0,
            JobModifyIndex: existing?.JobModifyIndex ?? 0,
            Annotations: { DesiredTGUpdates: outcome.updates, PreemptedAllocs: null },
            FailedTGAllocs: failed ? outcome.failed : null,
            CreatedEvals: failed
              ? [
                  newEval(
                    {
                      Namespace: ns,
                      JobID: job.ID!,
                      TriggeredBy: 'queued-allocs',
                      Status: 'blocked',
                      Type: planned.Type ?? 'service',
                      QueuedAllocations: outcome.queued,
                    },
                    sc.clock.nowNs(),
                  ),
                ]
              : null,
            Diff: diff,
            NextPeriodicLaunch: next ? next.toISOString() : '0001-01-01T00:00:00Z',
            Warnings: '',
          };
          throw ROLLBACK;
        });
      } catch (e) {
        if (e !== ROLLBACK) throw e;
      }
      if (!captured) throw new HttpError(500, 'plan produced no result');
      return { body: captured };
    },
    { acl: 'namespace:submit-job' },
  );

  router.add(
    ['PUT', 'POST'],
    '/v1/job/:id/periodic/force',
    (ctx) => {
      const ns = namespaceOf(ctx);
      const { result } = store.write((tx) => launchPeriodic(sc, tx, ns, ctx.params['id']!, true));
      return { body: result };
    },
    { acl: 'namespace:dispatch-job' },
  );
}
