import { storedCopy, storedCopyWithIndexes, type StoredCopy } from './stored-copy';
import type { Table } from './table';
import type { Indexed } from './types';

/** A write transaction: reads see its own writes; nothing is visible to others until it commits. */
export interface Txn {
  /** The index this transaction will commit at. */
  readonly index: number;
  get<T>(table: string, key: string): T | undefined;
  list<T>(table: string, opts?: { prefix?: string }): T[];
  /**
   * Stores a copy of a plain object with CreateIndex (kept from the previous version, else tx.index) and
   * ModifyIndex = tx.index, and returns that (frozen) copy.
   */
  put<T extends object>(table: string, key: string, value: T): T & Required<Indexed>;
  /** Stores a copy with no index fields touched, for records whose index fields mean something else. */
  putRaw<T extends object>(table: string, key: string, value: T): void;
  /** Returns whether the key existed (as seen by this transaction). */
  delete(table: string, key: string): boolean;
  /** Whether this transaction has written (put or deleted) anything in `table` so far. */
  wrote(table: string): boolean;
}

/** A pending write: a copy to store, or null for a delete. */
export type Pending = StoredCopy | null;

/** The transaction's view: committed tables plus an overlay of its own writes, applied only on commit. */
export class TxnImpl implements Txn {
  readonly overlay = new Map<string, Map<string, Pending>>();
  private open = true;

  constructor(
    readonly index: number,
    private readonly tableOf: (name: string) => Table | undefined,
  ) {}

  close(): void {
    this.open = false;
  }

  get<T>(table: string, key: string): T | undefined {
    this.check();
    return this.lookup(table, key) as T | undefined;
  }

  list<T>(table: string, opts?: { prefix?: string }): T[] {
    this.check();
    const prefix = opts?.prefix ?? '';
    const base = this.tableOf(table);
    const pending = this.overlay.get(table);
    const baseKeys = base ? base.keys(prefix) : [];
    if (!pending || pending.size === 0) return baseKeys.map((k) => base!.get(k)!.value as T);
    // Merge the committed keys with the overlay's keys so the result stays in key order.
    const ownKeys = [...pending.keys()].filter((k) => k.startsWith(prefix)).sort();
    const out: T[] = [];
    let i = 0;
    let j = 0;
    while (i < baseKeys.length || j < ownKeys.length) {
      const b = baseKeys[i];
      const o = ownKeys[j];
      let key: string;
      if (o === undefined || (b !== undefined && b < o)) {
        key = b!;
        i++;
      } else {
        key = o;
        j++;
        if (b === o) i++;
      }
      const value = this.lookup(table, key);
      if (value !== undefined) out.push(value as T);
    }
    return out;
  }

  put<T extends object>(table: string, key: string, value: T): T & Required<Indexed> {
    this.check();
    if (Array.isArray(value))
      throw new TypeError(`store: put(${table}/${key}) needs a plain object, not an array`);
    const prev = this.lookup(table, key) as Indexed | undefined;
    const createIndex = typeof prev?.CreateIndex === 'number' ? prev.CreateIndex : this.index;
    const copy = storedCopyWithIndexes(table, key, value, createIndex, this.index);
    this.pendingFor(table, key).set(key, copy);
    return copy.value as T & Required<Indexed>;
  }

  putRaw<T extends object>(table: string, key: string, value: T): void {
    this.check();
    this.pendingFor(table, key).set(key, storedCopy(table, key, value));
  }

  delete(table: string, key: string): boolean {
    this.check();
    const existed = this.lookup(table, key) !== undefined;
    if (existed) this.pendingFor(table, key).set(key, null);
    return existed;
  }

  wrote(table: string): boolean {
    return (this.overlay.get(table)?.size ?? 0) > 0;
  }

  private lookup(table: string, key: string): object | undefined {
    const pending = this.overlay.get(table)?.get(key);
    if (pending !== undefined) return pending === null ? undefined : pending.value;
    return this.tableOf(table)?.get(key)?.value;
  }

  private pendingFor(table: string, key: string): Map<string, Pending> {
    if (typeof table !== 'string' || table === '')
      throw new TypeError('store: table name must be a non-empty string');
    if (typeof key !== 'string') throw new TypeError(`store: key in ${table} must be a string`);
    let m = this.overlay.get(table);
    if (!m) this.overlay.set(table, (m = new Map()));
    return m;
  }

  private check(): void {
    // A transaction captured by an async callback must not write after commit: it would bypass the index.
    if (!this.open)
      throw new Error('store: transaction already finished (write() callbacks must be synchronous)');
  }
}
