/**
 * A CDKTF project written straight to disk for the engine benchmark: `cdktf.json`, `cdktf.out/manifest.json`
 * and one stack whose `cdk.tf.json` holds N `sched_job` resources, as `cdktf synth` would leave them
 * (so the commands run with `--no-synth`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STACK = 'bench';

export type JobKind = 'service' | 'parameterized';

export interface BenchJob {
  /** Resource name in the stack. */
  name: string;
  /** Job ID on the scheduler. */
  id: string;
  kind: JobKind;
  /** Bumped to change a job's spec (goes to the job's Meta). */
  revision: number;
  /** How the jobspec is written (default JSON; HCL2 is parsed by the cluster). */
  format?: 'json' | 'hcl2';
  /** A service's update min_healthy_time in seconds, before the agent's time scale (default 5). */
  minHealthyS?: number;
}

export function benchJobs(n: number, kind: JobKind, prefix = 'bench'): BenchJob[] {
  const width = String(n - 1).length;
  return Array.from({ length: n }, (_, i) => {
    const suffix = String(i).padStart(width, '0');
    return { name: `job_${suffix}`, id: `${prefix}-${suffix}`, kind, revision: 1 };
  });
}

/**
 * The API job for one resource. Services get a deployment each (an update block with a short
 * min_healthy_time, scaled down further by the agent's time scale); parameterized batch jobs are only
 * registered (no evaluation), which keeps an agent holding 10,000 of them light.
 */
/**
 * Deadlines far above min_healthy_time: the agent scales them by its time scale like the rest, and on
 * a loaded machine the 60 s and 120 s deadlines (1.2 s at scale 0.02, 0.24 s at 0.002) failed rollouts
 * that were only slow. A deadline costs nothing while the rollout is healthy.
 */
function deadlines(j: BenchJob): { healthyS: number; progressS: number } {
  const healthyS = Math.max(600, 10 * (j.minHealthyS ?? 5));
  return { healthyS, progressS: 2 * healthyS };
}

export function jobSpec(j: BenchJob): Record<string, unknown> {
  const task = {
    Name: 'main',
    Driver: 'mock',
    Config: {},
    Resources: { CPU: 10, MemoryMB: 16 },
  };
  const common = {
    ID: j.id,
    Name: j.id,
    Datacenters: ['dc1'],
    Meta: { revision: String(j.revision) },
  };
  if (j.kind === 'parameterized') {
    return {
      ...common,
      Type: 'batch',
      ParameterizedJob: { Payload: 'optional' },
      TaskGroups: [{ Name: 'work', Count: 1, Tasks: [task] }],
    };
  }
  return {
    ...common,
    Type: 'service',
    TaskGroups: [{ Name: 'app', Count: 1, Tasks: [task] }],
    Update: {
      MaxParallel: 1,
      HealthCheck: 'task_states',
      MinHealthyTime: (j.minHealthyS ?? 5) * 1e9,
      HealthyDeadline: deadlines(j).healthyS * 1e9,
      ProgressDeadline: deadlines(j).progressS * 1e9,
    },
  };
}

/** The same service job as jobSpec() gives, written as an HCL2 jobspec. */
export function hclSpec(j: BenchJob): string {
  if (j.kind !== 'service') throw new Error('only service jobs are written as HCL2 here');
  return `job "${j.id}" {
  datacenters = ["dc1"]
  type        = "service"
  meta {
    revision = "${j.revision}"
  }
  update {
    max_parallel      = 1
    health_check      = "task_states"
    min_healthy_time  = "${j.minHealthyS ?? 5}s"
    healthy_deadline  = "${deadlines(j).healthyS}s"
    progress_deadline = "${deadlines(j).progressS}s"
  }
  group "app" {
    count = 1
    task "main" {
      driver = "mock"
      config {}
      resources {
        cpu    = 10
        memory = 16
      }
    }
  }
}
`;
}

/** JSON with sorted keys, as the constructs render a jobspec. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

export interface BenchProject {
  dir: string;
  statePath: string;
  stackFile: string;
}

export function stackJson(jobs: BenchJob[], statePath: string): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (const j of jobs) {
    resources[j.name] = {
      '//': { metadata: { path: `${STACK}/${j.name}`, uniqueId: j.name } },
      jobspec: j.format === 'hcl2' ? hclSpec(j) : canonicalJson(jobSpec(j)),
    };
  }
  return {
    '//': { metadata: { backend: 'local', stackName: STACK, version: '0.21.0' } },
    provider: { sched: [{}] },
    resource: { sched_job: resources },
    terraform: {
      backend: { local: { path: statePath } },
      required_providers: { sched: { source: 'cdktf-sched/sched' } },
    },
  };
}

/** Writes the project under `dir` (which must exist) with the given jobs. */
export function writeProject(dir: string, jobs: BenchJob[]): BenchProject {
  const outdir = join(dir, 'cdktf.out');
  const stackDir = join(outdir, 'stacks', STACK);
  mkdirSync(stackDir, { recursive: true });
  writeFileSync(
    join(dir, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: 'false', terraformProviders: [], context: {} }),
  );
  writeFileSync(
    join(outdir, 'manifest.json'),
    JSON.stringify({
      version: '0.21.0',
      stacks: {
        [STACK]: {
          name: STACK,
          constructPath: STACK,
          annotations: [],
          dependencies: [],
          stackMetadataPath: `stacks/${STACK}/metadata.json`,
          synthesizedStackPath: `stacks/${STACK}/cdk.tf.json`,
          workingDirectory: `stacks/${STACK}`,
        },
      },
    }),
  );
  const statePath = join(dir, `terraform.${STACK}.tfstate`);
  const stackFile = join(stackDir, 'cdk.tf.json');
  writeFileSync(stackFile, JSON.stringify(stackJson(jobs, statePath), null, 2));
  return { dir, statePath, stackFile };
}

/** Just enough of a state file to use one as a template. */
export interface StateTemplate {
  resources: Array<{ name: string; instances: Array<{ attributes: Record<string, unknown> }> }>;
  [k: string]: unknown;
}

/**
 * A state file for parameterized `jobs`, shaped like one the engine wrote: an instance it wrote is the
 * template, with each job's own ID, spec and modify index (as the agent reports them).
 */
export function writeStateFrom(
  template: StateTemplate,
  jobs: BenchJob[],
  modifyIndexes: Map<string, number>,
  statePath: string,
): void {
  const model = template.resources[0]!;
  const instance = model.instances[0]!;
  const state = {
    ...template,
    serial: 1,
    resources: jobs.map((j) => ({
      ...model,
      name: j.name,
      instances: [
        {
          ...instance,
          attributes: {
            ...instance.attributes,
            id: j.id,
            name: j.id,
            type: 'batch',
            version: 0,
            job_modify_index: modifyIndexes.get(j.id) ?? 0,
            jobspec: canonicalJson(jobSpec(j)),
            task_groups: [
              {
                name: 'work',
                count: 1,
                tasks: ['main'],
                meta: null,
                running: 0,
                pending: 0,
                complete: 0,
                failed: 0,
                lost: 0,
              },
            ],
            allocation_ids: [],
            deployment_id: null,
            deployment_status: null,
          },
        },
      ],
    })),
  };
  writeFileSync(statePath, JSON.stringify(state));
}
