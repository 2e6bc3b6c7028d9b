import type { WatchSpec } from './types';

interface Waiter {
  spec: WatchSpec;
  settle(index: number): void;
}

/** Waiters of one table, split by what they watch so a commit only visits the waiters it may concern. */
interface TableWaiters {
  whole: Set<Waiter>;
  byKey: Map<string, Set<Waiter>>;
  byPrefix: Map<string, Set<Waiter>>;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Blocking-query waiters, indexed by table then key/prefix. Idle waiters cost a timer and a few set entries,
 * no CPU; a commit wakes only the waiters whose table/key/prefix it touched.
 */
export class WatchRegistry {
  private readonly tables = new Map<string, TableWaiters>();
  private readonly active = new Set<Waiter>();

  /** Number of pending waiters (for leak checks and metrics). */
  count(): number {
    return this.active.size;
  }

  /**
   * Resolves with `currentIndex()` when a commit touching `spec` is announced through {@link notify}, when
   * `timeoutMs` passes, or when {@link wakeAll} runs; rejects with the signal's reason on abort.
   */
  wait(
    spec: WatchSpec,
    timeoutMs: number,
    currentIndex: () => number,
    signal?: AbortSignal,
  ): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.remove(waiter);
      };
      const onAbort = (): void => {
        finish();
        reject(abortReason(signal!));
      };
      const waiter: Waiter = {
        spec,
        settle: (index) => {
          finish();
          resolve(index);
        },
      };
      const timer = setTimeout(
        () => waiter.settle(currentIndex()),
        Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.add(waiter);
    });
  }

  /** Wakes the waiters concerned by a commit. `touched` maps each written table to the keys written in it. */
  notify(touched: ReadonlyMap<string, readonly string[]>, index: number): void {
    const woken = new Set<Waiter>();
    for (const [table, keys] of touched) {
      const tw = this.tables.get(table);
      if (!tw) continue;
      for (const w of tw.whole) woken.add(w);
      if (tw.byKey.size > 0) {
        for (const key of keys) {
          const set = tw.byKey.get(key);
          if (set) for (const w of set) woken.add(w);
        }
      }
      for (const [prefix, set] of tw.byPrefix) {
        if (keys.some((k) => k.startsWith(prefix))) for (const w of set) woken.add(w);
      }
    }
    for (const w of woken) w.settle(index);
  }

  /** Releases every waiter (used on close). */
  wakeAll(index: number): void {
    for (const w of [...this.active]) w.settle(index);
  }

  private add(w: Waiter): void {
    this.active.add(w);
    for (const s of w.spec) {
      const tw = this.tableWaiters(s.table, true)!;
      if (s.key !== undefined) addTo(tw.byKey, s.key, w);
      else if (s.prefix !== undefined) addTo(tw.byPrefix, s.prefix, w);
      else tw.whole.add(w);
    }
  }

  private remove(w: Waiter): void {
    if (!this.active.delete(w)) return;
    for (const s of w.spec) {
      const tw = this.tableWaiters(s.table, false);
      if (!tw) continue;
      if (s.key !== undefined) removeFrom(tw.byKey, s.key, w);
      else if (s.prefix !== undefined) removeFrom(tw.byPrefix, s.prefix, w);
      else tw.whole.delete(w);
      if (tw.whole.size === 0 && tw.byKey.size === 0 && tw.byPrefix.size === 0) this.tables.delete(s.table);
    }
  }

  private tableWaiters(table: string, create: boolean): TableWaiters | undefined {
    let tw = this.tables.get(table);
    if (!tw && create)
      this.tables.set(table, (tw = { whole: new Set(), byKey: new Map(), byPrefix: new Map() }));
    return tw;
  }
}

function addTo(map: Map<string, Set<Waiter>>, k: string, w: Waiter): void {
  let set = map.get(k);
  if (!set) map.set(k, (set = new Set()));
  set.add(w);
}

function removeFrom(map: Map<string, Set<Waiter>>, k: string, w: Waiter): void {
  const set = map.get(k);
  if (set?.delete(w) && set.size === 0) map.delete(k);
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
