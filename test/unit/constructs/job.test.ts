import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { Job, SchedProvider, type JobSpec } from '../../../constructs';
import { parseJsonJobspec } from '../../../src/provider/sched/job/jobspec';
import { evaluate } from '../../../src/engine/expressions/evaluate';
import { parseTemplate } from '../../../src/engine/expressions/parser';

function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'test');
  new SchedProvider(stack, 'sched', { address: 'http://127.0.0.1:4646' });
  return stack;
}

interface Synthesized {
  resource: Record<string, Record<string, Record<string, unknown>>>;
}

function synth(stack: TerraformStack): Synthesized {
  return JSON.parse(Testing.synth(stack, true)) as Synthesized;
}

/** The message of the error `fn` throws (fails the test when it does not throw). */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

const webSpec = (): JobSpec => ({
  ID: 'web',
  Type: 'service',
  Datacenters: ['dc1'],
  TaskGroups: [
    {
      Name: 'web',
      Count: 2,
      Update: {
        MaxParallel: 1,
        MinHealthyTime: '5s',
        HealthyDeadline: '1m',
        ProgressDeadline: 600_000_000_000,
      },
      Tasks: [
        {
          Name: 'server',
          Driver: 'mock',
          Config: { run_for: '30s' },
          User: undefined,
          Env: { LISTEN: ':${NOMAD_PORT_http}' },
          Resources: { CPU: 100, MemoryMB: 64 },
          KillTimeout: '10s',
        },
      ],
    },
  ],
});

