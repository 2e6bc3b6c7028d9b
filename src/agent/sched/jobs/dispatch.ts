/** Dispatching instances of parameterized jobs, with Nomad's payload, meta and idempotency rules. */
import { randomUUID } from 'node:crypto';
import type { Txn } from '../../store';
import { badRequest, notFound } from '../../http/errors';
import type { SchedContext } from '../context';
import type { Job } from '../model';
import { getJob, listJobs } from '../state';
import { registerJob } from './register';

export const MAX_DISPATCH_PAYLOAD = 16384;

export interface DispatchInput {
  payload?: Buffer;
  meta?: Record<string, string>;
  idPrefixTemplate?: string;
  idempotencyToken?: string;
}

export interface DispatchResult {
  Index: number;
  JobCreateIndex: number;
  EvalCreateIndex: number;
  EvalID: string;
  DispatchedJobID: string;
}

export function dispatchJob(
  ctx: SchedContext,
  tx: Txn,
  ns: string,
  parentId: string,
  input: DispatchInput,
): DispatchResult {
  const parent = getJob(tx, ns, parentId);
  if (!parent) throw notFound(`job "${parentId}" not found`);
  const pj = parent.ParameterizedJob;
  if (!pj || parent.Dispatched) throw badRequest(`Specified job "${parentId}" is not a parameterized job`);
  if (parent.Stop) throw badRequest(`Specified job "${parentId}" is stopped`);
  const payload = input.payload ?? Buffer.alloc(0);
  const mode = pj.Payload ?? 'optional';
  if (payload.length > MAX_DISPATCH_PAYLOAD) {
    throw badRequest(
      `Payload: payload exceeds maximum size; ${payload.length} > ${MAX_DISPATCH_PAYLOAD} bytes`,
    );
  }
  if (mode === 'required' && payload.length === 0)
    throw badRequest('Payload: payload is not provided but required by parameterized job');
  if (mode === 'forbidden' && payload.length > 0)
    throw badRequest('Payload: payload provided but forbidden by parameterized job');
  const meta = input.meta ?? {};
  const allowed = new Set([...(pj.MetaRequired ?? []), ...(pj.MetaOptional ?? [])]);
  const unpermitted = Object.keys(meta)
    .filter((k) => !allowed.has(k))
    .sort();
  if (unpermitted.length > 0)
    throw badRequest(`Meta: dispatch request included unpermitted metadata keys: [${unpermitted.join(' ')}]`);
  const missing = (pj.MetaRequired ?? []).filter((k) => !(k in meta));
  if (missing.length > 0)
    throw badRequest(`Meta: dispatch did not provide required meta keys: [${missing.join(' ')}]`);
  if (input.idPrefixTemplate !== undefined && !/^[A-Za-z0-9_.-]*$/.test(input.idPrefixTemplate)) {
    throw badRequest('IdPrefixTemplate: may hold only letters, digits, ".", "_" and "-"');
  }

  if (input.idempotencyToken) {
    const prior = listJobs(tx, ns).find(
      (j) =>
        j.ParentID === parentId &&
        (j as { DispatchIdempotencyToken?: string | null }).DispatchIdempotencyToken ===
          input.idempotencyToken,
    );
    if (prior) {
      return {
        Index: tx.index,
        JobCreateIndex: prior.CreateIndex ?? 0,
        EvalCreateIndex: 0,
        EvalID: '',
        DispatchedJobID: prior.ID!,
      };
    }
  }
  const unix = Math.floor(Date.now() / 1000);
  const suffix = randomUUID().slice(0, 8);
  const childId = input.idPrefixTemplate
    ? `${parentId}/dispatch-${unix}-${input.idPrefixTemplate}-${suffix}`
    : `${parentId}/dispatch-${unix}-${suffix}`;
  const child: Job = {
    ...parent,
    ID: childId,
    Name: childId,
    ParentID: parentId,
    Dispatched: true,
    Status: 'pending',
    Payload: payload.length > 0 ? payload.toString('base64') : null,
    Meta: { ...(parent.Meta ?? {}), ...meta },
    DispatchIdempotencyToken: input.idempotencyToken ?? '',
    Version: undefined,
    CreateIndex: undefined,
    ModifyIndex: undefined,
    JobModifyIndex: undefined,
  } as Job;
  const res = registerJob(ctx, tx, child as Job, { triggeredBy: 'job-register' });
  return {
    Index: res.Index,
    JobCreateIndex: res.job.CreateIndex ?? tx.index,
    EvalCreateIndex: res.EvalCreateIndex,
    EvalID: res.EvalID,
    DispatchedJobID: childId,
  };
}

export type { Job };
