/**
 * End-to-end CLI tests: a temporary CDKTF project (synthesized stacks written as fixtures, or a real
 * app), a dev agent on free ports, and the command line run in-process (`runCli`) or as a real
 * process where signals and a second process matter.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/io';
import type { DevAgentOptions } from '../../../src/agent';
import { startAgent, type AgentFixture } from '../../helpers/agent';

export const REPO = path.resolve(__dirname, '../../..');

export class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Project {
  dir: string;
  agent: AgentFixture;
  env: Record<string, string>;
  /** Writes (or rewrites) a stack's cdk.tf.json and the manifest naming every stack written so far. */
  writeStack(name: string, config: unknown): void;
  /** Runs the CLI in-process in the project directory; `--no-synth` is the caller's choice. */
  cli(
    args: string[],
    opts?: { env?: Record<string, string>; interrupts?: CliIO['interrupts']; confirm?: CliIO['confirm'] },
  ): Promise<CliRun>;
  statePath(stack?: string): string;
  readState(stack?: string): StateJson;
  close(): Promise<void>;
}

export interface StateJson {
  version: number;
  serial: number;
  lineage: string;
  outputs: Record<string, { value: unknown; type: unknown; sensitive?: boolean }>;
  resources: {
    mode: string;
    type: string;
    name: string;
    provider: string;
    each?: string;
    instances: {
      index_key?: string | number;
      status?: string;
      attributes: Record<string, unknown>;
      dependencies?: string[];
    }[];
  }[];
}

/** Every `address` in a state file, as Terraform lists them. */
export function stateAddresses(s: StateJson): string[] {
  const out: string[] = [];
  for (const r of s.resources) {
    const base = `${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}`;
    for (const i of r.instances) {
      out.push(
        i.index_key === undefined
          ? base
          : `${base}[${typeof i.index_key === 'number' ? i.index_key : JSON.stringify(i.index_key)}]`,
      );
    }
  }
  return out.sort();
}

export async function createProject(opts: { app?: string; agent?: DevAgentOptions } = {}): Promise<Project> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdktf-sched-e2e-'));
  writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: opts.app ?? 'npx tsx main.ts' }, null, 2),
  );
  const agent = await startAgent(opts.agent);
  const env: Record<string, string> = {
    SCHED_ADDR: agent.agent.schedulerUrl,
    REG_HTTP_ADDR: agent.agent.registryUrl ?? '',
    PATH: process.env['PATH'] ?? '',
    CI: '1',
  };
  const stacks = new Set<string>();
  const project: Project = {
    dir,
    agent,
    env,
    writeStack(name, config) {
      const stackDir = path.join(dir, 'cdktf.out', 'stacks', name);
      mkdirSync(stackDir, { recursive: true });
      writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify(config, null, 2));
      stacks.add(name);
      const manifest = {
        version: '0.21.0',
        stacks: Object.fromEntries(
          [...stacks].map((s) => [
            s,
            {
              name: s,
              constructPath: s,
              synthesizedStackPath: `stacks/${s}/cdk.tf.json`,
              workingDirectory: `stacks/${s}`,
              dependencies: [],
              annotations: [],
            },
          ]),
        ),
      };
      writeFileSync(path.join(dir, 'cdktf.out', 'manifest.json'), JSON.stringify(manifest, null, 2));
    },
    async cli(args, o = {}) {
      const stdout = new Capture();
      const stderr = new Capture();
      const io: CliIO = {
        stdout,
        stderr,
        env: { ...env, ...(o.env ?? {}) },
        cwd: dir,
        ...(o.interrupts ? { interrupts: o.interrupts } : {}),
        ...(o.confirm ? { confirm: o.confirm } : {}),
      };
      const code = await runCli(args, io);
      return { code, stdout: stdout.text, stderr: stderr.text };
    },
    statePath(stack = 'app') {
      return path.join(dir, `terraform.${stack}.tfstate`);
    },
    readState(stack = 'app') {
      return JSON.parse(readFileSync(project.statePath(stack), 'utf8')) as StateJson;
    },
    async close() {
      await agent.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return project;
}

export interface JobOptions {
  namespace?: string;
  count?: number;
  image?: string;
  /** Mock driver settings of the task (run_for, start_block_for, start_error, healthy, ...). */
  driverConfig?: Record<string, unknown>;
  meta?: Record<string, string>;
  /** An update stanza; default none (allocations are placed without a rolling deployment). */
  update?: Record<string, unknown>;
  type?: string;
}

/** The jobspec JSON string of a small service job (as the Job construct writes it). */
export function jobspec(id: string, o: JobOptions = {}): string {
  return JSON.stringify({
    ID: id,
    Namespace: o.namespace ?? 'default',
    Type: o.type ?? 'service',
    Datacenters: ['dc1'],
    ...(o.meta ? { Meta: o.meta } : {}),
    ...(o.update ? { Update: o.update } : {}),
    TaskGroups: [
      {
        Name: 'g',
        Count: o.count ?? 1,
        Tasks: [
          {
            Name: 't',
            Driver: 'mock',
            Config: { image: o.image ?? 'v1', ...(o.driverConfig ?? {}) },
            Resources: { CPU: 100, MemoryMB: 64 },
          },
        ],
      },
    ],
  });
}

/** A resource block with cdktf's construct metadata. */
export function withPath(
  stack: string,
  name: string,
  body: Record<string, unknown>,
): Record<string, unknown> {
  return { '//': { metadata: { path: `${stack}/${name}`, uniqueId: name } }, ...body };
}

/** A stack's cdk.tf.json as cdktf writes it, with the sched provider from the environment. */
export function stackJson(parts: {
  resource?: Record<string, Record<string, unknown>>;
  output?: Record<string, unknown>;
  variable?: Record<string, unknown>;
  locals?: Record<string, unknown>;
  data?: Record<string, Record<string, unknown>>;
  provider?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    '//': { metadata: { backend: 'local', stackName: 'app', version: '0.21.0' } },
    provider: parts.provider ?? { sched: [{}] },
    terraform: { required_providers: { sched: { source: 'cdktf-sched/sched' } } },
    ...(parts.resource ? { resource: parts.resource } : {}),
    ...(parts.data ? { data: parts.data } : {}),
    ...(parts.output ? { output: parts.output } : {}),
    ...(parts.variable ? { variable: parts.variable } : {}),
    ...(parts.locals ? { locals: parts.locals } : {}),
  };
}

/** Spawns the CLI as a real process (through tsx, so it runs the sources under test). */
export function spawnCli(
  project: Pick<Project, 'dir' | 'env'>,
  args: string[],
): { child: ChildProcess; out: () => string; exited: Promise<number | null> } {
  const loader = pathToFileURL(path.join(REPO, 'node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, path.join(REPO, 'src/cli/main.ts'), ...args], {
    cwd: project.dir,
    env: { ...process.env, ...project.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { child, out: () => text, exited };
}

/** Waits until `cond` holds, polling. */
export async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether the job is registered on the project's cluster. */
export async function onCluster(agent: AgentFixture, id: string, namespace = 'default'): Promise<boolean> {
  try {
    await agent.sched.jobs.read(id, { namespace });
    return true;
  } catch {
    return false;
  }
}
