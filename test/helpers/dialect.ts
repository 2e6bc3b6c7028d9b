/**
 * The wire dialect a test run speaks. `TEST_DIALECT=hashicorp` runs the provider and example suites
 * again with the dev agent serving Nomad's and Consul's names and the clients in the nomad/consul
 * flavor, so the translation is exercised end to end (`npm run test:hashicorp`).
 */
import type { Env, Flavor } from '../../src/api/env';

export const TEST_DIALECT: 'neutral' | 'hashicorp' =
  process.env['TEST_DIALECT'] === 'hashicorp' ? 'hashicorp' : 'neutral';

const hashicorp = TEST_DIALECT === 'hashicorp';

export const SCHED_FLAVOR: Flavor = hashicorp ? 'nomad' : 'sched';
export const REG_FLAVOR: Flavor = hashicorp ? 'consul' : 'sched';

/** Neutral environment names and their Nomad/Consul counterparts. */
const ENV_RENAMES: Record<string, string> = {
  SCHED_ADDR: 'NOMAD_ADDR',
  SCHED_TOKEN: 'NOMAD_TOKEN',
  SCHED_REGION: 'NOMAD_REGION',
  SCHED_NAMESPACE: 'NOMAD_NAMESPACE',
  SCHED_CACERT: 'NOMAD_CACERT',
  REG_HTTP_ADDR: 'CONSUL_HTTP_ADDR',
  REG_HTTP_TOKEN: 'CONSUL_HTTP_TOKEN',
  REG_NAMESPACE: 'CONSUL_NAMESPACE',
  REG_CACERT: 'CONSUL_CACERT',
};

/** A command's environment in the run's dialect: Nomad/Consul variable names plus the flavor switches. */
export function dialectEnv(env: Env): Env {
  if (!hashicorp) return env;
  const out: Record<string, string | undefined> = { SCHED_FLAVOR: 'nomad', REG_FLAVOR: 'consul' };
  for (const [k, v] of Object.entries(env)) out[ENV_RENAMES[k] ?? k] = v;
  return out;
}
