/**
 * The embedded dev agent as the default target: when a stack's providers have no address (neither
 * in their configuration nor in SCHED_ADDR / REG_HTTP_ADDR), the engine starts the agent in this
 * process, with its state under `<project>/.cdktf-sched/dev` so that successive runs see the same
 * cluster, and points the providers at it.
 */
import { existsSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { DevAgent } from '../agent';
import { loadAgent } from '../agent/load';
import type { StackConfig } from './config';
import { envNames, flavorFromEnv, type Env, type Flavor, type ServiceKind } from '../api/env';

export interface DevTarget {
  agent: DevAgent;
  env: Env;
  stop(): Promise<void>;
}

function addressIn(config: StackConfig, name: string): boolean {
  for (const p of config.providers.values()) {
    if (p.name !== name) continue;
    if (p.raw['address'] !== undefined && p.raw['address'] !== null && p.raw['address'] !== '') return true;
  }
  return false;
}

function flavorOf(config: StackConfig, name: string, service: ServiceKind, env: Env): Flavor {
  for (const p of config.providers.values())
    if (p.name === name && typeof p.raw['flavor'] === 'string') return p.raw['flavor'] as Flavor;
  return flavorFromEnv(service, env) ?? 'sched';
}

/** Whether this stack needs the embedded agent: it uses a provider that has no address anywhere. */
export function needsDevAgent(configs: StackConfig[], env: Env): boolean {
  for (const config of configs) {
    const types = [...config.resources.values(), ...config.dataSources.values()].map((r) => r.provider.name);
    for (const name of new Set(types)) {
      if (name !== 'sched' && name !== 'reg') continue;
      const service = name === 'sched' ? 'scheduler' : 'registry';
      const flavor = flavorOf(config, name, service, env);
      const fromEnv = env[envNames(service, flavor).address];
      if (!addressIn(config, name) && !fromEnv) return true;
    }
  }
  return false;
}

function unaddressed(env: Env, service: ServiceKind): boolean {
  return (['sched', 'nomad'] as const).every((flavor) => !env[envNames(service, flavor).address]);
}

/**
 * Before the synth, when no stack is known yet: loads the agent's code if the environment names no
 * address for one of the services, so that it is loaded while the app synthesizes, not after. Only a
 * guess (a provider may carry its own address), so it loads and never starts anything.
 */
export function preloadDevAgent(env: Env): void {
  if (unaddressed(env, 'scheduler') || unaddressed(env, 'registry')) loadAgent();
}

/** `.cdktf-sched` may hold more than the agent's state by now (the selected workspace): that stays. */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty, or gone already.
  }
}

function devDataDir(projectDir: string): string {
  return path.join(projectDir, '.cdktf-sched', 'dev');
}

function startAgent(dataDir: string): Promise<DevAgent> {
  return loadAgent().startDevAgent({ port: 0, registryPort: 0, dataDir });
}

function devTarget(agent: DevAgent, dataDir: string, env: Env, log: (line: string) => void): DevTarget {
  log(
    `No SCHED_ADDR set: started the embedded dev agent (scheduler ${agent.schedulerUrl}, registry ${agent.registryUrl}, state in ${path.relative(process.cwd(), dataDir) || dataDir})`,
  );
  return {
    agent,
    env: { ...env, SCHED_ADDR: agent.schedulerUrl, REG_HTTP_ADDR: agent.registryUrl },
    stop: () => agent.stop(),
  };
}

export async function startDevTarget(
  projectDir: string,
  env: Env,
  log: (line: string) => void,
): Promise<DevTarget> {
  const dataDir = devDataDir(projectDir);
  return devTarget(await startAgent(dataDir), dataDir, env, log);
}

/** The dev agent started while the app synthesizes, before anyone knows whether a stack needs it. */
export interface EarlyDevTarget {
  /** The target, as startDevTarget gives it (its start's error, if it failed). */
  use(log: (line: string) => void): Promise<DevTarget>;
  /** Stops the agent and removes the directories its start created: no trace of a wrong guess. */
  discard(): Promise<void>;
}

/**
 * Starts the agent during the synth when the environment names no address for either service: the
 * usual case without a cluster, where the stacks nearly always need it. Its start (the data dir, its
 * first fsyncs, the nodes' registration) then overlaps the app's run instead of following it.
 */
export function startDevTargetEarly(projectDir: string, env: Env): EarlyDevTarget | undefined {
  if (!unaddressed(env, 'scheduler') || !unaddressed(env, 'registry')) return undefined;
  const dataDir = devDataDir(projectDir);
  // Outermost first: what discard may remove, because this start is what would create it.
  const created = [path.dirname(dataDir), dataDir].filter((d) => !existsSync(d));
  const started = startAgent(dataDir);
  // Observed now: a start that fails while the synth runs is reported by use(), or dropped by discard().
  started.catch(() => undefined);
  let discarded: Promise<void> | undefined;
  const discard = async (): Promise<void> => {
    const agent = await started.catch(() => undefined);
    if (!agent) return;
    await agent.stop();
    // The agent held the data dir's lock until now, so nobody else has used what it created.
    for (const d of created.reverse()) {
      if (d === dataDir) rmSync(d, { recursive: true, force: true });
      else removeIfEmpty(d);
    }
  };
  return {
    use: async (log) => devTarget(await started, dataDir, env, log),
    discard: () => (discarded ??= discard()),
  };
}
