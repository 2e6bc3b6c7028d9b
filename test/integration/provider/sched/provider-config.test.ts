import { dialectEnv } from '../../../helpers/dialect';
import { mockJob } from '../../../helpers/jobs';
import { startAgent, type AgentFixture } from '../../../helpers/agent';
import { resolveConnection } from '../../../../src/provider/common/connection';
import { ResourceApplyError } from '../../../../src/provider/common/errors';
import { sensitiveAttributes, terraformBlock } from '../../../../src/provider/schema';
import { schedProvider } from '../../../../src/provider/sched/provider';
import { jobConfig, steady } from './harness';

describe('sched provider configuration', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  it('validates settings: types, exclusive pairs, certificate with key, flavor, address', () => {
    const v = (c: Record<string, unknown>) => schedProvider.validate(c);
    expect(v({ address: 'https://sched.example:4646', token: 't', flavor: 'nomad', retries: 2 })).toEqual([]);
    expect(v({ ca_file: '/ca.pem', ca_pem: '-----BEGIN CERTIFICATE-----' })).toEqual([
      expect.objectContaining({ path: ['ca_pem'], summary: '"ca_file" and "ca_pem" cannot both be set' }),
    ]);
    expect(v({ cert_file: '/c.pem' })).toEqual([
      expect.objectContaining({
        path: ['key_file'],
        summary: 'A client certificate and its key must be given together',
      }),
    ]);
    expect(v({ flavor: 'consul' })[0]).toMatchObject({
      path: ['flavor'],
      summary: 'Invalid value for "flavor"',
    });
    expect(v({ address: 'ftp://host' })[0]).toMatchObject({ path: ['address'], summary: 'Invalid address' });
    expect(v({ retries: -1 })[0]!.path).toEqual(['retries']);
    expect(v({ request_timeout: 'soon' })[0]!.path).toEqual(['request_timeout']);
    expect(v({ tokn: 'x' })[0]!.summary).toBe('Unsupported argument "tokn"');
  });

  it('falls back to SCHED_* variables, or NOMAD_* under flavor nomad; configuration wins over both', () => {
    const env = {
      SCHED_ADDR: 'http://sched:1',
      SCHED_TOKEN: 'sched-token',
      SCHED_NAMESPACE: 'ns-s',
      SCHED_REGION: 'r-s',
      NOMAD_ADDR: 'http://nomad:2',
      NOMAD_TOKEN: 'nomad-token',
      NOMAD_NAMESPACE: 'ns-n',
    };
    const native = resolveConnection('scheduler', {}, env);
    expect(native).toMatchObject({ token: 'sched-token', namespace: 'ns-s', region: 'r-s', flavor: 'sched' });
    expect(native.transport).toMatchObject({ address: 'http://sched:1', env: {} });
    const nomad = resolveConnection('scheduler', { flavor: 'nomad' }, env);
    expect(nomad).toMatchObject({
      token: 'nomad-token',
      namespace: 'ns-n',
      region: undefined,
      flavor: 'nomad',
    });
    expect(nomad.transport.address).toBe('http://nomad:2');
    const explicit = resolveConnection(
      'scheduler',
      {
        address: 'http://x:3',
        token: 'mine',
        namespace: 'ns-c',
        headers: { 'X-Team': 'a' },
        ca_pem: 'PEM',
        retries: 1,
        request_timeout: '5s',
      },
      env,
    );
    expect(explicit).toMatchObject({ token: 'mine', namespace: 'ns-c' });
    expect(explicit.transport).toMatchObject({
      address: 'http://x:3',
      headers: { 'X-Team': 'a' },
      tls: { ca: 'PEM' },
      retries: { max: 1 },
      timeoutMs: 5000,
    });
  });

  it('configures a working provider from the environment alone, with its default namespace', async () => {
    await f.sched.namespaces.upsert({ Name: 'env-ns' });
    await f.sched.jobs.register(mockJob('from-env', { namespace: 'env-ns', count: 1 }));
    const p = schedProvider.configure(
      { retries: 0 },
      dialectEnv({ SCHED_ADDR: f.agent.schedulerUrl, SCHED_NAMESPACE: 'env-ns' }),
    );
    try {
      const imported = await p.resources['sched_job']!.import('from-env');
      expect(imported).toMatchObject({ id: 'from-env', namespace: 'env-ns' });
      const data = await p.dataSources['sched_job']!.read({ job_id: 'from-env' });
      expect(data['namespace']).toBe('env-ns');
    } finally {
      await p.close();
    }
  });

  it('redacts a token that came from the environment', async () => {
    const secret = 'env-secret-token-42';
    const p = schedProvider.configure(
      { retries: 0 },
      dialectEnv({ SCHED_ADDR: f.agent.schedulerUrl, SCHED_TOKEN: secret }),
    );
    try {
      const h = p.resources['sched_job']!;
      const job = mockJob('leak-env', {
        count: 1,
        config: { start_error: `bad credentials ${secret}` },
        update: steady(),
      });
      const messages: string[] = [];
      const err = await h
        .apply(await h.plan({ prior: null, config: jobConfig(job) }), {
          onProgress: (e) => messages.push(e.message),
        })
        .catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(ResourceApplyError);
      expect((err as Error).message).toContain('bad credentials [redacted]');
      for (const m of [...messages, (err as Error).message]) expect(m).not.toContain(secret);
    } finally {
      await p.close();
    }
  });

  it('exposes schemas for generation: blocks, sensitive and computed attributes', () => {
    const provider = terraformBlock(schedProvider.shape);
    expect(provider.attributes?.['token']).toMatchObject({ type: 'string', optional: true, sensitive: true });
    expect(sensitiveAttributes(schedProvider.shape)).toEqual(['token', 'key_pem']);
    const job = terraformBlock(schedProvider.resourceShapes['sched_job']!.shape);
    expect(job.attributes?.['jobspec']).toMatchObject({ type: 'string', required: true });
    expect(job.attributes?.['version']).toMatchObject({ type: 'number', computed: true });
    expect(job.block_types?.['timeouts']).toMatchObject({ nesting_mode: 'single' });
    expect(job.attributes?.['task_groups']?.type).toEqual([
      'list',
      [
        'object',
        expect.objectContaining({ name: 'string', tasks: ['list', 'string'], meta: ['map', 'string'] }),
      ],
    ]);
    expect(Object.keys(schedProvider.dataSourceShapes).sort()).toEqual([
      'sched_allocations',
      'sched_deployment',
      'sched_job',
    ]);
  });
});
