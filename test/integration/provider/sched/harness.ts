/** Drives the scheduler provider's handlers the way the engine does: plan, then apply, against a real dev agent. */
import { startAgent, type AgentFixture } from '../../../helpers/agent';
import { SCHED_FLAVOR } from '../../../helpers/dialect';
import type { Job } from '../../../../src/api/sched/schemas';
import { rolling } from '../../../helpers/jobs';
import type {
  Config,
  PlannedChange,
  ProgressEvent,
  Provider,
  ResourceHandler,
  State,
} from '../../../../src/provider/resource';
import { schedProvider } from '../../../../src/provider/sched/provider';

export const TOKEN = 'tok-5ecret-0123456789abcdef';

export interface Harness {
  f: AgentFixture;
  provider: Provider;
  job: ResourceHandler;
  namespace: ResourceHandler;
  stop(): Promise<void>;
}

export async function startHarness(providerConfig: Config = {}): Promise<Harness> {
  const f = await startAgent({ registry: false });
  const provider = schedProvider.configure(
    { address: f.agent.schedulerUrl, token: TOKEN, retries: 0, flavor: SCHED_FLAVOR, ...providerConfig },
    {},
  );
  return {
    f,
    provider,
    job: provider.resources['sched_job']!,
    namespace: provider.resources['sched_namespace']!,
    async stop() {
      await provider.close();
      await f.stop();
    },
  };
}

export interface Applied {
  change: PlannedChange;
  state: State | null;
  events: ProgressEvent[];
}

/** Plans and applies one resource; fails the test when the plan has errors. */
export async function converge(
  h: ResourceHandler,
  prior: State | null,
  config: Config | null,
): Promise<Applied> {
  const change = await h.plan({ prior, config });
  const errors = change.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`plan failed: ${JSON.stringify(errors)}`);
  const events: ProgressEvent[] = [];
  const state = await h.apply(change, { onProgress: (e) => events.push(e) });
  return { change, state, events };
}

/** Applies and returns the thrown error (the test expects a failure). */
export async function applyFailure(
  h: ResourceHandler,
  change: PlannedChange,
  events: ProgressEvent[] = [],
): Promise<Error & { state?: State | null }> {
  const err = await h.apply(change, { onProgress: (e) => events.push(e) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof Error)) throw new Error('apply was expected to fail but succeeded');
  return err as Error & { state?: State | null };
}

export function jobConfig(job: Job, extra: Config = {}): Config {
  return { jobspec: JSON.stringify(job, null, 2), ...extra };
}

/**
 * An update block with short times and generous deadlines (3 s healthy, 6 s progress at time scale
 * 0.01), so a loaded test machine does not turn a slow start into an unhealthy allocation.
 */
export function steady(extra: Partial<NonNullable<Job['Update']>> = {}): NonNullable<Job['Update']> {
  return rolling({ MinHealthyTime: 1e8, HealthyDeadline: 300e9, ProgressDeadline: 600e9, ...extra });
}
