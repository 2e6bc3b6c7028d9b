/**
 * A small directed dependency graph keyed by string ids. An edge `from -> to` means "from depends on
 * to" (to is visited first when applying, last when destroying). Iteration orders are sorted by id so
 * plans, errors and walks are deterministic.
 */
import { ConfigError, diagnostic } from '../config/errors';

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class CycleError extends ConfigError {
  constructor(readonly cycles: string[][]) {
    super(cycles.map((c) => diagnostic({ address: c[0]! }, `Cycle: ${c.join(' -> ')}`)));
    this.name = 'CycleError';
    // The address prefix would repeat the first node; the cycle path says it all.
    this.message = cycles.map((c) => `Cycle: ${c.join(' -> ')}`).join('\n');
  }
}

export class Graph<N> {
  private readonly nodeMap = new Map<string, N>();
  private readonly deps = new Map<string, Set<string>>();
  private readonly rdeps = new Map<string, Set<string>>();

  get size(): number {
    return this.nodeMap.size;
  }

  /** Adds a node; adding an id twice replaces the node and keeps its edges. */
  addNode(id: string, node: N): void {
    this.nodeMap.set(id, node);
    if (!this.deps.has(id)) this.deps.set(id, new Set());
    if (!this.rdeps.has(id)) this.rdeps.set(id, new Set());
  }

  hasNode(id: string): boolean {
    return this.nodeMap.has(id);
  }

  node(id: string): N {
    if (!this.nodeMap.has(id)) throw new Error(`graph has no node "${id}"`);
    return this.nodeMap.get(id) as N;
  }

  /** Node ids in sorted order. */
  ids(): string[] {
    return [...this.nodeMap.keys()].sort(byId);
  }

  /** Records that `from` depends on `to`. Both must exist; a self-dependency is kept (and is a cycle). */
  addDependency(from: string, to: string): void {
    if (!this.nodeMap.has(from)) throw new Error(`graph has no node "${from}"`);
    if (!this.nodeMap.has(to)) throw new Error(`graph has no node "${to}"`);
    this.deps.get(from)!.add(to);
    this.rdeps.get(to)!.add(from);
  }

  removeNode(id: string): void {
    for (const d of this.deps.get(id) ?? []) this.rdeps.get(d)?.delete(id);
    for (const d of this.rdeps.get(id) ?? []) this.deps.get(d)?.delete(id);
    this.deps.delete(id);
    this.rdeps.delete(id);
    this.nodeMap.delete(id);
  }

  /** Direct dependencies of a node, sorted. */
  dependenciesOf(id: string): string[] {
    return [...(this.deps.get(id) ?? [])].sort(byId);
  }

  /** Direct dependants of a node (nodes that depend on it), sorted. */
  dependentsOf(id: string): string[] {
    return [...(this.rdeps.get(id) ?? [])].sort(byId);
  }

  /** Everything a node depends on, directly or not. */
  ancestors(id: string): Set<string> {
    return this.closure(id, this.deps);
  }

  /** Everything that depends on a node, directly or not. */
  descendants(id: string): Set<string> {
    return this.closure(id, this.rdeps);
  }

  private closure(id: string, edges: Map<string, Set<string>>): Set<string> {
    const seen = new Set<string>();
    const stack = [...(edges.get(id) ?? [])];
    while (stack.length) {
      const cur = stack.pop()!;
      if (seen.has(cur)) continue;
      seen.add(cur);
      stack.push(...(edges.get(cur) ?? []));
    }
    return seen;
  }

  /** The same nodes with every edge reversed (the destroy order of an apply graph). */
  reversed(): Graph<N> {
    const g = new Graph<N>();
    for (const [id, n] of this.nodeMap) g.addNode(id, n);
    for (const [from, tos] of this.deps) for (const to of tos) g.addDependency(to, from);
    return g;
  }

  /** The subgraph induced by some nodes (e.g. targets plus their ancestors). */
  subgraph(ids: Iterable<string>): Graph<N> {
    const keep = new Set([...ids].filter((id) => this.nodeMap.has(id)));
    const g = new Graph<N>();
    for (const id of keep) g.addNode(id, this.nodeMap.get(id) as N);
    for (const id of keep)
      for (const to of this.deps.get(id) ?? []) if (keep.has(to)) g.addDependency(id, to);
    return g;
  }

  /**
   * Every cycle, one per strongly connected component, as a path that starts and ends at the
   * component's smallest id following dependency edges: ["a", "b", "a"] means a depends on b
   * which depends on a.
   */
  cycles(): string[][] {
    const out: string[][] = [];
    for (const scc of this.stronglyConnected()) {
      const first = scc[0]!;
      if (scc.length === 1 && !this.deps.get(first)!.has(first)) continue;
      out.push(this.cyclePath(first, new Set(scc)));
    }
    return out.sort((a, b) => byId(a[0]!, b[0]!));
  }

  /** Shortest dependency path from `start` back to itself inside its component (BFS). */
  private cyclePath(start: string, within: Set<string>): string[] {
    const prev = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const cur = queue.shift()!;
      for (const next of [...this.deps.get(cur)!].sort(byId)) {
        if (!within.has(next)) continue;
        if (next === start) {
          const path = [cur];
          while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
          return [...path, start];
        }
        if (!prev.has(next)) {
          prev.set(next, cur);
          queue.push(next);
        }
      }
    }
    return [start, start];
  }

  /** Tarjan's algorithm, iterative; each component's ids sorted. */
  private stronglyConnected(): string[][] {
    let index = 0;
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const result: string[][] = [];
    for (const root of this.ids()) {
      if (idx.has(root)) continue;
      const work: { id: string; it: Iterator<string> }[] = [];
      const enter = (id: string): void => {
        idx.set(id, index);
        low.set(id, index);
        index++;
        stack.push(id);
        onStack.add(id);
        work.push({ id, it: [...this.deps.get(id)!].sort(byId)[Symbol.iterator]() });
      };
      enter(root);
      while (work.length) {
        const top = work[work.length - 1]!;
        const n = top.it.next();
        if (!n.done) {
          const w = n.value;
          if (!idx.has(w)) enter(w);
          else if (onStack.has(w)) low.set(top.id, Math.min(low.get(top.id)!, idx.get(w)!));
          continue;
        }
        work.pop();
        const parent = work[work.length - 1];
        if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(top.id)!));
        if (low.get(top.id) === idx.get(top.id)) {
          const comp: string[] = [];
          for (;;) {
            const w = stack.pop()!;
            onStack.delete(w);
            comp.push(w);
            if (w === top.id) break;
          }
          result.push(comp.sort(byId));
        }
      }
    }
    return result;
  }

  /** Throws CycleError when the graph has a cycle. */
  assertAcyclic(): void {
    const cycles = this.cycles();
    if (cycles.length) throw new CycleError(cycles);
  }

  /** Dependencies before dependants; ties broken by id. Throws CycleError on cycles. */
  topologicalOrder(): string[] {
    this.assertAcyclic();
    const remaining = new Map([...this.deps].map(([id, d]) => [id, d.size]));
    const ready = this.ids().filter((id) => remaining.get(id) === 0);
    const order: string[] = [];
    while (ready.length) {
      const id = ready.shift()!;
      order.push(id);
      for (const d of this.rdeps.get(id)!) {
        const left = remaining.get(d)! - 1;
        remaining.set(d, left);
        if (left === 0) insertSorted(ready, d);
      }
    }
    return order;
  }
}

export function insertSorted(list: string[], id: string): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, id);
}
