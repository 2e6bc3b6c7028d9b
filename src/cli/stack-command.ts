/**
 * What plan, deploy, destroy, refresh and import share: find the project, synthesize it, pick the
 * stacks, start the embedded dev agent when nothing else is targeted, and open each stack with its
 * state locked.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { StackConfig, SynthesizedStack, VariableInputs } from '../engine/config';
import {
  needsDevAgent,
  preloadDevAgent,
  startDevTarget,
  startDevTargetEarly,
  type DevTarget,
  type EarlyDevTarget,
} from '../engine/dev-target';
import { loadProject, selectStack, stacksOf, synth, type Project } from '../engine/project';
import { openStack, type StackSession } from '../engine/session';
import { orderByDependencies, orderForDestroy } from '../engine/stack-order';
import { readRemoteState, type RemoteStateReader } from '../engine/remote-state';
import { readStackConfig, type ReadStackConfig } from '../engine/config';
import {
  autoVarFiles,
  environmentSettings,
  readVarFile,
  settingsToInputs,
  VarFileError,
  type VariableSetting,
} from '../engine/config/tfvars';
import { parseBackend } from '../engine/state/backends';
import { workspaceOf } from '../engine/stack-state';
import type { PlanOptions } from '../engine/plan/plan';
import { ExitCode, type CliIO } from './io';
import { noteSecrets, secretsOfInputs } from './secrets';

export interface StackOptions {
  app?: string;
  stack?: string;
  synth?: boolean;
  devAgent?: boolean;
  var?: string[];
  varFile?: string[];
  /** `--var` and `--var-file` in command-line order (which decides precedence between them). */
  varArgs?: VariableArg[];
  workspace?: string;
}

export type VariableArg = { var: string } | { file: string };

