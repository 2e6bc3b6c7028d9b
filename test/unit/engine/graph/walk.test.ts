import { Graph, walk } from '../../../../src/engine/graph';

/** Builds a graph from `id: deps` pairs. */
function graphOf(spec: Record<string, string[]>): Graph<string> {
  const g = new Graph<string>();
  for (const id of Object.keys(spec)) g.addNode(id, id);
  for (const [id, deps] of Object.entries(spec)) for (const d of deps) g.addDependency(id, d);
  return g;
}

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('walk', () => {
  it('never runs more than `parallelism` visits at once, and uses the room it has', async () => {
    const spec: Record<string, string[]> = {};
    for (let i = 0; i < 12; i++) spec[`n${String(i).padStart(2, '0')}`] = [];
    let running = 0;
    let peak = 0;
    const result = await walk(graphOf(spec), {
      parallelism: 3,
      visit: async () => {
        running++;
        peak = Math.max(peak, running);
        await tick(5);
        running--;
      },
    });
    expect(peak).toBe(3);
    expect(result.completed).toHaveLength(12);
    expect(result.ok).toBe(true);
  });

  it('starts a node only after all its dependencies completed', async () => {
    const g = graphOf({ app: ['db', 'net'], db: ['net'], net: [], cache: ['net'], out: ['app', 'cache'] });
    const finished = new Set<string>();
    const seenDeps: Record<string, string[]> = {};
    await walk(g, {
      parallelism: 4,
      visit: async (id) => {
        seenDeps[id] = g.dependenciesOf(id).filter((d) => finished.has(d));
        await tick(id === 'cache' ? 1 : 4);
        finished.add(id);
      },
    });
    for (const id of g.ids()) expect(seenDeps[id]).toEqual(g.dependenciesOf(id));
  });

  it('skips dependants of a failed node and lets independent nodes finish', async () => {
    const g = graphOf({ ns: [], job: ['ns'], svc: ['job'], other: [], late: ['other'] });
    const errors: string[] = [];
    const result = await walk(g, {
      parallelism: 2,
      visit: async (id) => {
        await tick(2);
        if (id === 'ns') throw new Error('namespace quota exceeded');
      },
      onError: (id, err) => errors.push(`${id}: ${(err as Error).message}`),
    });
    expect(errors).toEqual(['ns: namespace quota exceeded']);
    expect(result.failed.map((f) => f.id)).toEqual(['ns']);
    expect(result.skipped).toEqual([
      { id: 'job', reason: 'dependency-failed', failedDependency: 'ns' },
      { id: 'svc', reason: 'dependency-failed', failedDependency: 'ns' },
    ]);
    expect(result.completed.sort()).toEqual(['late', 'other']);
    expect(result.ok).toBe(false);
  });

  it('treats a synchronous throw like a rejection', async () => {
    const result = await walk(graphOf({ a: [], b: ['a'] }), {
      visit: (id) => {
        if (id === 'a') throw new Error('boom');
      },
    });
    expect(result.failed.map((f) => f.id)).toEqual(['a']);
    expect(result.skipped.map((s) => s.id)).toEqual(['b']);
  });

  it('walks dependants first in reverse (destroy order)', async () => {
    const g = graphOf({ ns: [], job: ['ns'], svc: ['job'], other: ['ns'] });
    const order: string[] = [];
    await walk(g, {
      reverse: true,
      parallelism: 1,
      visit: (id) => {
        order.push(id);
      },
    });
    expect(order.indexOf('svc')).toBeLessThan(order.indexOf('job'));
    expect(order.indexOf('job')).toBeLessThan(order.indexOf('ns'));
    expect(order.indexOf('other')).toBeLessThan(order.indexOf('ns'));
    expect(order[order.length - 1]).toBe('ns');
  });

  it('in reverse, a failed dependant keeps its dependencies from being destroyed', async () => {
    const g = graphOf({ ns: [], job: ['ns'], lone: [] });
    const result = await walk(g, {
      reverse: true,
      visit: (id) => {
        if (id === 'job') throw new Error('cannot stop job');
      },
    });
    expect(result.skipped).toEqual([{ id: 'ns', reason: 'dependency-failed', failedDependency: 'job' }]);
    expect(result.completed).toEqual(['lone']);
  });

  it('stops starting visits once aborted and reports the rest as skipped', async () => {
    const g = graphOf({ a: [], b: ['a'], c: ['b'], d: [] });
    const ctl = new AbortController();
    const visited: string[] = [];
    const result = await walk(g, {
      parallelism: 1,
      signal: ctl.signal,
      visit: async (id) => {
        visited.push(id);
        ctl.abort();
        await tick(1);
      },
    });
    expect(visited).toEqual(['a']);
    expect(result.completed).toEqual(['a']);
    expect(result.skipped.map((s) => [s.id, s.reason])).toEqual([
      ['b', 'aborted'],
      ['c', 'aborted'],
      ['d', 'aborted'],
    ]);
  });

  it('handles an empty graph', async () => {
    await expect(walk(new Graph<string>(), { visit: () => undefined })).resolves.toEqual({
      completed: [],
      failed: [],
      skipped: [],
      ok: true,
    });
  });
  it('tells of each node next in line for a slot once, before its visit, and only of ready ones', async () => {
    const spec: Record<string, string[]> = { zz: ['n0'] };
    for (let i = 0; i < 6; i++) spec[`n${i}`] = [];
    const told: string[] = [];
    const visited: string[] = [];
    const result = await walk(graphOf(spec), {
      parallelism: 2,
      visit: async (id) => {
        visited.push(id);
        await tick(2);
      },
      upcoming: (id) => {
        // Never something already visited, nor a node whose dependency has not completed.
        expect(visited).not.toContain(id);
        if (id === 'zz') expect(visited).toContain('n0');
        told.push(id);
      },
    });
    expect(result.ok).toBe(true);
    // n0 and n1 started at once; the rest waited for a slot, each told once.
    expect([...told].sort()).toEqual(['n2', 'n3', 'n4', 'n5', 'zz']);
    expect(new Set(told).size).toBe(told.length);
    // At most `parallelism` were told ahead of the visits: n2 and n3 first, not the whole queue.
    expect(told.slice(0, 2).sort()).toEqual(['n2', 'n3']);
  });

  it('tells of nothing more once aborted', async () => {
    const spec: Record<string, string[]> = {};
    for (let i = 0; i < 6; i++) spec[`n${i}`] = [];
    const ac = new AbortController();
    const told: string[] = [];
    await walk(graphOf(spec), {
      parallelism: 1,
      signal: ac.signal,
      visit: async () => {
        ac.abort();
        await tick(1);
      },
      upcoming: (id) => told.push(id),
    });
    // n1 was next in line when n0 started; after the abort no other node is announced.
    expect(told).toEqual(['n1']);
  });
  it('a visit that releases its slot lets the next start; its dependants and the end still wait for it', async () => {
    const g = graphOf({ a: [], b: [], after: ['a'] });
    const events: string[] = [];
    let endA!: () => void;
    const aEnds = new Promise<void>((r) => (endA = r));
    const walking = walk(g, {
      parallelism: 1,
      visit: async (id, _id, release) => {
        events.push(`start ${id}`);
        if (id === 'a') {
          release();
          release(); // a second call changes nothing
          await aEnds;
        }
        events.push(`end ${id}`);
      },
    });
    await tick(5);
    // b took a's slot while a still runs; `after` waits for a itself.
    expect(events).toEqual(['start a', 'start b', 'end b']);
    endA();
    const result = await walking;
    expect(events).toEqual(['start a', 'start b', 'end b', 'end a', 'start after', 'end after']);
    expect(result.ok).toBe(true);
  });
});
