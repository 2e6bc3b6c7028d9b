import { mockJob } from '../../../helpers/jobs';
import { converge, jobConfig, startHarness, type Harness } from './harness';

const HCL = `
variable "replicas" {
  type    = number
  default = 1
}
variable "run_for" {
  type = string
}

job "hcl-web" {
  datacenters = ["dc1"]
  update {
    max_parallel     = 1
    min_healthy_time = "100ms"
    healthy_deadline = "5s"
    health_check     = "task_states"
  }
  group "web" {
    count = var.replicas
    task "server" {
      driver = "mock"
      config {
        run_for = var.run_for
      }
      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
`;

describe('sched_job: HCL2 jobspecs and validation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('registers an HCL2 jobspec with hcl2_vars, keeps the text in state, and stores the submission', async () => {
    const config = { jobspec: HCL, hcl2_vars: { replicas: '2', run_for: '1h' } };
    const { change, state } = await converge(h.job, null, config);
    expect(change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({ Place: 2 });
    expect(state).toMatchObject({
      id: 'hcl-web',
      jobspec: HCL,
      hcl2_vars: config.hcl2_vars,
      deployment_status: 'successful',
    });
    const { value: job } = await h.f.sched.jobs.read('hcl-web');
    expect(job.TaskGroups?.[0]?.Count).toBe(2);
    expect(job.TaskGroups?.[0]?.Tasks?.[0]?.Config).toEqual({ run_for: '1h' });
    const { value: sub } = await h.f.sched.jobs.submission('hcl-web', 0);
    expect(sub).toMatchObject({ Source: HCL, Format: 'hcl2', Variables: 'replicas = "2"\nrun_for = "1h"\n' });

    const same = await h.job.plan({ prior: (await h.job.read(state!))!, config });
    expect(same.action).toBe('noop');
    const more = await converge(h.job, state, { ...config, hcl2_vars: { replicas: '3', run_for: '1h' } });
    expect(more.change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({ Place: 1 });
    expect(more.state).toMatchObject({ version: 1, hcl2_vars: { replicas: '3', run_for: '1h' } });
    await converge(h.job, more.state, null);
  });

  it('escapes template sequences in variable values', async () => {
    const config = {
      jobspec: HCL.replaceAll('hcl-web', 'hcl-esc'),
      hcl2_vars: { run_for: '1h', replicas: '1' },
    };
    const { state } = await converge(h.job, null, { ...config, hcl2_vars: { ...config.hcl2_vars } });
    expect(state!['id']).toBe('hcl-esc');
    const odd = HCL.replaceAll('hcl-web', 'hcl-esc').replace(
      'run_for = var.run_for',
      'run_for = "1h"\n        note = var.note',
    );
    const withNote = `variable "note" {\n  type = string\n}\n${odd}`;
    const { state: s2 } = await converge(h.job, state, {
      jobspec: withNote,
      hcl2_vars: { ...config.hcl2_vars, note: 'cost ${env} 100%{x} "q"' },
    });
    const { value } = await h.f.sched.jobs.read('hcl-esc');
    expect(value.TaskGroups?.[0]?.Tasks?.[0]?.Config).toMatchObject({ note: 'cost ${env} 100%{x} "q"' });
    await converge(h.job, s2, null);
  });

  it('reports HCL errors from the cluster at plan time, on the jobspec attribute', async () => {
    const broken = await h.job.plan({ prior: null, config: { jobspec: 'job "x" {\n  group "g" {\n' } });
    expect(broken.action).toBe('noop');
    expect(broken.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', summary: 'Invalid HCL jobspec', path: ['jobspec'] }),
    ]);
    const missingVar = await h.job.plan({ prior: null, config: { jobspec: HCL } });
    expect(missingVar.diagnostics[0]).toMatchObject({ severity: 'error', summary: 'Invalid HCL jobspec' });
    expect(missingVar.diagnostics[0]!.detail).toContain('run_for');
    const rejected = await h.job.plan({
      prior: null,
      config: jobConfig({
        ...mockJob('neg'),
        Datacenters: [],
        TaskGroups: [{ ...mockJob('neg').TaskGroups![0]!, Tasks: [{ Name: 'server', Driver: '' }] }],
      }),
    });
    expect(rejected.diagnostics[0]).toMatchObject({
      severity: 'error',
      summary: 'The scheduler rejected job "neg"',
    });
  });

  it('validates arguments statically, naming the attribute and the rule', () => {
    const v = (c: Record<string, unknown>) => h.job.validate(c);
    expect(v(jobConfig(mockJob('ok')))).toEqual([]);
    expect(v({})).toEqual([
      expect.objectContaining({ summary: 'Missing required argument "jobspec"', path: ['jobspec'] }),
    ]);
    expect(v({ jobspec: '{"ID": "x",' })).toEqual([
      expect.objectContaining({
        summary: 'Invalid JSON jobspec',
        detail: expect.stringMatching(/line 1, column \d+/),
      }),
    ]);
    expect(v({ jobspec: JSON.stringify({ Job: { Name: 'x', TaskGroups: [] } }) })).toEqual([
      expect.objectContaining({ detail: 'field ID: the job needs an ID' }),
    ]);
    expect(v({ jobspec: JSON.stringify({ Job: { ID: 'x', TaskGroups: [] } }) })).toEqual([
      expect.objectContaining({ detail: 'field TaskGroups: the job needs at least one task group' }),
    ]);
    expect(v({ jobspec: '[1]' })[0]!.detail).toBe('the JSON must be a job object');
    expect(v({ jobspec: JSON.stringify({ ID: 'x', TaskGroups: 'web' }) })[0]!.detail).toMatch(
      /^field TaskGroups: /,
    );
    expect(
      v({ jobspec: JSON.stringify({ ...mockJob('x'), ID: 'has space', Type: 'daemon' }) }).map(
        (d) => d.detail,
      ),
    ).toEqual([
      'field ID: must not contain spaces or null characters',
      'field Type: must be service, batch, system or sysbatch',
    ]);
    expect(v({ ...jobConfig(mockJob('x')), eval_priority: 0 })).toEqual([
      expect.objectContaining({ summary: 'Invalid value for "eval_priority"', path: ['eval_priority'] }),
    ]);
    expect(v({ ...jobConfig(mockJob('x')), timeouts: { create: 'soon' } })).toEqual([
      expect.objectContaining({
        path: ['timeouts', 'create'],
        detail: expect.stringContaining('must be a duration'),
      }),
    ]);
    expect(v({ ...jobConfig(mockJob('x')), timeouts: { delete: '0s' } })[0]!.detail).toBe(
      'must be greater than 0',
    );
    expect(v({ ...jobConfig(mockJob('x')), detach: 'yes' })[0]).toMatchObject({
      summary: 'Invalid value for "detach"',
    });
    expect(v({ ...jobConfig(mockJob('x')), colour: 'red' })).toEqual([
      expect.objectContaining({ summary: 'Unsupported argument "colour"' }),
    ]);
    expect(v({ ...jobConfig(mockJob('x')), version: 3 })).toEqual([
      expect.objectContaining({ summary: '"version" is set by the provider and cannot be configured' }),
    ]);
    expect(v({ ...jobConfig(mockJob('x')), hcl2_vars: { a: '1' } })).toEqual([
      expect.objectContaining({ severity: 'warning', summary: 'hcl2_vars is ignored' }),
    ]);
    expect(v({ jobspec: HCL, hcl2_vars: { 'bad name': '1' } })).toEqual([
      expect.objectContaining({ summary: 'Invalid variable name', path: ['hcl2_vars', 'bad name'] }),
    ]);
    expect(v({ jobspec: '   ' })[0]).toMatchObject({
      summary: 'Invalid jobspec',
      detail: 'the jobspec is empty',
    });
  });

  it('plans nothing but the errors when the configuration is invalid', async () => {
    const change = await h.job.plan({
      prior: null,
      config: { ...jobConfig(mockJob('x')), eval_priority: 101 },
    });
    expect(change.action).toBe('noop');
    expect(change.diagnostics[0]).toMatchObject({ severity: 'error', path: ['eval_priority'] });
    expect(h.f.agent.requests.filter((r) => r.path.includes('/v1/job/x'))).toEqual([]);
  });
});
