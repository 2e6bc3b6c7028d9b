/**
 * Dispatches the `thumbnail` parameterized job and waits for the child job to finish. There is no
 * dispatch resource on purpose: a dispatch is an event (run this once, now), not a desired state a
 * deploy should converge to, so it belongs in a script or a pipeline step, not in the stack.
 *
 *   SCHED_ADDR=http://127.0.0.1:4646 npx tsx examples/batch/dispatch.ts img-42 [256x256]
 */
import { SchedClient } from '../../src/api/sched/client';
import type { AllocationStub } from '../../src/api/sched/schemas';

export const THUMBNAIL_JOB = 'thumbnail';

export interface ThumbnailRequest {
  imageId: string;
  /** Overrides the job's default meta `size`. */
  size?: string;
  /** The task reads it as local/input.json. */
  input: Readonly<Record<string, unknown>>;
  /** Makes a retried dispatch return the first child instead of starting a second one. */
  idempotencyToken?: string;
}

export interface Dispatched {
  jobId: string;
  evalId: string;
}

export async function dispatchThumbnail(sched: SchedClient, req: ThumbnailRequest): Promise<Dispatched> {
  const { value } = await sched.jobs.dispatch(
    THUMBNAIL_JOB,
    {
      // Raw bytes: a string would be taken as base64 already encoded.
      Payload: Buffer.from(JSON.stringify(req.input), 'utf8'),
      Meta: { image_id: req.imageId, ...(req.size !== undefined ? { size: req.size } : {}) },
      IdPrefixTemplate: req.imageId.replace(/[^A-Za-z0-9_.-]/g, '-'),
    },
    req.idempotencyToken !== undefined ? { idempotencyToken: req.idempotencyToken } : {},
  );
  if (!value.DispatchedJobID) throw new Error(`dispatch of ${THUMBNAIL_JOB} returned no job ID`);
  // An idempotent repeat returns the first child and no new evaluation.
  return { jobId: value.DispatchedJobID, evalId: value.EvalID ?? '' };
}

export interface Finished {
  status: string;
  allocations: AllocationStub[];
}

/**
 * Waits with blocking queries (no polling loop) until the dispatched job is dead, then returns its
 * allocations so the caller can tell success (all `complete`) from failure.
 */
export async function waitForJob(sched: SchedClient, jobId: string, timeoutMs = 60_000): Promise<Finished> {
  const deadline = Date.now() + timeoutMs;
  let index = 0;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`job ${jobId} did not finish within ${timeoutMs} ms`);
    const { value: job, meta } = await sched.jobs.read(jobId, {
      index,
      wait: `${Math.max(1, Math.min(30, Math.ceil(left / 1000)))}s`,
    });
    if (job.Status === 'dead') {
      const { value: allocations } = await sched.jobs.allocations(jobId);
      return { status: job.Status, allocations };
    }
    index = meta.index;
  }
}

async function main(argv: string[]): Promise<number> {
  const [imageId, size] = argv;
  if (!imageId) {
    process.stderr.write('usage: dispatch.ts IMAGE_ID [SIZE]   (SCHED_ADDR names the cluster)\n');
    return 2;
  }
  const sched = new SchedClient();
  try {
    const child = await dispatchThumbnail(sched, {
      imageId,
      ...(size !== undefined ? { size } : {}),
      input: { source: `s3://images/${imageId}.png`, format: 'webp' },
    });
    process.stdout.write(`dispatched ${child.jobId} (evaluation ${child.evalId})\n`);
    const done = await waitForJob(sched, child.jobId);
    const statuses = done.allocations.map((a) => a.ClientStatus ?? 'unknown');
    process.stdout.write(`${child.jobId}: ${done.status}; allocations: ${statuses.join(', ')}\n`);
    return statuses.length > 0 && statuses.every((s) => s === 'complete') ? 0 : 1;
  } finally {
    await sched.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`dispatch failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
