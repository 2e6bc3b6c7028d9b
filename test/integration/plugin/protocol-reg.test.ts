/**
 * The registry provider over the plugin protocol (plain gRPC, as when the host sends no certificate):
 * nested blocks (a list block, a single `timeouts` block), a sensitive JSON attribute, and a secret that
 * must not come back in any diagnostic.
 */
import { startDevAgent, type DevAgent } from '../../../src/agent';
import type { CtyType } from '../../../src/plugin/cty';
import { startPluginServer, type PluginServer } from '../../../src/plugin/server';
import { regProvider } from '../../../src/provider/reg/provider';
import { UNKNOWN, isUnknown } from '../../../src/provider/values';
import { connect, diagsOf, dv, errorsOf, fromDv, type Message, type PluginClient } from './helpers/client';

type Obj = Record<string, unknown>;

const JWT = 'eyJhbGciOiJSUzI1NiJ9.protocol-secret-jwt.c2lnbmF0dXJl';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBdevca\n-----END CERTIFICATE-----';

describe('tfplugin6 over gRPC (registry provider)', () => {
  let agent: DevAgent;
  let server: PluginServer;
  let client: PluginClient;
  const types: Record<string, CtyType> = {};
  const seen: string[] = [];

  beforeAll(async () => {
    agent = await startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01 });
    server = await startPluginServer({ factory: regProvider, env: {}, log: (l) => void seen.push(l) });
    expect(server.handshakeLine).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|$/);
    client = connect(server.address);
    for (const [k, s] of Object.entries(server.service.schemas.resources)) types[k] = s.type;
    const res = await client.call('ConfigureProvider', {
      config: dv({ address: agent.registryUrl }, server.service.schemas.provider.type),
    });
    expect(errorsOf(res)).toEqual([]);
  });

  afterAll(async () => {
    client.close();
    await server.stop();
    await agent.stop();
    expect(seen.join('\n')).not.toContain(JWT);
  });

  const record = (m: Message): Message => {
    for (const d of diagsOf(m)) seen.push(`${d.summary} ${d.detail}`);
    return m;
  };

  async function converge(type: string, prior: Obj | null, config: Obj): Promise<Obj> {
    const t = types[type]!;
    const plan = record(
      await client.call('PlanResourceChange', {
        type_name: type,
        prior_state: dv(prior, t),
        proposed_new_state: dv(config, t),
        config: dv(config, t),
      }),
    );
    expect(errorsOf(plan)).toEqual([]);
    const applied = record(
      await client.call('ApplyResourceChange', {
        type_name: type,
        prior_state: dv(prior, t),
        planned_state: plan['planned_state'],
        config: dv(config, t),
        planned_private: plan['planned_private'],
      }),
    );
    expect(errorsOf(applied)).toEqual([]);
    return fromDv(applied['new_state'], t) as Obj;
  }

  const nsConfig = (over: Obj = {}): Obj => ({
    id: null,
    name: 'team-a',
    description: null,
    meta: null,
    policy_defaults: null,
    role_defaults: null,
    timeouts: null,
    ...over,
  });

  it('warns when the provider configuration is not known until apply', async () => {
    const other = await startPluginServer({ factory: regProvider, env: {}, log: () => undefined });
    const c = connect(other.address);
    const res = await c.call('ConfigureProvider', {
      config: dv({ address: UNKNOWN, datacenter: 'dc1' }, other.service.schemas.provider.type),
    });
    expect(diagsOf(res)).toEqual([
      expect.objectContaining({
        severity: 'WARNING',
        summary: 'The reg provider configuration is not known until apply',
      }),
    ]);
    expect(diagsOf(res)[0]!.detail).toMatch(/^address: /);
    c.close();
    await other.stop();
  });

  it('marks the auth method config sensitive in the schema', async () => {
    const res = await client.call('GetProviderSchema');
    const block = (
      res['resource_schemas'] as Record<string, { block: { attributes: Obj[]; block_types: Obj[] } }>
    )['reg_acl_auth_method']!.block;
    expect(block.attributes.find((a) => a['name'] === 'config')).toMatchObject({
      sensitive: true,
      required: true,
    });
    expect(block.block_types.map((b) => [b['type_name'], b['nesting']])).toEqual([
      ['namespace_rule', 'LIST'],
    ]);
  });

  it('plans an unknown computed id, applies, and keeps a configured timeouts block as written', async () => {
    const t = types['reg_namespace']!;
    const config = nsConfig({ meta: { owner: 'ops' }, timeouts: { create: '1m', delete: null } });
    const plan = await client.call('PlanResourceChange', {
      type_name: 'reg_namespace',
      prior_state: dv(null, t),
      proposed_new_state: dv(config, t),
      config: dv(config, t),
    });
    const planned = fromDv(plan['planned_state'], t) as Obj;
    expect(isUnknown(planned['id'])).toBe(true);
    expect(planned['timeouts']).toEqual({ create: '1m', delete: null });

    const state = await converge('reg_namespace', null, config);
    expect(state).toMatchObject({
      id: 'team-a',
      name: 'team-a',
      meta: { owner: 'ops' },
      timeouts: { create: '1m', delete: null },
    });
    const res = await fetch(`${agent.registryUrl}/v1/namespace/team-a`);
    expect(((await res.json()) as Obj)['Meta']).toEqual({ owner: 'ops' });

    const read = await client.call('ReadResource', {
      type_name: 'reg_namespace',
      current_state: dv(state, t),
    });
    expect(fromDv(read['new_state'], t)).toEqual(state);
  });

  it('creates an auth method with a list block and a sensitive JSON config, and updates it in place', async () => {
    const config: Obj = {
      id: null,
      name: 'k8s',
      type: 'kubernetes',
      display_name: null,
      description: 'cluster',
      max_token_ttl: null,
      token_locality: null,
      config: JSON.stringify({ Host: 'https://k8s.example:8443', CACert: CA, ServiceAccountJWT: JWT }),
      namespace: null,
      namespace_rule: [{ selector: 'serviceaccount.namespace=="a"', bind_namespace: 'team-a' }],
    };
    const state = await converge('reg_acl_auth_method', null, config);
    expect(state).toMatchObject({ id: 'k8s', namespace: 'default', config: config['config'] });
    expect(state['namespace_rule']).toEqual(config['namespace_rule']);

    // No rules in the configuration: Terraform sends the list block as empty and expects it back so.
    const next = { ...state, description: 'changed', namespace_rule: [] };
    const updated = await converge('reg_acl_auth_method', state, next);
    expect(updated).toMatchObject({ description: 'changed', namespace_rule: [] });
    const res = await fetch(`${agent.registryUrl}/v1/acl/auth-method/k8s`);
    expect(((await res.json()) as Obj)['NamespaceRules'] ?? []).toEqual([]);
  });

  it('reports a plan that would replace on a forced attribute, with unknown values in a list block', async () => {
    const t = types['reg_acl_auth_method']!;
    const prior = {
      id: 'k8s',
      name: 'k8s',
      type: 'kubernetes',
      display_name: null,
      description: 'changed',
      max_token_ttl: null,
      token_locality: null,
      config: '{}',
      namespace: 'default',
      namespace_rule: [],
    };
    const config = {
      ...prior,
      id: null,
      type: 'jwt',
      namespace_rule: [{ selector: UNKNOWN, bind_namespace: 'team-a' }],
    };
    const plan = await client.call('PlanResourceChange', {
      type_name: 'reg_acl_auth_method',
      prior_state: dv(prior, t),
      proposed_new_state: dv(config, t),
      config: dv(config, t),
    });
    expect(errorsOf(plan)).toEqual([]);
    expect(plan['requires_replace']).toEqual([
      { steps: [{ attribute_name: 'type', selector: 'attribute_name' }] },
    ]);
    const planned = fromDv(plan['planned_state'], t) as { namespace_rule: Obj[] };
    expect(isUnknown(planned.namespace_rule[0]!['selector'])).toBe(true);
  });
});
