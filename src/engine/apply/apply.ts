/**
 * Applying a plan: every instance change runs through its handler in dependency order (deletes in
 * reverse), at most `parallelism` at once. Each completed resource is written to state at once, so a
 * kill at any moment loses at most what was in flight. A failure skips only what depends on it.
 * Values not known at plan time are resolved from what has been applied, and such instances are
 * planned again with the now-known configuration before they apply.
 *
 * Each kind of step has its own file under ./steps; they share one ApplyContext (./context.ts).
 */
import { ConfigError, type StackConfig } from '../config';
import { walk, type WalkResult } from '../graph';
import type { ProgressEvent } from '../../provider/resource';
import { errorMessage } from '../../provider/common/errors';
import type { ProviderSet } from '../providers';
import type { StateFile, StateWriter } from '../state';
import type { InstancePlan, StackPlan } from '../plan/types';
import { createApplyContext, type ApplyContext } from './context';
import { buildApplyGraph, changeOf, DESTROY_SUFFIX, type ApplyNode } from './graph';
import { applyDeferredDataRead, forgetDataOnDestroy, recordPlanTimeDataReads } from './steps/data-read';
import { applyInstanceChange } from './steps/instance-change';
import { applyMoves } from './steps/moved';
import { journalAhead } from './steps/pending';
import { applyOutputs } from './steps/outputs';
import { configureProviders } from './steps/providers';
import { applyStateOnly } from './steps/state-only';

export interface ApplyOptions {
  plan: StackPlan;
  config: StackConfig;
  state: StateFile;
  writer: StateWriter;
  providers: ProviderSet;
  parallelism?: number;
  /** Once aborted, nothing new starts; what runs finishes and is saved. */
  signal?: AbortSignal;
  /** Aborts what is running too (the second Ctrl-C). */
  hardSignal?: AbortSignal;
  onStart?: (ip: InstancePlan) => void;
  onProgress?: (address: string, e: ProgressEvent) => void;
  onDone?: (ip: InstancePlan, outcome: 'ok' | 'failed', error?: unknown) => void;
}

export interface ApplyResult {
  created: string[];
  updated: string[];
  replaced: string[];
  destroyed: string[];
  /** Adopted by import blocks (also counted under updated when the import came with an update). */
  imported: string[];
  /** Dropped from the state by removed blocks with destroy = false; left on the cluster. */
  forgotten: string[];
  failed: { address: string; constructPath?: string; message: string }[];
  /** Not attempted because something they depend on failed, or the run was interrupted. */
  skipped: { address: string; reason: string }[];
  interrupted: boolean;
  outputs: Record<string, { value: unknown; sensitive: boolean }>;
}

export async function applyPlan(opts: ApplyOptions): Promise<ApplyResult> {
  await applyMoves(opts);
  const ctx = createApplyContext(opts);
  configureProviders(ctx);
  let walked: WalkResult;
  try {
    walked = await walkChanges(ctx);
  } finally {
    ctx.hardSignals.close();
  }
  ctx.result.interrupted = walked.skipped.some((s) => s.reason === 'aborted');
  // The old object of a replace that did not finish is gone all the same.
  ctx.result.destroyed.push(...ctx.halfReplaced);
  await forgetDataOnDestroy(ctx);
  await recordPlanTimeDataReads(ctx);
  await applyOutputs(ctx);
  await opts.writer.settle();
  return ctx.result;
}

function walkChanges(ctx: ApplyContext): Promise<WalkResult> {
  const { opts, result } = ctx;
  return walk(buildApplyGraph(opts.plan, ctx.config), {
    parallelism: opts.parallelism ?? 10,
    ...(opts.signal ? { signal: opts.signal } : {}),
    visit: (node, _id, release) => applyNode(ctx, node, release),
    upcoming: (node) => journalAhead(ctx, node),
    onError: (node, err, id) => {
      const constructPath = node.kind === 'instance' ? node.ip.constructPath : node.dp.constructPath;
      const msg = err instanceof ConfigError ? err.message : errorMessage(err);
      const address = node.kind === 'instance' ? node.ip.address : id;
      result.failed.push({ address, ...(constructPath ? { constructPath } : {}), message: msg });
    },
    onSkip: (node, skip, id) => {
      // The create half of a replace whose destroy failed: that failure already says it all.
      if (node.kind === 'instance' && skip.failedDependency === `${node.ip.address}${DESTROY_SUFFIX}`) return;
      result.skipped.push({
        address: id,
        reason:
          skip.reason === 'aborted'
            ? 'interrupted'
            : `depends on ${skip.failedDependency ?? 'a failed resource'}`,
      });
    },
  });
}

/** `release`: the walk's, handed to the handler (see HandlerApplyContext.onChanged). */
async function applyNode(ctx: ApplyContext, node: ApplyNode, release: () => void): Promise<void> {
  if (node.kind === 'data') return applyDeferredDataRead(ctx, node.dp);
  if (node.ip.stateOnly) return applyStateOnly(ctx, node.ip);
  const shown = node.part === 'whole' ? node.ip : { ...node.ip, change: changeOf(node.ip, node.part) };
  try {
    await applyInstanceChange(ctx, node.ip, node.part, release);
    ctx.opts.onDone?.(shown, 'ok');
  } catch (err) {
    ctx.opts.onDone?.(shown, 'failed', err);
    throw err;
  }
}
