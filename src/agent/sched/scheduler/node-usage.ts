/**
 * What the live allocations hold on each node, kept up to date from commits. Placement needs it for
 * every evaluation and every plan; deriving it from a scan of all allocations made each evaluation
 * cost as much as the cluster is large.
 */
import type { Store } from '../../store';
import type { AllocRecord } from '../model';
import { isTerminalAlloc } from '../state';
import type { Ask } from './resources';
import { T, childKey } from '../tables';

/** What the node's live allocations hold, and by whom. */
export interface NodeUse extends Ask {
  /**
   * How many live allocations each `<ns>/<job>/<group>` has on the node, for anti-affinity, spreads
   * and distinct_hosts. Counts, not a list of owners: placement asks how many an owner has, and an
   * allocation that stops must be found and uncounted without a walk over every one on its node.
   */
  owners: Map<string, number>;
}

interface Held extends Ask {
  node: string;
  owner: string;
}

export function ownerOf(a: Pick<AllocRecord, 'Namespace' | 'JobID' | 'TaskGroup'>): string {
  return `${a.Namespace}/${a.JobID}/${a.TaskGroup}`;
}

/** What an allocation holds, in the terms of an ask. */
export function heldBy(a: Pick<AllocRecord, 'Resources'>): Ask {
  return { cpu: a.Resources.CPU, memoryMB: a.Resources.MemoryMB, diskMB: a.Resources.DiskMB };
}

/** Adds `amount` to what `u` holds (sign 1), or takes it off (-1). */
export function shift(u: Ask, amount: Ask, sign: 1 | -1): void {
  u.cpu += sign * amount.cpu;
  u.memoryMB += sign * amount.memoryMB;
  u.diskMB += sign * amount.diskMB;
}

/** Counts `amount` and its owner on the node. */
export function take(u: NodeUse, amount: Ask, owner: string): void {
  shift(u, amount, 1);
  u.owners.set(owner, (u.owners.get(owner) ?? 0) + 1);
}

/** Undoes a take of `amount` by `owner`. */
export function give(u: NodeUse, amount: Ask, owner: string): void {
  shift(u, amount, -1);
  const n = u.owners.get(owner);
  if (n === undefined) return;
  if (n > 1) u.owners.set(owner, n - 1);
  else u.owners.delete(owner);
}

/** Nothing held. */
export function emptyUse(): NodeUse {
  return { cpu: 0, memoryMB: 0, diskMB: 0, owners: new Map() };
}

/** How many live allocations on the node belong to owners starting with `prefix` (a job's groups). */
export function ownedUnder(u: NodeUse, prefix: string): number {
  let n = 0;
  for (const [owner, count] of u.owners) if (owner.startsWith(prefix)) n += count;
  return n;
}

/** The usage of `nodeIds` by `liveAllocs`, from scratch. */
export function usageOf(nodeIds: Iterable<string>, liveAllocs: Iterable<AllocRecord>): Map<string, NodeUse> {
  const use = new Map<string, NodeUse>();
  for (const id of nodeIds) use.set(id, emptyUse());
  for (const a of liveAllocs) {
    const u = use.get(a.NodeID);
    if (u) take(u, heldBy(a), ownerOf(a));
  }
  return use;
}

export class NodeUsageIndex {
  private readonly held = new Map<string, Held>();
  private readonly use = new Map<string, NodeUse>();
  /** Index of the last commit applied; a commit still waiting for delivery makes the index stale. */
  private applied: number;
  /**
   * Allocations whose resources are not whole numbers. Sums of those depend on the order they are
   * added in, and the scan adds in key order: while any is live, answers come from the scan.
   */
  private fractional = 0;

  constructor(private readonly store: Store) {
    for (const a of store.list<AllocRecord>(T.allocs)) this.put(childKey(a.Namespace, a.JobID, a.ID), a);
    this.applied = store.index;
    store.onCommit((c) => {
      for (const ch of c.changes) {
        if (ch.table !== T.allocs) continue;
        this.drop(ch.key);
        if (ch.op === 'put') this.put(ch.key, ch.value as AllocRecord);
      }
      this.applied = c.index;
    });
  }

  /** The usage per node as of the store's last commit, or undefined when it cannot be trusted to be exact. */
  current(): ReadonlyMap<string, NodeUse> | undefined {
    return this.applied === this.store.index && this.fractional === 0 ? this.use : undefined;
  }

  private put(key: string, a: AllocRecord): void {
    if (isTerminalAlloc(a)) return;
    const h: Held = { ...heldBy(a), node: a.NodeID, owner: ownerOf(a) };
    this.held.set(key, h);
    if (!isWhole(h)) this.fractional++;
    let u = this.use.get(h.node);
    if (!u) this.use.set(h.node, (u = emptyUse()));
    take(u, h, h.owner);
  }

  private drop(key: string): void {
    const h = this.held.get(key);
    if (!h) return;
    this.held.delete(key);
    if (!isWhole(h)) this.fractional--;
    give(this.use.get(h.node)!, h, h.owner);
  }
}

function isWhole(h: Held): boolean {
  return Number.isSafeInteger(h.cpu) && Number.isSafeInteger(h.memoryMB) && Number.isSafeInteger(h.diskMB);
}
