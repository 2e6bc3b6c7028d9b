import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ConfigError,
  listSynthesizedStacks,
  loadStackConfig,
  localStatePath,
  parseInstanceAddress,
  parseStackConfig,
  instanceAddress,
  type StackConfig,
} from '../../../../src/engine/config';

const FIXTURE = path.join(__dirname, 'fixtures', 'web-stack.cdk.tf.json');

async function fixtureJson(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(FIXTURE, 'utf8')) as Record<string, unknown>;
}

/** A minimal document in cdktf's shape with one resource body. */
function withResource(
  type: string,
  name: string,
  body: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): unknown {
  return {
    '//': { metadata: { stackName: 'stack', backend: 'local', version: '0.21.0' } },
    resource: {
      [type]: { [name]: { '//': { metadata: { path: `stack/${name}`, uniqueId: name } }, ...body } },
    },
    ...extra,
  };
}

function errorsOf(json: unknown): string[] {
  try {
    parseStackConfig(json);
  } catch (e) {
    if (e instanceof ConfigError) return e.message.split('\n');
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('parseStackConfig on a synthesized stack', () => {
  let config: StackConfig;
  beforeAll(async () => {
    config = await loadStackConfig(FIXTURE);
  });

  it('reads every block kind', () => {
    expect([...config.resources.keys()].sort()).toEqual([
      'reg_namespace.mirror',
      'sched_job.dyn',
      'sched_job.web',
      'sched_namespace.each',
      'sched_namespace.ns',
    ]);
    expect([...config.dataSources.keys()]).toEqual(['data.sched_job.existing']);
    expect([...config.providers.keys()].sort()).toEqual(['reg', 'sched', 'sched.west']);
    expect([...config.variables.keys()].sort()).toEqual([
      'namespaces',
      'owner',
      'replicas',
      'sched_addr',
      'services',
      'token',
    ]);
    expect([...config.locals.keys()]).toEqual(['prefix', 'labels']);
    expect([...config.outputs.keys()].sort()).toEqual(['job_ids', 'namespace', 'token']);
    expect(config.metadata).toMatchObject({ stackName: 'web', backend: 'local' });
    expect(config.file).toBe(FIXTURE);
  });

  it('keeps construct paths and provider meta-arguments', () => {
    const web = config.resources.get('sched_job.web')!;
    expect(web.construct).toMatchObject({ path: 'web/web', uniqueId: 'web' });
    expect(web.provider).toEqual({ name: 'sched', alias: 'west' });
    expect(web.providerExplicit).toBe(true);
    const each = config.resources.get('sched_namespace.each')!;
    expect(each.provider).toEqual({ name: 'sched' });
    expect(config.resources.get('reg_namespace.mirror')!.provider).toEqual({ name: 'reg' });
    expect(config.providers.get('sched.west')).toMatchObject({ name: 'sched', alias: 'west' });
  });

  it('separates meta-arguments from attributes', () => {
    const web = config.resources.get('sched_job.web')!;
    const attrNames = web.body.items.map((i) => (i.key.type === 'literal' ? i.key.value : '?'));
    expect(attrNames.sort()).toEqual(['detach', 'jobspec', 'meta', 'namespace', 'purge_on_destroy']);
    expect(web.count).toBeDefined();
    expect(web.forEach).toBeUndefined();
    expect(web.dependsOn).toEqual([{ mode: 'managed', type: 'sched_namespace', name: 'each' }]);
    expect(web.lifecycle).toMatchObject({
      createBeforeDestroy: true,
      preventDestroy: false,
      ignoreChanges: [['meta']],
    });
    expect(web.lifecycle.replaceTriggeredBy).toHaveLength(1);
    const dyn = config.resources.get('sched_job.dyn')!;
    expect(dyn.body.dynamic?.map((d) => [d.blockType, d.iterator])).toEqual([['rule', 'each']]);
  });

  it('reads variables with types, defaults, sensitivity, nullability and validation', () => {
    expect(config.variables.get('replicas')).toMatchObject({
      default: 2,
      hasDefault: true,
      description: 'how many web jobs',
    });
    expect(config.variables.get('token')).toMatchObject({
      sensitive: true,
      nullable: false,
      hasDefault: false,
    });
    expect(config.variables.get('token')!.validations).toHaveLength(1);
    expect(config.variables.get('services')!.typeText).toBe('list(object({name=string, port=number}))');
  });

  it('reads outputs, backend and required providers', () => {
    expect(config.outputs.get('token')).toMatchObject({ sensitive: true });
    expect(config.outputs.get('namespace')!.dependsOn).toEqual([
      { mode: 'managed', type: 'sched_job', name: 'web' },
    ]);
    expect(config.backend).toEqual({ type: 'local', config: { path: 'terraform.web.tfstate' } });
    expect(config.requiredProviders['sched']).toEqual({ source: 'cdktf-sched/sched', version: '0.1.0' });
    expect(localStatePath(config, '/work/cdktf.out/stacks/web')).toBe(
      '/work/cdktf.out/stacks/web/terraform.web.tfstate',
    );
  });
});

describe('configuration errors name the block, construct path and attribute', () => {
  it('reports an unknown function', () => {
    const json = withResource('sched_job', 'web', { jobspec: '${nosuchfunc({a = 1})}' });
    expect(errorsOf(json)).toEqual([
      'sched_job.web (stack/web), attribute jobspec: Call to unknown function "nosuchfunc" (in "${nosuchfunc({a = 1})}")',
    ]);
  });

  it('suggests a close function name', () => {
    const [msg] = errorsOf(withResource('sched_job', 'web', { jobspec: '${jsonencod({})}' }));
    expect(msg).toContain('Call to unknown function "jsonencod": Did you mean "jsonencode"?');
  });

  it('reports syntax errors at their nested attribute path', () => {
    const [msg] = errorsOf(withResource('sched_job', 'web', { meta: { owner: '${var.x' } }));
    expect(msg).toMatch(/^sched_job\.web \(stack\/web\), attribute meta\.owner: Invalid interpolation/);
  });

  it('reports undeclared references with hints', () => {
    const json = withResource(
      'sched_job',
      'web',
      {
        a: '${var.replica}',
        b: '${local.nope}',
        c: '${sched_namespace.missing.name}',
        d: '${data.sched_job.x.id}',
      },
      { variable: { replicas: { type: 'number' } } },
    );
    const msgs = errorsOf(json);
    expect(msgs).toHaveLength(4);
    expect(msgs[0]).toMatch(
      /attribute a: Reference to undeclared input variable: .*"replica".* Did you mean "var.replicas"\?/,
    );
    expect(msgs[1]).toMatch(/attribute b: Reference to undeclared local value/);
    expect(msgs[2]).toMatch(
      /attribute c: Reference to undeclared resource: A managed resource "sched_namespace" "missing"/,
    );
    expect(msgs[3]).toMatch(/attribute d: Reference to undeclared resource: A data resource "sched_job" "x"/);
  });

  it('rejects count.index and each.* where they are not set', () => {
    const msgs = errorsOf(withResource('sched_job', 'web', { a: '${count.index}', b: '${each.key}' }));
    expect(msgs[0]).toMatch(/attribute a: Reference to "count" in non-counted context/);
    expect(msgs[1]).toMatch(/attribute b: Reference to "each" in context without for_each/);
  });

  it('allows each.* inside dynamic block content, where it is the iterator', () => {
    const json = withResource('sched_job', 'web', {
      dynamic: { rule: { for_each: '${[1, 2]}', iterator: 'each', content: { n: '${each.value}' } } },
    });
    expect(() => parseStackConfig(json)).not.toThrow();
  });

  it('rejects count with for_each, unsupported blocks and bad meta-arguments', () => {
    const msgs = errorsOf(
      withResource('sched_job', 'web', {
        count: 2,
        for_each: '${toset(["a"])}',
        provisioner: [{ 'local-exec': { command: 'x' } }],
        lifecycle: { prevent_destroy: 'maybe', ignore_changes: ['${1 + 1}'], bogus: true },
        provider: 'sched.east',
        depends_on: ['var.x'],
      }),
    );
    expect(msgs.join('\n')).toMatch(/Unsupported provisioner/);
    expect(msgs.join('\n')).toMatch(/attribute lifecycle\.prevent_destroy: Invalid value/);
    expect(msgs.join('\n')).toMatch(/attribute lifecycle\.ignore_changes\[0\]: Invalid ignore_changes entry/);
    expect(msgs.join('\n')).toMatch(/attribute lifecycle\.bogus: Unsupported lifecycle argument/);
    expect(msgs.join('\n')).toMatch(/attribute depends_on\[0\]: Invalid depends_on reference/);
    expect(msgs.join('\n')).toMatch(/Invalid combination of "count" and "for_each"/);
  });

  it('requires aliased providers to be configured', () => {
    const [msg] = errorsOf(
      withResource('sched_job', 'web', { provider: 'sched.east' }, { provider: { sched: [{}] } }),
    );
    expect(msg).toBe(
      'sched_job.web (stack/web), attribute provider: Provider configuration not present: provider "sched.east" is used but not configured; add a provider block with alias "east"',
    );
  });

  it('accepts ignore_changes "all" and bare or ${} references in depends_on and replace_triggered_by', () => {
    const config = parseStackConfig({
      resource: {
        sched_namespace: { ns: { name: 'a' } },
        sched_job: {
          web: {
            depends_on: ['${sched_namespace.ns}'],
            lifecycle: { ignore_changes: 'all', replace_triggered_by: ['sched_namespace.ns.name'] },
          },
        },
      },
    });
    const web = config.resources.get('sched_job.web')!;
    expect(web.lifecycle.ignoreChanges).toBe('all');
    expect(web.dependsOn).toEqual([{ mode: 'managed', type: 'sched_namespace', name: 'ns' }]);
    expect(web.lifecycle.replaceTriggeredBy[0]).toMatchObject({ type: 'scope', name: 'sched_namespace' });
  });

  it('checks variable defaults against their type', () => {
    const [msg] = errorsOf({ variable: { n: { type: 'number', default: 'many' } } });
    expect(msg).toBe(
      'var.n, attribute default: Invalid default value for variable: cannot convert "many" to number; given string must be a decimal representation of a number (type number)',
    );
  });

  it('rejects a document that is not an object of blocks', () => {
    expect(() => parseStackConfig({ resource: 'nope' })).toThrow(ConfigError);
    expect(() => parseStackConfig([])).toThrow(ConfigError);
  });
});

describe('addresses', () => {
  it('formats and parses instance addresses', () => {
    const ref = { mode: 'managed' as const, type: 'sched_job', name: 'web' };
    expect(instanceAddress(ref, undefined)).toBe('sched_job.web');
    expect(instanceAddress(ref, 0)).toBe('sched_job.web[0]');
    expect(instanceAddress(ref, 'a "b"')).toBe('sched_job.web["a \\"b\\""]');
    expect(parseInstanceAddress('sched_job.web["a \\"b\\""]')).toEqual({ ...ref, key: 'a "b"' });
    expect(parseInstanceAddress('data.sched_job.cur[2]')).toEqual({
      mode: 'data',
      type: 'sched_job',
      name: 'cur',
      key: 2,
    });
    expect(parseInstanceAddress('sched_job')).toBeUndefined();
  });
});

describe('loading from cdktf.out', () => {
  it('lists stacks from manifest.json and loads a stack directory', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'cdktf-out-'));
    await mkdir(path.join(out, 'stacks', 'web'), { recursive: true });
    await writeFile(path.join(out, 'stacks', 'web', 'cdk.tf.json'), JSON.stringify(await fixtureJson()));
    await writeFile(
      path.join(out, 'manifest.json'),
      JSON.stringify({
        version: '0.21.0',
        stacks: {
          web: {
            name: 'web',
            constructPath: 'web',
            synthesizedStackPath: 'stacks/web/cdk.tf.json',
            workingDirectory: 'stacks/web',
            dependencies: [],
            annotations: [],
          },
        },
      }),
    );
    const stacks = await listSynthesizedStacks(out);
    expect(stacks).toEqual([
      {
        name: 'web',
        constructPath: 'web',
        file: path.join(out, 'stacks/web/cdk.tf.json'),
        workingDirectory: path.join(out, 'stacks/web'),
        dependencies: [],
      },
    ]);
    const config = await loadStackConfig(stacks[0]!.workingDirectory);
    expect(config.resources.size).toBe(5);
    await expect(listSynthesizedStacks(path.join(out, 'nope'))).rejects.toThrow(/run "cdktf synth" first/);
  });
});
