/**
 * The plugin protocol without Terraform: a gRPC client built from the same .proto files drives the
 * plugin server (with go-plugin's AutoMTLS) through every RPC Terraform uses, against the dev agent,
 * with msgpack values including unknowns.
 */
import { type AgentFixture, startAgent } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';
import { generateCertificate } from '../../../src/plugin/certificate';
import { ctyType, type CtyType } from '../../../src/plugin/cty';
import { startPluginServer, type PluginServer } from '../../../src/plugin/server';
import { schedProvider } from '../../../src/provider/sched/provider';
import { providerSchemaJson } from '../../../src/provider/terraform-schema';
import type { TerraformBlock } from '../../../src/provider/schema';
import { UNKNOWN, isUnknown } from '../../../src/provider/values';
import { connect, diagsOf, dv, errorsOf, fromDv, type Message, type PluginClient } from './helpers/client';

type Obj = Record<string, unknown>;

/** A GetProviderSchema block back in the JSON form of `terraform providers schema -json`. */
function blockJson(b: Obj): TerraformBlock {
  const out: TerraformBlock = { attributes: {} };
  if (b['description']) {
    out.description = b['description'] as string;
    out.description_kind = 'plain';
  }
  for (const a of b['attributes'] as Obj[]) {
    const attr: Obj = {
      type: JSON.parse(Buffer.from(a['type'] as Uint8Array).toString()),
      description_kind: 'plain',
    };
    if (a['description']) attr['description'] = a['description'];
    for (const flag of ['required', 'optional', 'computed', 'sensitive', 'deprecated'])
      if (a[flag]) attr[flag] = true;
    out.attributes![a['name'] as string] = attr as never;
  }
  const nested = b['block_types'] as Obj[];
  if (nested.length > 0) {
    out.block_types = {};
    for (const n of nested) {
      out.block_types[n['type_name'] as string] = {
        nesting_mode: (n['nesting'] as string).toLowerCase() as 'list' | 'set' | 'single',
        block: blockJson(n['block'] as Obj),
        ...(n['max_items'] ? { max_items: n['max_items'] as number } : {}),
      };
    }
  }
  return out;
}

