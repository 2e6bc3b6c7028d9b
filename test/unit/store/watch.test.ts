import { getEventListeners } from 'node:events';
import { Store } from '../../../src/agent/store';

/** Settles to 'pending' if the promise has not resolved after a few event-loop turns. */
async function state<T>(p: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 20))]);
}

describe('Store.waitFor (blocking queries)', () => {
  let store: Store;
  beforeEach(() => {
    store = Store.open();
    store.write((tx) => {
      tx.put('jobs', 'default/web', { ID: 'web' });
      tx.put('jobs', 'default/api', { ID: 'api' });
      tx.put('jobs', 'prod/web', { ID: 'web' });
    }); // index 2
  });
  afterEach(() => {
    store.close();
  });

  it('returns at once when the watched data already changed after minIndex', async () => {
    await expect(store.waitFor([{ table: 'jobs' }], 1, 60_000)).resolves.toBe(2);
    await expect(store.waitFor([{ table: 'jobs', key: 'default/web' }], 1, 60_000)).resolves.toBe(2);
    await expect(store.waitFor([{ table: 'jobs', prefix: 'prod/' }], 1, 60_000)).resolves.toBe(2);
    // index 0 means "do not block", as for Nomad clients
    await expect(store.waitFor([{ table: 'nothing', key: 'x' }], 0, 60_000)).resolves.toBe(2);
    expect(store.watcherCount()).toBe(0);
  });

  it('wakes a waiter within a few milliseconds of the write', async () => {
    const p = store.waitFor([{ table: 'jobs', key: 'default/web' }], 2, 60_000);
    expect(store.watcherCount()).toBe(1);
    await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    store.write((tx) => tx.put('jobs', 'default/web', { ID: 'web', Version: 1 }));
    const index = await p;
    const latency = performance.now() - t0;
    expect(index).toBe(3);
    expect(latency).toBeLessThan(20);
    expect(store.watcherCount()).toBe(0);
  });

  it('wakes key watchers only for their key', async () => {
    const web = store.waitFor([{ table: 'jobs', key: 'default/web' }], 2, 60_000);
    const api = store.waitFor([{ table: 'jobs', key: 'default/api' }], 2, 60_000);
    store.write((tx) => tx.put('jobs', 'default/api', { ID: 'api', Version: 1 })); // 3
    store.write((tx) => tx.put('allocs', 'default/web', { ID: 'a' })); // 4: same key, other table
    expect(await state(api)).toBe(3);
    expect(await state(web)).toBe('pending');
    // A key watcher passing the index it got earlier does not return early either.
    const again = store.waitFor([{ table: 'jobs', key: 'default/web' }], 4, 60_000);
    expect(await state(again)).toBe('pending');
    store.write((tx) => tx.delete('jobs', 'default/web')); // 5: a delete is a write to the key
    expect(await state(web)).toBe(5);
    expect(await state(again)).toBe(5);
    // The deleted key keeps its precise index, so waiting past it blocks.
    expect(store.keyIndex('jobs', 'default/web')).toBe(5);
    expect(await state(store.waitFor([{ table: 'jobs', key: 'default/web' }], 5, 60_000))).toBe('pending');
  });

  it('wakes prefix watchers only for keys under the prefix', async () => {
    const prod = store.waitFor([{ table: 'jobs', prefix: 'prod/' }], 2, 60_000);
    store.write((tx) => tx.put('jobs', 'default/new', { ID: 'new' })); // 3
    expect(await state(prod)).toBe('pending');
    // Its own index for the prefix is still 2, so a fresh wait from 3 blocks too.
    const fresh = store.waitFor([{ table: 'jobs', prefix: 'prod/' }], 3, 60_000);
    store.write((tx) => tx.put('jobs', 'prod/db', { ID: 'db' })); // 4
    expect(await state(prod)).toBe(4);
    expect(await state(fresh)).toBe(4);
  });

  it('wakes table watchers for any key in the table, not for other tables', async () => {
    const jobs = store.waitFor([{ table: 'jobs' }], 2, 60_000);
    store.write((tx) => tx.put('evals', 'e1', { ID: 'e1' }));
    expect(await state(jobs)).toBe('pending');
    store.write((tx) => tx.delete('jobs', 'prod/web'));
    expect(await state(jobs)).toBe(4);
  });

  it('wakes on any of several watched items', async () => {
    const p = store.waitFor(
      [
        { table: 'jobs', key: 'default/web' },
        { table: 'allocs', prefix: 'web-' },
      ],
      2,
      60_000,
    );
    store.write((tx) => tx.put('allocs', 'api-1', { ID: 'api-1' }));
    expect(await state(p)).toBe('pending');
    store.write((tx) => tx.put('allocs', 'web-1', { ID: 'web-1' }));
    expect(await state(p)).toBe(4);
    expect(store.watcherCount()).toBe(0);
  });

  it('does not wake on a write that changed nothing', async () => {
    const p = store.waitFor([{ table: 'jobs' }], 2, 60_000);
    store.write((tx) => tx.delete('jobs', 'absent'));
    expect(await state(p)).toBe('pending');
  });

  it('resolves with the current index on timeout', async () => {
    store.write((tx) => tx.put('other', 'x', { ID: 'x' })); // 3
    const t0 = performance.now();
    const index = await store.waitFor([{ table: 'jobs' }], 2, 50);
    expect(index).toBe(3);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    expect(store.watcherCount()).toBe(0);
  });

  it('rejects on abort and cleans up', async () => {
    const ac = new AbortController();
    const p = store.waitFor([{ table: 'jobs' }], 2, 60_000, ac.signal);
    expect(store.watcherCount()).toBe(1);
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(store.watcherCount()).toBe(0);
    // A waiter woken by a write lets go of its signal too.
    const other = new AbortController();
    const woken = store.waitFor([{ table: 'jobs' }], 2, 60_000, other.signal);
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(1);
    store.write((tx) => tx.put('jobs', 'x', { ID: 'x' }));
    await expect(woken).resolves.toBe(3);
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
    await expect(store.waitFor([{ table: 'jobs' }], 2, 60_000, ac.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(store.watcherCount()).toBe(0);
  });

  it('leaks no listeners after 10,000 waits time out or are woken', async () => {
    const ac = new AbortController();
    const waits: Promise<number>[] = [];
    for (let n = 0; n < 10_000; n++) {
      const spec =
        n % 3 === 0
          ? [{ table: 'jobs', key: `default/k${n}` }]
          : n % 3 === 1
            ? [{ table: 'jobs', prefix: `p${n % 10}/` }]
            : [{ table: `t${n % 7}` }];
      waits.push(store.waitFor(spec, 2, 30 + (n % 20), n % 1000 === 0 ? ac.signal : undefined));
    }
    expect(store.watcherCount()).toBe(10_000);
    // A write in between wakes only its own watchers and leaves the rest registered.
    store.write((tx) => tx.put('jobs', 'default/k0', { ID: 'k0' }));
    await Promise.resolve();
    expect(store.watcherCount()).toBe(9_999);
    const settled = await Promise.all(waits);
    expect(settled[0]).toBe(3);
    expect(settled.filter((i) => i === 3)).toHaveLength(10_000);
    expect(store.watcherCount()).toBe(0);
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
    // Aborting after the fact is harmless.
    ac.abort();
    expect(store.watcherCount()).toBe(0);
  });

  it('releases all waiters when the store closes', async () => {
    const p = store.waitFor([{ table: 'jobs' }], 2, 60_000);
    store.close();
    await expect(p).resolves.toBe(2);
    expect(store.watcherCount()).toBe(0);
    await expect(store.waitFor([{ table: 'jobs' }], 99, 60_000)).resolves.toBe(2);
  });
});