describe('Job with a typed spec', () => {
  it('synthesizes a sched_job whose jobspec is canonical API JSON with durations in nanoseconds', () => {
    const stack = newStack();
    new Job(stack, 'web', { spec: webSpec(), purgeOnDestroy: true, detach: false });
    const job = synth(stack).resource['sched_job']!['web']!;
    expect(job['purge_on_destroy']).toBe(true);
    expect(job['detach']).toBe(false);
    expect(job['hcl2_vars']).toBeUndefined();
    const text = job['jobspec'] as string;
    // The scheduler's own interpolation is escaped so Terraform passes it through verbatim.
    expect(text).toContain('"LISTEN":":$${NOMAD_PORT_http}"');
    // What the sched_job handler reads once Terraform has unescaped the text.
    const unescaped = text.replace(/\$\$\{/g, () => '${');
    const api = parseJsonJobspec(unescaped);
    expect(api).toMatchObject({
      ID: 'web',
      Type: 'service',
      TaskGroups: [
        {
          Name: 'web',
          Count: 2,
          Update: { MaxParallel: 1, MinHealthyTime: 5e9, HealthyDeadline: 60e9, ProgressDeadline: 600e9 },
          Tasks: [
            { Name: 'server', Driver: 'mock', KillTimeout: 10e9, Resources: { CPU: 100, MemoryMB: 64 } },
          ],
        },
      ],
    });
    // Sorted keys: the same spec always synthesizes the same text.
    expect(Object.keys(JSON.parse(unescaped) as object)).toEqual(['Datacenters', 'ID', 'TaskGroups', 'Type']);
    expect(text).not.toContain('"User"');
  });

  it('keeps references live: a string token in place, a number token as a bare JSON number', () => {
    const stack = newStack();
    const image = new TerraformVariable(stack, 'image', { type: 'string' });
    const count = new TerraformVariable(stack, 'count', { type: 'number' });
    const spec = webSpec();
    spec.TaskGroups[0]!.Count = count.numberValue;
    spec.TaskGroups[0]!.Tasks[0]!.Config = { image: image.stringValue };
    new Job(stack, 'web', { spec });
    const text = synth(stack).resource['sched_job']!['web']!['jobspec'] as string;
    // What the engine makes of the attribute once the variables are known: valid JSON, the number a
    // number, a value with quotes and newlines intact, and the scheduler's own ${...} left verbatim.
    const imageValue = 'registry.example/web:"v2"\nline two';
    const value = evaluate(parseTemplate(text), {
      resolveReference: () => undefined,
      variable: (n) => (n === 'count' ? 3 : n === 'image' ? imageValue : undefined),
      local: () => undefined,
    });
    const job = JSON.parse(value as string) as JobSpec;
    expect(job.TaskGroups[0]!.Count).toBe(3);
    expect(job.TaskGroups[0]!.Tasks[0]!.Config).toEqual({ image: imageValue });
    expect(job.TaskGroups[0]!.Tasks[0]!.Env).toEqual({ LISTEN: ':${NOMAD_PORT_http}' });
  });

  it('fails synth naming the construct path, the field and the rule of every bad value', () => {
    const stack = newStack();
    const spec = webSpec();
    const group = spec.TaskGroups[0]!;
    group.Count = -1;
    group.Update = { MinHealthyTime: 'soon' };
    group.Tasks[0]!.Resources = { CPU: 0 };
    delete (group.Tasks[0] as { Driver?: string }).Driver;
    (group as Record<string, unknown>)['Cont'] = 3;
    (spec as { Type: string }).Type = 'daemon';
    new Job(stack, 'web', { spec, evalPriority: 500 });
    const message = thrown(() => synth(stack));
    expect(message).toContain('[test/web] spec.TaskGroups[0].Count: must be a non-negative integer');
    expect(message).toContain(
      '[test/web] spec.TaskGroups[0].Update.MinHealthyTime: must be a duration such as "30s"',
    );
    expect(message).toContain(
      '[test/web] spec.TaskGroups[0].Tasks[0].Resources.CPU: must be a positive integer',
    );
    expect(message).toContain('[test/web] spec.TaskGroups[0].Tasks[0].Driver: is required');
    expect(message).toContain('[test/web] spec.TaskGroups[0].Cont: is not a known field');
    expect(message).toContain(
      '[test/web] spec.Type: must be one of "service", "batch", "system", "sysbatch"',
    );
    // Arguments beside the spec are checked by the sched_job handler's own rules.
    expect(message).toMatch(/\[test\/web\] evalPriority: .*100/);
  });

  it('checks the rules that span fields: deadlines in order, unique names, batch-only features', () => {
    const stack = newStack();
    const spec = webSpec();
    spec.TaskGroups[0]!.Update = { MaxParallel: 1, MinHealthyTime: '2m', HealthyDeadline: '1m' };
    spec.TaskGroups.push({ ...spec.TaskGroups[0]!, Update: null });
    spec.Periodic = { Spec: '*/5 * * * *' };
    new Job(stack, 'web', { spec });
    const message = thrown(() => synth(stack));
    expect(message).toContain(
      '[test/web] spec.TaskGroups[0].Update.MinHealthyTime: must be less than HealthyDeadline',
    );
    expect(message).toContain(
      '[test/web] spec.TaskGroups[1].Name: task group "web" is defined more than once',
    );
    expect(message).toContain('[test/web] spec.Periodic: needs Type "batch" or "sysbatch"');
  });

  it('inherits the job update block in a group when checking deadlines', () => {
    const stack = newStack();
    const spec = webSpec();
    spec.Update = { MaxParallel: 1, HealthyDeadline: '5m', ProgressDeadline: '10m' };
    spec.TaskGroups[0]!.Update = { ProgressDeadline: '3m' };
    new Job(stack, 'web', { spec });
    expect(thrown(() => synth(stack))).toContain(
      '[test/web] spec.TaskGroups[0].Update.HealthyDeadline: must be less than ProgressDeadline',
    );
  });

  it('refuses a string reference where a duration is needed, since it cannot be converted at synth', () => {
    const stack = newStack();
    const wait = new TerraformVariable(stack, 'wait', { type: 'string' });
    const spec = webSpec();
    spec.TaskGroups[0]!.Tasks[0]!.KillTimeout = wait.stringValue;
    new Job(stack, 'web', { spec });
    expect(thrown(() => synth(stack))).toMatch(
      /\[test\/web\] spec\.TaskGroups\[0\]\.Tasks\[0\]\.KillTimeout: must be a literal duration or a number token/,
    );
  });

  it('also fails when synthesized without validations, naming the construct', () => {
    const stack = newStack();
    const spec = webSpec();
    spec.TaskGroups[0]!.Count = 1.5;
    new Job(stack, 'web', { spec });
    const message = thrown(() => Testing.synth(stack));
    expect(message).toContain('test/web: invalid job spec');
    expect(message).toContain('spec.TaskGroups[0].Count: must be a non-negative integer');
  });
});

describe('JobSpec type', () => {
  it('makes typos and wrong types compile errors, and the same mistakes synth errors', () => {
    const typo: JobSpec = {
      ID: 'x',
      TaskGroups: [
        {
          Name: 'g',
          // @ts-expect-error `Cont` is not a field (Count is)
          Cont: 1,
          Tasks: [{ Name: 't', Driver: 'mock' }],
        },
      ],
    };
    const wrongType: JobSpec = {
      ID: 'y',
      // @ts-expect-error not a job type
      Type: 'daemon',
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', KillTimeout: '5s' }] }],
    };
    const stack = newStack();
    new Job(stack, 'typo', { spec: typo });
    new Job(stack, 'wrong', { spec: wrongType });
    const message = thrown(() => synth(stack));
    expect(message).toContain('[test/typo] spec.TaskGroups[0].Cont: is not a known field');
    expect(message).toContain('[test/wrong] spec.Type: must be one of');
  });
});

describe('Job.fromFile', () => {
  it('passes the HCL text as jobspec and the variables as hcl2_vars, escaping template syntax', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'job-hcl-'));
    const file = path.join(dir, 'web.sched.hcl');
    const hcl = [
      'variable "image" { type = string }',
      'job "web" {',
      '  group "web" {',
      '    task "server" {',
      '      driver = "mock"',
      '      config { image = var.image }',
      '      env { ADDR = "${NOMAD_IP_http}" }',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, hcl);
    const stack = newStack();
    new Job(stack, 'web', { ...Job.fromFile(file, { vars: { image: 'nginx:1.27' } }), detach: true });
    const job = synth(stack).resource['sched_job']!['web']!;
    expect(job['jobspec']).toBe(hcl.replace('${NOMAD_IP_http}', () => '$${NOMAD_IP_http}'));
    expect(job['hcl2_vars']).toEqual({ image: 'nginx:1.27' });
    expect(job['detach']).toBe(true);
  });

  it('reports the handler rules for a text jobspec at synth', () => {
    const stack = newStack();
    new Job(stack, 'web', { jobspec: '   ' });
    expect(thrown(() => synth(stack))).toMatch(/\[test\/web\] jobspec: /);
  });
});
