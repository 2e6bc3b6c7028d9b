/**
 * Round trip through the real cdktf library: synthesize a stack that uses providers with aliases,
 * iterators, count, dynamic blocks, Fn.* and operators, then read it with the engine. This pins the
 * engine to what cdktf actually writes rather than to hand-written fixtures alone.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  App,
  Fn,
  LocalBackend,
  Op,
  TerraformCount,
  TerraformDataSource,
  TerraformIterator,
  TerraformOutput,
  TerraformProvider,
  TerraformResource,
  TerraformStack,
  TerraformVariable,
  Token,
  VariableType,
  conditional,
  listMapper,
  type ITerraformDependable,
  type ITerraformIterator,
  type TerraformResourceLifecycle,
} from 'cdktf';
import type { Construct } from 'constructs';
import {
  createStackScope,
  evaluateOutput,
  evaluateResourceConfig,
  expandResource,
  instanceAddresses,
  instancesOf,
  parseStackConfig,
  resolveVariables,
  type StackConfig,
} from '../../../../src/engine/config';
import { isUnknown } from '../../../../src/engine/expressions';
import { buildConfigGraph } from '../../../../src/engine/graph';

class SchedProvider extends TerraformProvider {
  private readonly aliasName: string | undefined;
  constructor(
    scope: Construct,
    id: string,
    private readonly cfg: { address: string; alias?: string },
  ) {
    super(scope, id, { terraformResourceType: 'sched', terraformProviderSource: 'cdktf-sched/sched' });
    this.aliasName = cfg.alias;
  }
  override get alias(): string | undefined {
    return this.aliasName;
  }
  override set alias(_v: string | undefined) {}
  protected override synthesizeAttributes(): Record<string, unknown> {
    return { address: this.cfg.address, alias: this.aliasName };
  }
}

interface Meta {
  provider?: TerraformProvider;
  dependsOn?: ITerraformDependable[];
  count?: TerraformCount;
  forEach?: ITerraformIterator;
  lifecycle?: TerraformResourceLifecycle;
}

class Resource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    type: string,
    private readonly attrs: Record<string, unknown>,
    meta: Meta = {},
  ) {
    super(scope, id, { terraformResourceType: type, ...meta });
  }
  attr(name: string): string {
    return this.getStringAttribute(name);
  }
  protected override synthesizeAttributes(): Record<string, unknown> {
    return this.attrs;
  }
}

class DataSource extends TerraformDataSource {
  constructor(
    scope: Construct,
    id: string,
    type: string,
    private readonly attrs: Record<string, unknown>,
  ) {
    super(scope, id, { terraformResourceType: type });
  }
  attr(name: string): string {
    return this.getStringAttribute(name);
  }
  protected override synthesizeAttributes(): Record<string, unknown> {
    return this.attrs;
  }
}

async function synth(): Promise<unknown> {
  const outdir = await mkdtemp(path.join(tmpdir(), 'cdktf-synth-'));
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'web');
  new LocalBackend(stack, { path: 'terraform.web.tfstate' });
  new SchedProvider(stack, 'sched', { address: 'http://127.0.0.1:4646' });
  const west = new SchedProvider(stack, 'west', { address: 'http://west:4646', alias: 'west' });
  const names = new TerraformVariable(stack, 'namespaces', {
    type: VariableType.list(VariableType.STRING),
    default: ['blue', 'green'],
  });
  const replicas = new TerraformVariable(stack, 'replicas', { type: VariableType.NUMBER, default: 2 });
  const ns = new Resource(stack, 'ns', 'sched_namespace', { name: Fn.lower('WEB') }, { provider: west });
  const it = TerraformIterator.fromList(names.listValue);
  const each = new Resource(
    stack,
    'each',
    'sched_namespace',
    { name: it.value, meta: { key: it.key } },
    { forEach: it },
  );
  const count = TerraformCount.of(replicas.numberValue);
  const rules = TerraformIterator.fromList([{ name: 'x' }, { name: 'y' }] as unknown as string[]);
  const web = new Resource(
    stack,
    'web',
    'sched_job',
    {
      jobspec: Fn.jsonencode({
        ID: `web-${Token.asString(count.index)}`,
        Namespace: ns.attr('name'),
        Priority: Op.add(replicas.numberValue, 10),
      }),
      purge_on_destroy: conditional(Op.gt(replicas.numberValue, 5), true, false),
      meta: { raw: Fn.rawString('${literal}'), pick: Fn.lookup({ a: 'A' }, 'a', 'none') },
      rule: listMapper(
        (r: { name: string }) => ({ name: r.name }),
        true,
      )(rules.dynamic({ name: rules.getString('name') })),
    },
    {
      count,
      provider: west,
      dependsOn: [each],
      lifecycle: { createBeforeDestroy: true, ignoreChanges: ['meta'], replaceTriggeredBy: [ns] },
    },
  );
  const existing = new DataSource(stack, 'existing', 'sched_job', { job_id: 'legacy' });
  new TerraformOutput(stack, 'status', { value: existing.attr('status'), dependsOn: [web] });
  new TerraformOutput(stack, 'names', { value: Fn.join(',', names.listValue) });
  app.synth();
  return JSON.parse(await readFile(path.join(outdir, 'stacks', 'web', 'cdk.tf.json'), 'utf8')) as unknown;
}

describe('a stack synthesized by cdktf', () => {
  let config: StackConfig;
  beforeAll(async () => {
    config = parseStackConfig(await synth());
  }, 20000);

  it('parses with construct paths and meta-arguments', () => {
    const web = config.resources.get('sched_job.web')!;
    expect(web.construct.path).toBe('web/web');
    expect(web.provider).toEqual({ name: 'sched', alias: 'west' });
    expect(web.dependsOn).toEqual([{ mode: 'managed', type: 'sched_namespace', name: 'each' }]);
    expect(web.lifecycle.createBeforeDestroy).toBe(true);
    expect(web.lifecycle.ignoreChanges).toEqual([['meta']]);
    expect(web.body.dynamic?.map((d) => d.blockType)).toEqual(['rule']);
    expect([...config.providers.keys()].sort()).toEqual(['sched', 'sched.west']);
    expect(config.backend).toEqual({ type: 'local', config: { path: 'terraform.web.tfstate' } });
  });

  it('expands and evaluates what cdktf wrote', () => {
    const { values } = resolveVariables(config);
    const scope = createStackScope({
      config,
      variables: values,
      resolveReference: (ref) => (ref.name === 'ns' ? { name: 'web', id: 'ns-1' } : { status: 'running' }),
    });
    const each = config.resources.get('sched_namespace.each')!;
    const eachExp = expandResource(each, scope);
    expect(instanceAddresses(each, eachExp)).toEqual([
      'sched_namespace.each["blue"]',
      'sched_namespace.each["green"]',
    ]);
    expect(evaluateResourceConfig(each, scope, instancesOf(eachExp)[1])).toEqual({
      name: 'green',
      meta: { key: 'green' },
    });

    const web = config.resources.get('sched_job.web')!;
    const exp = expandResource(web, scope);
    expect(exp).toEqual({ mode: 'count', count: 2 });
    const cfg = evaluateResourceConfig(web, scope, instancesOf(exp)[1]);
    expect(JSON.parse(cfg['jobspec'] as string)).toEqual({ ID: 'web-1', Namespace: 'web', Priority: 12 });
    expect(cfg['purge_on_destroy']).toBe(false);
    expect(cfg['meta']).toEqual({ raw: '${literal}', pick: 'A' });
    expect(cfg['rule']).toEqual([{ name: 'x' }, { name: 'y' }]);
    expect(evaluateOutput(config.outputs.get('names')!, scope)).toBe('blue,green');
  });

  it('leaves values of resources not created yet unknown', () => {
    const scope = createStackScope({ config, variables: resolveVariables(config).values });
    const web = config.resources.get('sched_job.web')!;
    const cfg = evaluateResourceConfig(web, scope, { key: 0, count: { index: 0 } });
    expect(isUnknown(cfg['jobspec'])).toBe(true);
    expect(isUnknown(evaluateOutput(config.outputs.get('status')!, scope))).toBe(true);
  });

  it('builds an acyclic graph with the expected edges', () => {
    const g = buildConfigGraph(config);
    g.assertAcyclic();
    expect(g.dependenciesOf('sched_job.web')).toEqual([
      'provider.sched.west',
      'sched_namespace.each',
      'sched_namespace.ns',
      'var.replicas',
    ]);
    expect(g.dependenciesOf('output.status')).toEqual(['data.sched_job.existing', 'sched_job.web']);
  });
});
