/**
 * The embedded dev agent as the default target: when a stack's providers have no address (neither
 * in their configuration nor in SCHED_ADDR / REG_HTTP_ADDR), the engine starts the agent in this
 * process, with its state under `<project>/.cdktf-sched/dev` so that successive runs see the same
 * cluster, and points the providers at it.
 */
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

/**
 * Before the synth, when no stack is known yet: loads the agent's code if the environment names no
 * address for one of the services, so that it is loaded while the app synthesizes, not after. Only a
 * guess (a provider may carry its own address), so it loads and never starts anything.
 */
export function preloadDevAgent(env: Env): void {
  const services: ServiceKind[] = ['scheduler', 'registry'];
  const unaddressed = services.some((service) =>
    (['sched', 'nomad'] as const).every((flavor) => !env[envNames(service, flavor).address]),
  );
  if (unaddressed) loadAgent();
}

export async function startDevTarget(
  projectDir: string,
  env: Env,
  log: (line: string) => void,
): Promise<DevTarget> {
  const dataDir = path.join(projectDir, '.cdktf-sched', 'dev');
  const agent = await loadAgent().startDevAgent({ port: 0, registryPort: 0, dataDir });
  log(
    `No SCHED_ADDR set: started the embedded dev agent (scheduler ${agent.schedulerUrl}, registry ${agent.registryUrl}, state in ${path.relative(process.cwd(), dataDir) || dataDir})`,
  );
  return {
    agent,
    env: { ...env, SCHED_ADDR: agent.schedulerUrl, REG_HTTP_ADDR: agent.registryUrl },
    stop: () => agent.stop(),
  };
}
