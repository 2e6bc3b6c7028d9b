/**
 * What plan, deploy, destroy, refresh and import share: find the project, synthesize it, pick the
 * stacks, start the embedded dev agent when nothing else is targeted, and open each stack with its
 * state locked.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { StackConfig, SynthesizedStack, VariableInputs } from '../engine/config';
import { needsDevAgent, startDevTarget, type DevTarget } from '../engine/dev-target';
import { loadProject, selectStack, stacksOf, synth, type Project } from '../engine/project';
import { openStack, type StackSession } from '../engine/session';
import { orderByDependencies, orderForDestroy } from '../engine/stack-order';
import { readRemoteState, type RemoteStateReader } from '../engine/remote-state';
import { loadStackConfig } from '../engine/config';
import type { PlanOptions } from '../engine/plan/plan';
import { ExitCode, type CliIO } from './io';

export interface StackOptions {
  app?: string;
  stack?: string;
  synth?: boolean;
  devAgent?: boolean;
  var?: string[];
}

export function addStackOptions(cmd: Command): Command {
  return cmd
    .option('--app <dir>', 'CDKTF project directory (with cdktf.json)', '.')
    .option('--stack <name>', 'the stack to work on (default: every stack, in order)')
    .option('--no-synth', 'use cdktf.out as it is instead of running the app first')
    .option('--no-dev-agent', 'never start the embedded dev agent, even when no address is set')
    .option(
      '--var <name=value>',
      'set an input variable (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
      [],
    );
}

export function parseVars(list: string[] | undefined): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const item of list ?? []) {
    const i = item.indexOf('=');
    if (i <= 0) throw new Error(`--var ${item}: expected name=value`);
    raw[item.slice(0, i)] = item.slice(i + 1);
  }
  return raw;
}

/**
 * A stack's input variables: `TF_VAR_name` from the environment, then `--var name=value` (which wins).
 * As in Terraform, environment values for variables the stack does not declare are ignored.
 */
export function stackVariables(
  list: string[] | undefined,
  env: CliIO['env'],
  config: StackConfig,
): VariableInputs {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (k.startsWith('TF_VAR_') && v !== undefined) raw[k.slice('TF_VAR_'.length)] = v;
  }
  Object.assign(raw, parseVars(list));
  for (const name of Object.keys(raw)) if (!config.variables.has(name)) delete raw[name];
  return { raw };
}

/** A `--var` no selected stack declares is an error (Terraform's "Value for undeclared variable"). */
function checkDeclared(list: string[] | undefined, configs: StackConfig[]): void {
  for (const name of Object.keys(parseVars(list))) {
    if (configs.some((c) => c.variables.has(name))) continue;
    throw new ExitCode(
      1,
      `Error: Value for undeclared variable: --var ${name}=... was given, but ${configs.length > 1 ? 'no stack declares' : 'the stack declares no'} variable "${name}"`,
    );
  }
}

export interface StackRun {
  project: Project;
  stacks: SynthesizedStack[];
  env: CliIO['env'];
  dev?: DevTarget;
  /** How `terraform_remote_state` reads other stacks' outputs (cross-stack references). */
  remoteState: RemoteStateReader;
  close(): Promise<void>;
}

/** Synthesizes (unless --no-synth), selects stacks, and starts the dev agent if needed. */
export async function prepare(
  io: CliIO,
  o: StackOptions,
  /** `all`: every stack in dependency order unless --stack names one; `destroy`: dependants first. */
  opts: { all?: boolean; destroy?: boolean } = {},
): Promise<StackRun> {
  const project = loadProject(path.resolve(io.cwd, o.app ?? '.'));
  const log = (line: string): void => void io.stderr.write(`${line}\n`);
  const all = o.synth === false ? await stacksOf(project) : await synth(project, log, io.env);
  const stacks =
    o.stack || !opts.all
      ? [selectStack(all, o.stack)]
      : opts.destroy
        ? orderForDestroy(all)
        : orderByDependencies(all);
  let dev: DevTarget | undefined;
  let env = io.env;
  const configs = await Promise.all(stacks.map((s) => loadStackConfig(s.file)));
  checkDeclared(o.var, configs);
  if (o.devAgent !== false) {
    if (needsDevAgent(configs, env)) {
      dev = await startDevTarget(project.dir, env, log);
      env = dev.env;
    }
  }
  return {
    project,
    stacks,
    env,
    ...(dev ? { dev } : {}),
    remoteState: readRemoteState,
    close: async () => {
      await dev?.stop();
    },
  };
}

export async function withStack<T>(
  run: StackRun,
  stack: SynthesizedStack,
  operation: string,
  fn: (s: StackSession) => Promise<T>,
  io: CliIO,
): Promise<T> {
  const session = await openStack(run.project, stack, {
    operation,
    env: run.env,
    remoteState: run.remoteState,
    log: (l) => void io.stderr.write(`${l}\n`),
  });
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

/** What every plan of an open stack starts from: its configuration, its state, its providers and variables. */
export function stackPlanInput(
  run: StackRun,
  stack: SynthesizedStack,
  s: StackSession,
  o: StackOptions,
): Pick<PlanOptions, 'stack' | 'config' | 'configText' | 'state' | 'providers' | 'variables'> {
  return {
    stack: stack.name,
    config: s.loaded.config,
    configText: s.loaded.configText,
    state: s.state,
    providers: s.providers,
    variables: stackVariables(o.var, run.env, s.loaded.config),
  };
}

/** `--target` and `--parallelism` as plan, deploy and destroy take them; Ctrl-C stops starting new work. */
export function planLimits(
  o: { target?: string[]; parallelism: number },
  io: CliIO,
): Pick<PlanOptions, 'targets' | 'parallelism' | 'signal'> {
  return {
    ...(o.target && o.target.length > 0 ? { targets: o.target } : {}),
    parallelism: o.parallelism,
    ...(io.interrupts ? { signal: io.interrupts.soft } : {}),
  };
}