describe('tfplugin6 over gRPC (scheduler provider)', () => {
  let f: AgentFixture;
  let server: PluginServer;
  let client: PluginClient;
  const types: Record<string, CtyType> = {};

  beforeAll(async () => {
    f = await startAgent({ registry: false });
    const host = generateCertificate();
    server = await startPluginServer({
      factory: schedProvider,
      clientCertPem: host.certPem,
      env: {},
      log: () => undefined,
    });
    client = connect(server.address, {
      serverCertPem: server.certPem!,
      certPem: host.certPem,
      keyPem: host.keyPem,
    });
    for (const [k, s] of Object.entries(server.service.schemas.resources)) types[k] = s.type;
    for (const [k, s] of Object.entries(server.service.schemas.dataSources)) types[`data.${k}`] = s.type;
    types['provider'] = server.service.schemas.provider.type;
  });

  afterAll(async () => {
    client.close();
    await server.stop();
    await f.stop();
  });

  const nsConfig = (name: string, description: string | null = null): Obj => ({
    name,
    description,
    meta: null,
    id: null,
  });

  async function plan(type: string, prior: Obj | null, config: Obj | null): Promise<Message> {
    return client.call('PlanResourceChange', {
      type_name: type,
      prior_state: dv(prior, types[type]!),
      proposed_new_state: dv(config, types[type]!),
      config: dv(config, types[type]!),
    });
  }

  async function apply(
    type: string,
    prior: Obj | null,
    planned: Message,
    config: Obj | null,
  ): Promise<Message> {
    return client.call('ApplyResourceChange', {
      type_name: type,
      prior_state: dv(prior, types[type]!),
      planned_state: planned['planned_state'] ?? dv(null, types[type]!),
      config: dv(config, types[type]!),
      planned_private: planned['planned_private'] ?? Buffer.alloc(0),
    });
  }

  it('answers the health check and serves over mutual TLS only', async () => {
    expect(await client.health()).toEqual({ status: 'SERVING' });
    const other = generateCertificate();
    const stranger = connect(server.address, {
      serverCertPem: server.certPem!,
      certPem: other.certPem,
      keyPem: other.keyPem,
    });
    await expect(stranger.health()).rejects.toThrow();
    stranger.close();
  });

  it('serves the schema built from the zod shapes, the same the constructs are generated from', async () => {
    const res = await client.call('GetProviderSchema');
    const expected = providerSchemaJson(schedProvider);
    const provider = res['provider'] as Obj;
    expect(blockJson(provider['block'] as Obj)).toEqual(expected.provider.block);
    const resources = res['resource_schemas'] as Record<string, Obj>;
    expect(Object.keys(resources).sort()).toEqual(Object.keys(expected.resource_schemas).sort());
    for (const [type, s] of Object.entries(expected.resource_schemas)) {
      expect([type, blockJson(resources[type]!['block'] as Obj)]).toEqual([type, s.block]);
      expect(resources[type]!['version']).toBe(s.version);
    }
    const data = res['data_source_schemas'] as Record<string, Obj>;
    for (const [type, s] of Object.entries(expected.data_source_schemas)) {
      expect([type, blockJson(data[type]!['block'] as Obj)]).toEqual([type, s.block]);
    }
    expect(res['server_capabilities']).toMatchObject({
      get_provider_schema_optional: true,
      plan_destroy: false,
    });
    // Sensitive attributes are marked as in the shape.
    const token = (provider['block'] as { attributes: Obj[] }).attributes.find((a) => a['name'] === 'token');
    expect(token).toMatchObject({ sensitive: true, optional: true });
  });

  it('lists its types in GetMetadata and has no functions, identities or ephemeral resources', async () => {
    const meta = await client.call('GetMetadata');
    expect((meta['resources'] as Obj[]).map((r) => r['type_name']).sort()).toEqual([
      'sched_job',
      'sched_namespace',
    ]);
    expect((meta['data_sources'] as Obj[]).map((r) => r['type_name'])).toContain('sched_allocations');
    expect(await client.call('GetFunctions')).toMatchObject({ functions: {} });
    expect(await client.call('GetResourceIdentitySchemas')).toMatchObject({ identity_schemas: {} });
    expect(errorsOf(await client.call('OpenEphemeralResource', { type_name: 'x' }))[0]!.summary).toMatch(
      /ephemeral/,
    );
    expect(
      errorsOf(await client.call('MoveResourceState', { source_type_name: 'a', target_type_name: 'b' })),
    ).toHaveLength(1);
    expect((await client.call('CallFunction', { name: 'f' }))['error']).toMatchObject({
      text: expect.stringMatching(/no function/),
    });
  });

  it('validates the provider configuration with attribute paths', async () => {
    const cfg = (over: Obj): Message => ({ config: dv({ ...over }, types['provider']!) });
    const bad = await client.call('ValidateProviderConfig', cfg({ address: 'ftp://x', retries: 99 }));
    const paths = errorsOf(bad).map((d) => d.attribute?.steps.map((s) => s['attribute_name']).join('.'));
    expect(paths.sort()).toEqual(['address', 'retries']);
    expect(
      errorsOf(await client.call('ValidateProviderConfig', cfg({ address: f.agent.schedulerUrl }))),
    ).toEqual([]);
  });

  it('refuses resource calls before ConfigureProvider, then configures', async () => {
    const early = await plan('sched_namespace', null, nsConfig('early'));
    expect(errorsOf(early)[0]!.detail).toMatch(/not configured/);
    const res = await client.call('ConfigureProvider', {
      terraform_version: '1.11.4',
      config: dv({ address: f.agent.schedulerUrl }, types['provider']!),
    });
    expect(errorsOf(res)).toEqual([]);
  });

  it('validates resource configuration, skipping unknown values', async () => {
    const bad = await client.call('ValidateResourceConfig', {
      type_name: 'sched_namespace',
      config: dv(nsConfig('not valid!'), types['sched_namespace']!),
    });
    expect(errorsOf(bad)[0]!.attribute!.steps).toEqual([
      { attribute_name: 'name', selector: 'attribute_name' },
    ]);
    const unknown = await client.call('ValidateResourceConfig', {
      type_name: 'sched_job',
      config: dv({ jobspec: UNKNOWN, hcl2_vars: { a: UNKNOWN } }, types['sched_job']!),
    });
    expect(errorsOf(unknown)).toEqual([]);
    const nope = await client.call('ValidateResourceConfig', {
      type_name: 'sched_nope',
      config: dv(null, 'dynamic'),
    });
    expect(errorsOf(nope)[0]!.detail).toMatch(/no resource type "sched_nope"/);
  });

  it('creates, reads, re-plans, replaces and deletes a namespace', async () => {
    const t = types['sched_namespace']!;
    const config = nsConfig('proto-ns');
    const planned = await plan('sched_namespace', null, config);
    expect(errorsOf(planned)).toEqual([]);
    // The handler plans an unset description as ""; Terraform needs the configured null back.
    expect(fromDv(planned['planned_state'], t)).toEqual({
      name: 'proto-ns',
      description: null,
      meta: null,
      id: 'proto-ns',
    });
    expect(planned['planned_private']).toBeInstanceOf(Buffer);

    const applied = await apply('sched_namespace', null, planned, config);
    expect(errorsOf(applied)).toEqual([]);
    const state = fromDv(applied['new_state'], t) as Obj;
    expect(state).toEqual({ name: 'proto-ns', description: null, meta: null, id: 'proto-ns' });
    const { value: ns } = await f.sched.namespaces.read('proto-ns');
    expect(ns.Description).toBe('');

    const read = await client.call('ReadResource', {
      type_name: 'sched_namespace',
      current_state: dv(state, t),
    });
    expect(fromDv(read['new_state'], t)).toEqual(state);

    const again = await plan('sched_namespace', state, config);
    expect(fromDv(again['planned_state'], t)).toEqual(state);
    expect(again['requires_replace']).toEqual([]);

    const renamed = nsConfig('proto-ns-2', 'second');
    const replace = await plan('sched_namespace', state, renamed);
    expect(replace['requires_replace']).toEqual([
      { steps: [{ attribute_name: 'name', selector: 'attribute_name' }] },
    ]);

    const gone = await apply('sched_namespace', state, { planned_state: dv(null, t) }, null);
    expect(errorsOf(gone)).toEqual([]);
    expect(fromDv(gone['new_state'], t)).toBeNull();
    await expect(f.sched.namespaces.read('proto-ns')).rejects.toThrow();

    const vanished = await client.call('ReadResource', {
      type_name: 'sched_namespace',
      current_state: dv(state, t),
    });
    expect(fromDv(vanished['new_state'], t)).toBeNull();
  });

  it('plans with unknown values: unknown arguments stay unknown, computed ones become unknown', async () => {
    const t = types['sched_job']!;
    const config: Obj = { jobspec: UNKNOWN };
    const res = await plan('sched_job', null, config);
    expect(errorsOf(res)).toEqual([]);
    const planned = fromDv(res['planned_state'], t) as Obj;
    expect(isUnknown(planned['jobspec'])).toBe(true);
    for (const k of ['id', 'version', 'task_groups', 'allocation_ids'])
      expect(isUnknown(planned[k])).toBe(true);
    expect(planned['detach']).toBeNull();

    // Terraform's refined unknowns (msgpack extension 12, here "not null") are unknowns too.
    const bytes = Buffer.from(dv(config, t)['msgpack'] as Buffer);
    const at = bytes.indexOf(Buffer.from('d40000', 'hex'));
    const refined = Buffer.concat([
      bytes.subarray(0, at),
      Buffer.from('c7030c8101c2', 'hex'),
      bytes.subarray(at + 3),
    ]);
    const res2 = await client.call('PlanResourceChange', {
      type_name: 'sched_job',
      prior_state: dv(null, t),
      proposed_new_state: { msgpack: refined },
      config: { msgpack: refined },
    });
    expect(errorsOf(res2)).toEqual([]);
    expect(isUnknown((fromDv(res2['planned_state'], t) as Obj)['jobspec'])).toBe(true);
  });

  it('runs a job through plan (scheduler warning), apply (deployment), read, update, import, data source and destroy', async () => {
    const t = types['sched_job']!;
    const job = mockJob('proto-web', { count: 2, update: rolling() });
    const config: Obj = { jobspec: JSON.stringify(job) };
    const planned = await plan('sched_job', null, config);
    expect(errorsOf(planned)).toEqual([]);
    const warning = diagsOf(planned).find((d) => d.summary === 'Scheduler dry run');
    expect(warning?.severity).toBe('WARNING');
    expect(warning?.detail).toMatch(/^job "proto-web"\ntask group "web": 2 to place/);
    const plannedState = fromDv(planned['planned_state'], t) as Obj;
    expect(plannedState).toMatchObject({
      id: 'proto-web',
      namespace: 'default',
      type: 'service',
      jobspec: config['jobspec'],
    });
    expect(isUnknown(plannedState['version'])).toBe(true);
    // The private bytes carry the check-and-set index apply enforces.
    expect(JSON.parse(Buffer.from(planned['planned_private'] as Buffer).toString())).toMatchObject({
      action: 'create',
      private: { register: true, jobModifyIndex: 0 },
    });

    const applied = await apply('sched_job', null, planned, config);
    expect(errorsOf(applied)).toEqual([]);
    const state = fromDv(applied['new_state'], t) as Obj;
    expect(state).toMatchObject({
      id: 'proto-web',
      version: 0,
      deployment_status: 'successful',
      jobspec: config['jobspec'],
    });
    expect(state['allocation_ids']).toHaveLength(2);
    expect(JSON.stringify(state)).not.toContain('__unknown__');

    const read = await client.call('ReadResource', { type_name: 'sched_job', current_state: dv(state, t) });
    expect(fromDv(read['new_state'], t)).toMatchObject({ id: 'proto-web', version: 0 });
    const noop = await plan('sched_job', state, config);
    expect(fromDv(noop['planned_state'], t)).toEqual(state);
    expect(diagsOf(noop)).toEqual([]);

    const config3: Obj = { jobspec: JSON.stringify(mockJob('proto-web', { count: 3, update: rolling() })) };
    const update = await plan('sched_job', state, config3);
    expect(diagsOf(update).find((d) => d.severity === 'WARNING')?.detail).toMatch(/1 to place/);
    const updated = await apply('sched_job', state, update, config3);
    expect(errorsOf(updated)).toEqual([]);
    const state3 = fromDv(updated['new_state'], t) as Obj;
    expect(state3).toMatchObject({ version: 1 });
    expect(state3['allocation_ids']).toHaveLength(3);

    const imported = await client.call('ImportResourceState', {
      type_name: 'sched_job',
      id: 'proto-web@default',
    });
    const [res] = imported['imported_resources'] as Obj[];
    expect(res!['type_name']).toBe('sched_job');
    const importedState = fromDv(res!['state'], t) as Obj;
    expect(importedState).toMatchObject({ id: 'proto-web', version: 1 });
    expect(JSON.parse(importedState['jobspec'] as string)).toMatchObject({ ID: 'proto-web' });
    const missing = await client.call('ImportResourceState', { type_name: 'sched_job', id: 'nope' });
    expect(errorsOf(missing)[0]!.detail).toMatch(/does not exist/);

    const dt = types['data.sched_job']!;
    const dsConfig = Object.fromEntries(Object.keys((dt as ['object', Obj])[1]).map((k) => [k, null]));
    const data = await client.call('ReadDataSource', {
      type_name: 'sched_job',
      config: dv({ ...dsConfig, job_id: 'proto-web' }, dt),
    });
    expect(errorsOf(data)).toEqual([]);
    expect(fromDv(data['state'], dt)).toMatchObject({ job_id: 'proto-web' });

    const destroyed = await apply('sched_job', state3, { planned_state: dv(null, t) }, null);
    expect(errorsOf(destroyed)).toEqual([]);
    const { value: after } = await f.sched.jobs.read('proto-web');
    expect(after.Stop).toBe(true);
  });

  it('refreshes and plans an unchanged job with one request to the agent, as the engine does', async () => {
    const t = types['sched_job']!;
    const config: Obj = { jobspec: JSON.stringify(mockJob('proto-once', { count: 1, update: rolling() })) };
    const applied = await apply('sched_job', null, await plan('sched_job', null, config), config);
    const state = fromDv(applied['new_state'], t) as Obj;
    const before = f.agent.requests.length;
    const read = await client.call('ReadResource', { type_name: 'sched_job', current_state: dv(state, t) });
    const refreshed = fromDv(read['new_state'], t) as Obj;
    const noop = await plan('sched_job', refreshed, config);
    expect(fromDv(noop['planned_state'], t)).toEqual(refreshed);
    expect(f.agent.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/job/proto-once',
    ]);
  });

  it('reports placement failures as errors, or as warnings when told to', async () => {
    const huge = JSON.stringify(mockJob('proto-huge', { cpu: 1_000_000 }));
    const strict = await plan('sched_job', null, { jobspec: huge });
    const err = errorsOf(strict)[0]!;
    expect(err.summary).toMatch(/cannot place/);
    expect(err.attribute!.steps).toEqual([{ attribute_name: 'jobspec', selector: 'attribute_name' }]);
    const lenient = await plan('sched_job', null, { jobspec: huge, fail_on_placement_failure: false });
    expect(errorsOf(lenient)).toEqual([]);
    expect(diagsOf(lenient).map((d) => d.summary)).toEqual(
      expect.arrayContaining([expect.stringMatching(/cannot place/), 'Scheduler dry run']),
    );
  });

  it('upgrades stored JSON state into the current schema', async () => {
    const t = types['sched_namespace']!;
    const raw = { name: 'old', description: 'd', id: 'old', removed_attribute: 1 };
    const res = await client.call('UpgradeResourceState', {
      type_name: 'sched_namespace',
      version: 0,
      raw_state: { json: Buffer.from(JSON.stringify(raw)) },
    });
    expect(errorsOf(res)).toEqual([]);
    expect(fromDv(res['upgraded_state'], t)).toEqual({
      name: 'old',
      description: 'd',
      id: 'old',
      meta: null,
    });
  });

  it('reads JSON dynamic values where Terraform sends them', async () => {
    const t = types['sched_namespace']!;
    const res = await client.call('ValidateResourceConfig', {
      type_name: 'sched_namespace',
      config: { json: Buffer.from(JSON.stringify({ name: 'bad name' })) },
    });
    expect(errorsOf(res)).toHaveLength(1);
    expect(ctyType(t)).toEqual(t);
  });

  it('stops on StopProvider and shuts down on the controller', async () => {
    expect(await client.call('StopProvider')).toEqual({ Error: '' });
    await client.shutdown();
    await server.closed;
    await expect(client.health()).rejects.toThrow();
  });
});
