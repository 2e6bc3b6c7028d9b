/**
 * The secrets the command line must never print, gathered where they become known: sensitive
 * variable inputs and tokens when a run starts, a plan's sensitive values once it is made, the
 * state's sensitive attributes when it is shown. `guardIO` runs everything a command writes
 * through them (see redact-io.ts).
 */
import type { StackConfig } from '../engine/config';
import { instanceSecretTexts, textsAt } from '../engine/plan/sensitivity';
import type { StackPlan } from '../engine/plan/types';
import type { InstanceObject } from '../engine/state';
import type { CliIO } from './io';

/** Environment variables that carry tokens (ours and the Nomad/Consul flavours). */
const TOKEN_VARIABLES = ['SCHED_TOKEN', 'REG_HTTP_TOKEN', 'NOMAD_TOKEN', 'CONSUL_HTTP_TOKEN'];

export function collectSecretsOfPlan(plan: StackPlan): string[] {
  const out = new Set<string>(plan.sensitiveTexts ?? []);
  for (const ip of plan.instances) for (const t of instanceSecretTexts(ip)) out.add(t);
  // Sensitive outputs are masked by their flag where they are shown. Their texts are not learnt: an
  // output is sensitive for its own display (cdktf marks every cross-stack output so), and scrubbing
  // its text everywhere turned unrelated attributes that happen to equal it into "(sensitive value)".
  // A secret behind an output is learnt where it comes from: a sensitive variable or attribute.
  return [...out];
}

/** The texts at the sensitive paths of state objects. */
export function secretsOfState(objects: Iterable<InstanceObject>): string[] {
  const out: string[] = [];
  for (const o of objects) out.push(...textsAt(o.attributes, o.sensitiveAttributes ?? []));
  return out;
}

/** Sensitive variables as given (`--var`, `TF_VAR_`), and tokens from the environment. */
export function secretsOfInputs(
  configs: StackConfig[],
  raw: Readonly<Record<string, string>>,
  env: CliIO['env'],
): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(raw))
    if (configs.some((c) => c.variables.get(name)?.sensitive)) out.push(value);
  for (const k of TOKEN_VARIABLES) {
    const v = env[k];
    if (v) out.push(v);
  }
  return out;
}

/** Tells the output guard about more secrets (a no-op for an IO without one). */
export function noteSecrets(io: CliIO, texts: Iterable<string>): void {
  io.secrets?.add(texts);
}