export function addStackOptions(cmd: Command): Command {
  // Commander keeps each option's values apart; the order across both options is kept here.
  const order: VariableArg[] = [];
  return cmd
    .option('--app <dir>', 'CDKTF project directory (with cdktf.json)', '.')
    .option('--stack <name>', 'the stack to work on (default: every stack, in order)')
    .option('--no-synth', 'use cdktf.out as it is instead of running the app first')
    .option('--no-dev-agent', 'never start the embedded dev agent, even when no address is set')
    .option(
      '--workspace <name>',
      'the workspace (default: TF_WORKSPACE, else the selected one, else "default")',
    )
    .option(
      '--var <name=value>',
      'set an input variable (repeatable)',
      (v: string, prev: string[] = []) => {
        order.push({ var: v });
        return [...prev, v];
      },
      [],
    )
    .option(
      '--var-file <file>',
      'set input variables from a .tfvars or .tfvars.json file (repeatable)',
      (v: string, prev: string[] = []) => {
        order.push({ file: v });
        return [...prev, v];
      },
      [],
    )
    .hook('preAction', (command) => {
      command.setOptionValue('varArgs', order.splice(0));
    });
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
 * A stack's input variables in Terraform's precedence (later wins): `TF_VAR_name`, then the files
 * Terraform loads by itself from the app directory (terraform.tfvars, terraform.tfvars.json,
 * *.auto.tfvars[.json] in lexical order), then `--var` and `--var-file` in command-line order.
 * Values for variables the stack does not declare are ignored, as Terraform ignores them in the
 * environment (`--var` for no stack at all is refused by checkDeclared).
 */
export function stackVariables(
  o: StackOptions,
  run: { env: CliIO['env']; appDir: string },
  config: StackConfig,
): VariableInputs {
  return settingsToInputs(variableSettings(o, run), new Set(config.variables.keys()));
}

/** Every setting of a variable, lowest precedence first: environment, definitions files, then the command line. */
function variableSettings(o: StackOptions, run: { env: CliIO['env']; appDir: string }): VariableSetting[] {
  try {
    const settings: VariableSetting[] = [...environmentSettings(run.env)];
    for (const f of autoVarFiles(run.appDir)) settings.push(...readVarFile(f));
    const args: VariableArg[] = o.varArgs ?? (o.var ?? []).map((v) => ({ var: v }));
    for (const a of args) {
      if ('file' in a) settings.push(...readVarFile(path.resolve(a.file)));
      else settings.push(...Object.entries(parseVars([a.var])).map(([name, raw]) => ({ name, raw })));
    }
    return settings;
  } catch (e) {
    if (e instanceof VarFileError) throw new ExitCode(1, `Error: ${e.summary}: ${e.detail} (in ${e.file})`);
    throw e;
  }
}

/** The text of every variable value given, whichever stack declares it: the output guard learns the sensitive ones. */
function givenVariableTexts(
  o: StackOptions,
  run: { env: CliIO['env']; appDir: string },
): Record<string, string> {
  const inputs = settingsToInputs(variableSettings(o, run));
  const texts: Record<string, string> = { ...(inputs.raw ?? {}) };
  for (const [name, v] of Object.entries(inputs.values ?? {})) if (typeof v === 'string') texts[name] = v;
  return texts;
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
  /** The workspace every stack of the run works in. */
  workspace: string;
  dev?: DevTarget;
  /** How `terraform_remote_state` reads other stacks' outputs (cross-stack references). */
  remoteState: RemoteStateReader;
  /**
   * The configurations prepare read, until withStack opens their stack: each is parsed once per
   * command (a cdk.tf.json of 10,000 resources takes a tenth of its plan to parse).
   */
  configs: Map<SynthesizedStack, ReadStackConfig>;
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
  let early: EarlyDevTarget | undefined;
  let all: SynthesizedStack[];
  try {
    if (o.synth === false) all = await stacksOf(project);
    else {
      const synthesized = synth(project, log, io.env);
      // The app runs in its own process: this one is idle until it exits.
      if (o.devAgent !== false) {
        early = startDevTargetEarly(project.dir, io.env);
        if (!early) preloadDevAgent(io.env);
      }
      all = await synthesized;
    }
    return await prepareStacks(io, o, opts, { project, all, early, log });
  } catch (e) {
    await early?.discard();
    throw e;
  }
}

/** The rest of prepare, once the app has synthesized: `early` is used or discarded before it returns. */
async function prepareStacks(
  io: CliIO,
  o: StackOptions,
  opts: { all?: boolean; destroy?: boolean },
  synthesized: {
    project: Project;
    all: SynthesizedStack[];
    early: EarlyDevTarget | undefined;
    log: (line: string) => void;
  },
): Promise<StackRun> {
  const { project, all, early, log } = synthesized;
  const stacks =
    o.stack || !opts.all
      ? [selectStack(all, o.stack)]
      : opts.destroy
        ? orderForDestroy(all)
        : orderByDependencies(all);
  let dev: DevTarget | undefined;
  let env = io.env;
  const read = await Promise.all(stacks.map((s) => readStackConfig(s.file)));
  const configs = read.map((r) => r.config);
  noteSecrets(
    io,
    secretsOfInputs(configs, givenVariableTexts(o, { env: io.env, appDir: project.dir }), io.env),
  );
  checkDeclared(o.var, configs);
  // Backends this engine cannot use are refused before anything starts, locks or changes.
  stacks.forEach((s, i) => parseBackend(configs[i]!.backend, io.env, s.name));
  const workspace = await workspaceOf(project, io.env, o.workspace);
  if (o.devAgent !== false && needsDevAgent(configs, env)) {
    dev = early ? await early.use(log) : await startDevTarget(project.dir, env, log);
    env = dev.env;
  } else await early?.discard();
  return {
    project,
    stacks,
    env,
    workspace,
    ...(dev ? { dev } : {}),
    remoteState: readRemoteState,
    configs: new Map(stacks.map((s, i) => [s, read[i]!])),
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
  /**
   * Runs on fn's result once the session has started to close (its connections and its state lock),
   * so printing a plan overlaps the waits of closing; the stack stays locked until both are done.
   */
  whileClosing?: (result: T) => void,
): Promise<T> {
  const config = run.configs.get(stack);
  // Taken once: a second session of the stack in this command reads the file again.
  run.configs.delete(stack);
  const session = await openStack(run.project, stack, {
    ...(config ? { config } : {}),
    operation,
    env: run.env,
    workspace: run.workspace,
    remoteState: run.remoteState,
    log: (l) => void io.stderr.write(`${l}\n`),
  });
  let result: T;
  try {
    result = await fn(session);
  } catch (err) {
    await session.close();
    throw err;
  }
  const closing = session.close();
  try {
    whileClosing?.(result);
  } finally {
    await closing;
  }
  return result;
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
    variables: stackVariables(o, { env: run.env, appDir: run.project.dir }, s.loaded.config),
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
