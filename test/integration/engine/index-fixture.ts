/**
 * A stack of N parameterized jobs that exist on a dev agent and are recorded in a state, made quickly:
 * the first job is planned and applied through the job handler (its state is what the engine records),
 * the others are registered straight through the client and recorded from that state with their own
 * ID, spec and JobModifyIndex as the agent lists them (as bench/engine.ts does for its big plan).
 */
import type { Job } from '../../../src/api/sched/schemas';
import { parseStackConfig, type StackConfig } from '../../../src/engine/config';
import { planStack } from '../../../src/engine/plan/plan';
import type { StackPlan } from '../../../src/engine/plan/types';
import { ProviderSet } from '../../../src/engine/providers';
import { StateFile } from '../../../src/engine/state';
import type { State } from '../../../src/provider/resource';
import { benchJobs, canonicalJson, jobSpec, stackJson, type BenchJob } from '../../../bench/engine-project';
import type { AgentFixture } from '../../helpers/agent';

export interface IndexStack {
  jobs: BenchJob[];
  config: StackConfig;
  configText: string;
  /** The recorded state; each plan gets a clone. */
  state: StateFile;
}

const address = (j: BenchJob): string => `sched_job.${j.name}`;

async function registerAll(f: AgentFixture, jobs: BenchJob[], concurrency = 16): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) await f.sched.jobs.register(jobSpec(jobs[next++]!) as Job);
    }),
  );
}

function stackConfig(f: AgentFixture, jobs: BenchJob[]): { config: StackConfig; configText: string } {
  const json = stackJson(jobs, '/dev/null');
  json['provider'] = { sched: [{ address: f.agent.schedulerUrl, retries: 0 }] };
  const configText = JSON.stringify(json);
  return { config: parseStackConfig(json), configText };
}

export async function indexStack(f: AgentFixture, n: number, prefix: string): Promise<IndexStack> {
  const jobs = benchJobs(n, 'parameterized', prefix);
  const { config, configText } = stackConfig(f, jobs);
  const providers = new ProviderSet(undefined, {});
  let template: State;
  try {
    providers.configure('sched', 'sched', { address: f.agent.schedulerUrl, retries: 0 });
    const handler = providers.resource('sched', 'sched_job');
    const change = await handler.plan({ prior: null, config: { jobspec: canonicalJson(jobSpec(jobs[0]!)) } });
    template = (await handler.apply(change))!;
  } finally {
    await providers.close();
  }
  await registerAll(f, jobs.slice(1));
  const { value: stubs } = await f.sched.jobs.list({ prefix: `${prefix}-` });
  const indexes = new Map(stubs.map((s) => [s.ID, s.JobModifyIndex]));
  const state = StateFile.empty();
  for (const j of jobs) {
    const attributes = {
      ...template,
      id: j.id,
      name: j.id,
      jobspec: canonicalJson(jobSpec(j)),
      job_modify_index: indexes.get(j.id),
    };
    state.set(address(j), { schemaVersion: 0, attributes });
  }
  return { jobs, config, configText, state };
}

/** Plans the stack against a clone of its state, with a provider set of its own (closed after). */
export async function planIndexStack(s: IndexStack, state: StateFile = s.state.clone()): Promise<StackPlan> {
  const providers = new ProviderSet(undefined, {});
  try {
    return await planStack({
      stack: 'bench',
      config: s.config,
      configText: s.configText,
      state,
      providers,
      parallelism: 10,
    });
  } finally {
    await providers.close();
  }
}

export { address as instanceAddressOf };
