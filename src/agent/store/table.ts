/** A stored record: the frozen value and the index that last wrote it. */
export interface Row {
  value: object;
  version: number;
}

/**
 * One table of committed state. Keys are kept in a sorted array so that list() (hot, often on large tables)
 * never sorts; the array is patched in place per insert/delete and only rebuilt after bulk loads.
 */
export class Table {
  readonly rows = new Map<string, Row>();
  /** Index of the last delete per key no longer present, so a deleted key still answers its precise index. */
  readonly tombstones = new Map<string, number>();
  /** Highest index among tombstones pruned at compaction: any forgotten delete happened at or before it. */
  prunedFloor = 0;
  /** Highest index that wrote to this table; 0 if never. */
  index = 0;
  private sorted: string[] | null = [];

  constructor(readonly name: string) {}

  get(key: string): Row | undefined {
    return this.rows.get(key);
  }

  set(key: string, value: object, version: number): void {
    const isNew = !this.rows.has(key);
    this.rows.set(key, { value, version });
    this.tombstones.delete(key);
    if (isNew && this.sorted) insertSorted(this.sorted, key);
    if (version > this.index) this.index = version;
  }

  /** Used when loading a snapshot: keys arrive in bulk, so sorting once later beats inserting one by one. */
  load(key: string, value: object, version: number): void {
    this.rows.set(key, { value, version });
    this.sorted = null;
  }

  remove(key: string, version: number): boolean {
    if (!this.rows.delete(key)) return false;
    this.tombstones.set(key, version);
    if (this.sorted) removeSorted(this.sorted, key);
    if (version > this.index) this.index = version;
    return true;
  }

  /** Keys in string order, optionally limited to a prefix. The returned array must not be mutated. */
  keys(prefix?: string): readonly string[] {
    if (!this.sorted) this.sorted = [...this.rows.keys()].sort();
    const all = this.sorted;
    if (!prefix) return all;
    const start = lowerBound(all, prefix);
    let end = start;
    while (end < all.length && all[end]!.startsWith(prefix)) end++;
    return all.slice(start, end);
  }

  /** The index of the last write that touched `key` (put or delete), as precisely as the table still knows it. */
  lastWrite(key: string): number {
    return this.rows.get(key)?.version ?? this.tombstones.get(key) ?? this.prunedFloor;
  }

  /** The index of the last write that touched any key starting with `prefix`. */
  lastWriteUnder(prefix: string): number {
    let max = this.prunedFloor;
    for (const key of this.keys(prefix)) {
      const v = this.rows.get(key)!.version;
      if (v > max) max = v;
    }
    for (const [key, v] of this.tombstones) if (v > max && key.startsWith(prefix)) max = v;
    return max;
  }

  /** Forget deletes: their keys fall back to prunedFloor, which is conservative (may wake a waiter early). */
  pruneTombstones(): void {
    for (const v of this.tombstones.values()) if (v > this.prunedFloor) this.prunedFloor = v;
    this.tombstones.clear();
  }
}

function lowerBound(arr: readonly string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(arr: string[], key: string): void {
  const at = lowerBound(arr, key);
  if (at === arr.length) arr.push(key);
  else arr.splice(at, 0, key);
}

function removeSorted(arr: string[], key: string): void {
  const at = lowerBound(arr, key);
  if (arr[at] === key) arr.splice(at, 1);
}
