/** Options for {@link Store.open}. */
export interface StoreOptions {
  /** Directory for the durable log and snapshots. Without it the store lives in memory only. */
  dataDir?: string;
  /** Log entries between snapshots (default 1000). Also how often deleted-key tombstones are pruned. */
  compactEvery?: number;
  /**
   * Called when something fails after a commit is already durable (an onCommit listener threw, a snapshot
   * could not be written). The commit stands, so write() cannot report it. Default: console.error.
   */
  onError?: (err: unknown) => void;
}

/** Index fields that {@link Txn.put} maintains on stored records. */
export interface Indexed {
  CreateIndex?: number;
  ModifyIndex?: number;
}

/**
 * What a blocking query watches. An entry with neither key nor prefix watches the whole table; a query wakes
 * when ANY entry matches a committed change.
 */
export type WatchSpec = { table: string; key?: string; prefix?: string }[];

export interface Change {
  table: string;
  key: string;
  op: 'put' | 'delete';
  /** For a put, the stored value; for a delete, the value that was removed. */
  value?: unknown;
}

/** One committed transaction, as delivered to {@link Store.onCommit} listeners (in index order). */
export interface Commit {
  index: number;
  changes: readonly Change[];
}
