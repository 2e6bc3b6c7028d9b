import path from 'node:path';
import { loadStackConfig, parseStackConfig } from '../../../../src/engine/config';
import { buildConfigGraph, CycleError, Graph, walk } from '../../../../src/engine/graph';

const FIXTURE = path.join(__dirname, '..', 'config', 'fixtures', 'web-stack.cdk.tf.json');

describe('buildConfigGraph', () => {
  it('links references, depends_on and providers of a synthesized stack', async () => {
    const g = buildConfigGraph(await loadStackConfig(FIXTURE));
    expect(g.dependenciesOf('sched_job.web')).toEqual([
      'local.labels',
      'local.prefix',
      'provider.sched.west',
      'sched_namespace.each',
      'sched_namespace.ns',
      'var.replicas',
    ]);
    expect(g.dependenciesOf('sched_namespace.each')).toEqual(['provider.sched', 'var.namespaces']);
    expect(g.dependenciesOf('reg_namespace.mirror')).toEqual(['provider.reg', 'sched_namespace.ns']);
    expect(g.dependenciesOf('provider.sched')).toEqual(['var.sched_addr']);
    expect(g.dependenciesOf('output.namespace')).toEqual(['sched_job.web', 'sched_namespace.ns']);
    expect(g.dependenciesOf('local.labels')).toEqual(['var.owner']);
    expect(g.dependenciesOf('data.sched_job.existing')).toEqual(['provider.sched']);
    expect(g.node('sched_job.web')).toMatchObject({ kind: 'resource' });
    expect(g.node('data.sched_job.existing')).toMatchObject({ kind: 'data' });
    expect(g.node('provider.sched.west')).toMatchObject({ kind: 'provider', name: 'sched', alias: 'west' });
  });

  it('orders dependencies first', async () => {
    const g = buildConfigGraph(await loadStackConfig(FIXTURE));
    const order = g.topologicalOrder();
    expect(order).toHaveLength(g.size);
    for (const id of order) {
      for (const dep of g.dependenciesOf(id)) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(id));
    }
  });

  it('adds a node for an unconfigured default provider', () => {
    const g = buildConfigGraph(parseStackConfig({ resource: { reg_namespace: { a: { name: 'a' } } } }));
    expect(g.node('provider.reg')).toEqual({
      kind: 'provider',
      id: 'provider.reg',
      address: 'reg',
      name: 'reg',
    });
    expect(g.dependenciesOf('reg_namespace.a')).toEqual(['provider.reg']);
  });

  it('finds dependencies through count, for_each, lifecycle and nested dynamic blocks', () => {
    const g = buildConfigGraph(
      parseStackConfig({
        variable: { n: { default: 1 }, m: { default: {} } },
        resource: {
          sched_namespace: { a: {}, b: {} },
          sched_job: {
            web: {
              count: '${var.n}',
              lifecycle: { replace_triggered_by: ['${sched_namespace.a}'] },
              dynamic: {
                rule: {
                  for_each: '${var.m}',
                  iterator: 'r',
                  content: { ns: '${sched_namespace.b.name}-${r.key}' },
                },
              },
            },
          },
        },
      }),
    );
    expect(g.dependenciesOf('sched_job.web')).toEqual([
      'provider.sched',
      'sched_namespace.a',
      'sched_namespace.b',
      'var.m',
      'var.n',
    ]);
  });
});

describe('cycles', () => {
  it('reports a reference cycle with its path', () => {
    const config = parseStackConfig({
      resource: {
        sched_job: { a: { namespace: '${sched_namespace.b.name}' } },
        sched_namespace: { b: { description: '${sched_job.a.id}' } },
      },
    });
    const g = buildConfigGraph(config);
    expect(g.cycles()).toEqual([['sched_job.a', 'sched_namespace.b', 'sched_job.a']]);
    expect(() => g.assertAcyclic()).toThrow('Cycle: sched_job.a -> sched_namespace.b -> sched_job.a');
    expect(() => g.topologicalOrder()).toThrow(CycleError);
  });

  it('reports cycles through depends_on and locals, and self-references', () => {
    const config = parseStackConfig({
      locals: { x: '${sched_job.c.id}' },
      resource: {
        sched_job: { c: { depends_on: ['sched_namespace.d'] }, e: { name: '${sched_job.e.id}' } },
        sched_namespace: { d: { name: '${local.x}' } },
      },
    });
    const cycles = buildConfigGraph(config).cycles();
    expect(cycles).toEqual([
      ['local.x', 'sched_job.c', 'sched_namespace.d', 'local.x'],
      ['sched_job.e', 'sched_job.e'],
    ]);
  });

  it('makes walk reject before visiting anything', async () => {
    const g = new Graph<string>();
    g.addNode('a', 'a');
    g.addNode('b', 'b');
    g.addDependency('a', 'b');
    g.addDependency('b', 'a');
    const visit = jest.fn();
    await expect(walk(g, { visit })).rejects.toThrow('Cycle: a -> b -> a');
    expect(visit).not.toHaveBeenCalled();
  });
});

describe('Graph helpers', () => {
  const g = new Graph<number>();
  for (const id of ['a', 'b', 'c', 'd']) g.addNode(id, id.charCodeAt(0));
  g.addDependency('b', 'a');
  g.addDependency('c', 'b');
  g.addDependency('d', 'a');

  it('computes ancestors, descendants, subgraphs and the reversed graph', () => {
    expect([...g.ancestors('c')].sort()).toEqual(['a', 'b']);
    expect([...g.descendants('a')].sort()).toEqual(['b', 'c', 'd']);
    const sub = g.subgraph(['c', 'b']);
    expect(sub.ids()).toEqual(['b', 'c']);
    expect(sub.dependenciesOf('c')).toEqual(['b']);
    const r = g.reversed();
    expect(r.dependenciesOf('a')).toEqual(['b', 'd']);
    expect(r.topologicalOrder()).toEqual(['c', 'b', 'd', 'a']);
  });

  it('removes nodes with their edges', () => {
    const h = g.subgraph(g.ids());
    h.removeNode('b');
    expect(h.dependenciesOf('c')).toEqual([]);
    expect(h.dependentsOf('a')).toEqual(['d']);
  });
});
