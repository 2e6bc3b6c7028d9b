import { startDevAgent, type DevAgent } from '../../../../src/agent';
import { RegClient } from '../../../../src/api/reg/client';
import { configureRegProvider, regProvider } from '../../../../src/provider/reg/provider';
import type { Provider } from '../../../../src/provider/resource';
import { providerSchemaJson } from '../../../../src/provider/terraform-schema';
import { DiagnosticsError } from '../../../../src/provider/values';
import { expectNoSecret, failureText, pathsOf } from './fixture';

const ROOT = 'b1f3c0de-0000-4000-8000-00000000root';
const WRONG = 'b1f3c0de-0000-4000-8000-0000000wrong';

describe('reg provider: configuration, environment fallbacks, tokens', () => {
  let open: DevAgent;
  let secured: DevAgent;
  const providers: Provider[] = [];
  const logs: string[] = [];
  beforeAll(async () => {
    const common = { port: 0, registryPort: 0, timeScale: 0.01, nodes: 0, log: (l: string) => logs.push(l) };
    [open, secured] = await Promise.all([
      startDevAgent(common),
      startDevAgent({ ...common, acl: true, bootstrapToken: ROOT }),
    ]);
    const c = new RegClient({ address: open.registryUrl!, env: {} });
    await c.namespaces.create({ Name: 'team-a' });
    await c.close();
  });
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await Promise.all([open.stop(), secured.stop()]);
  });
  const configure = (...args: Parameters<typeof configureRegProvider>): Provider => {
    const p = configureRegProvider(...args);
    providers.push(p);
    return p;
  };
  const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';

  test('validation of the provider configuration names the attribute', () => {
    const v = (c: Record<string, unknown>) => pathsOf(regProvider.validate(c));
    expect(v({})).toEqual([]);
    expect(v({ address: 'http://127.0.0.1:8500', datacenter: 'dc1', flavor: 'consul', retries: 2 })).toEqual(
      [],
    );
    expect(v({ flavor: 'nomad' })).toEqual(['flavor']);
    expect(v({ datacenter: '' })).toEqual(['datacenter']);
    expect(v({ retries: -1 })).toEqual(['retries']);
    expect(v({ region: 'global' })).toEqual(['region']);
    expect(v({ cert_pem: 'x' })).toEqual(['key_file']);
    expect(v({ address: 'ftp://x' })).toEqual(['address']);
    expect(() => configureRegProvider({ flavor: 'nomad' }, {})).toThrow(DiagnosticsError);
  });

  test('REG_HTTP_ADDR and REG_NAMESPACE are the fallbacks of flavor "sched"', async () => {
    const p = configure(
      {},
      { REG_HTTP_ADDR: open.registryUrl, REG_NAMESPACE: 'team-a', CONSUL_HTTP_ADDR: 'http://127.0.0.1:1' },
    );
    expect(await p.dataSources['reg_namespace']!.read({ name: 'team-a' })).toMatchObject({ id: 'team-a' });
    const state = await p.resources['reg_acl_auth_method']!.apply({
      action: 'create',
      prior: null,
      planned: { name: 'from-env', type: 'kubernetes', config: { Host: 'https://k:443', CACert: CA } },
      diagnostics: [],
    });
    expect(state).toMatchObject({ namespace: 'team-a' });
    // An explicit address beats the environment.
    const explicit = configure(
      { address: 'http://127.0.0.1:1', retries: 0 },
      { REG_HTTP_ADDR: open.registryUrl },
    );
    await expect(explicit.dataSources['reg_namespace']!.read({ name: 'team-a' })).rejects.toThrow(
      /cannot reach the server/,
    );
  });

  test('flavor "consul" reads CONSUL_HTTP_ADDR and CONSUL_NAMESPACE instead', async () => {
    // A registry that speaks Consul's headers, as a real Consul does.
    const consul = await startDevAgent({ port: 0, registryPort: 0, nodes: 0, dialect: 'hashicorp' });
    const env = {
      CONSUL_HTTP_ADDR: consul.registryUrl,
      CONSUL_NAMESPACE: 'team-a',
      REG_HTTP_ADDR: 'http://127.0.0.1:1',
    };
    const p = configure({ flavor: 'consul', retries: 0 }, env);
    const c = new RegClient({ address: consul.registryUrl!, env: {}, flavor: 'consul' });
    await c.namespaces.create({ Name: 'team-a' });
    await c.close();
    await p.resources['reg_acl_auth_method']!.apply({
      action: 'create',
      prior: null,
      planned: { name: 'from-env', type: 'kubernetes', config: { Host: 'https://k:443', CACert: CA } },
      diagnostics: [],
    });
    expect(await p.dataSources['reg_namespace']!.read({ name: 'default' })).toMatchObject({ id: 'default' });
    const listed = await p.resources['reg_acl_auth_method']!.import('from-env');
    expect(listed).toMatchObject({ namespace: 'team-a' });
    await consul.stop();
    const sched = configure({ retries: 0 }, env);
    await expect(sched.dataSources['reg_namespace']!.read({ name: 'default' })).rejects.toThrow(
      /cannot reach the server/,
    );
  });

  test('the token comes from the configuration, else REG_HTTP_TOKEN, and never shows in an error', async () => {
    const fromEnv = configure({ address: secured.registryUrl }, { REG_HTTP_TOKEN: ROOT });
    const created = await fromEnv.resources['reg_namespace']!.apply({
      action: 'create',
      prior: null,
      planned: { name: 'secured-ns' },
      diagnostics: [],
    });
    expect(created).toMatchObject({ id: 'secured-ns' });

    const wrong = configure({ address: secured.registryUrl, token: WRONG }, { REG_HTTP_TOKEN: ROOT });
    const texts = [
      await failureText(wrong.dataSources['reg_namespace']!.read({ name: 'secured-ns' })),
      await failureText(wrong.resources['reg_namespace']!.import('secured-ns')),
      await failureText(
        wrong.resources['reg_namespace']!.apply({
          action: 'create',
          prior: null,
          planned: { name: 'nope' },
          diagnostics: [],
        }),
      ),
    ];
    for (const t of texts) expect(t).toMatch(/HTTP 403/);
    const anonymous = configure({ address: secured.registryUrl }, {});
    texts.push(await failureText(anonymous.resources['reg_namespace']!.import('secured-ns')));
    expect(texts[3]).toMatch(/HTTP 403/);
    expectNoSecret([...texts, ...logs], [ROOT, WRONG]);
  });

  test('the schema marks secrets sensitive and blocks as blocks', () => {
    const json = providerSchemaJson(regProvider);
    expect(json.provider.block.attributes!['token']).toMatchObject({ sensitive: true, optional: true });
    expect(json.provider.block.attributes!['datacenter']).toMatchObject({ optional: true, type: 'string' });
    expect(Object.keys(json.resource_schemas)).toEqual([
      'reg_acl_auth_method',
      'reg_namespace',
      'reg_peering',
      'reg_peering_token',
    ]);
    expect(Object.keys(json.data_source_schemas)).toEqual([
      'reg_discovery_chain',
      'reg_namespace',
      'reg_peering',
    ]);
    const am = json.resource_schemas['reg_acl_auth_method']!.block;
    expect(am.attributes!['config']).toMatchObject({ sensitive: true, required: true, type: 'string' });
    expect(am.attributes!['namespace']).toMatchObject({ optional: true, computed: true });
    expect(am.block_types!['namespace_rule']!.nesting_mode).toBe('list');
    expect(am.block_types!['namespace_rule']!.block.attributes!['bind_namespace']).toMatchObject({
      required: true,
    });
    expect(json.resource_schemas['reg_peering_token']!.block.attributes!['peering_token']).toMatchObject({
      sensitive: true,
      computed: true,
    });
    expect(json.resource_schemas['reg_peering']!.block.attributes!['peering_token']).toMatchObject({
      sensitive: true,
      required: true,
    });
    expect(json.resource_schemas['reg_namespace']!.block.block_types!['timeouts']!.nesting_mode).toBe(
      'single',
    );
    expect(
      json.data_source_schemas['reg_discovery_chain']!.block.block_types!['override_mesh_gateway']!
        .nesting_mode,
    ).toBe('single');
  });
});
