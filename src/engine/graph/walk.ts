/**
 * Concurrent dependency-ordered traversal, as Terraform walks its graph: a node starts once everything
 * it depends on has completed, at most `parallelism` visits run at once, a failed node skips its
 * dependants (transitively) while independent nodes carry on, and `reverse` walks dependants first
 * (destroy order).
 */
import { Graph, insertSorted } from './graph';

export interface WalkOptions<N> {
  /** Most visits running at once (default 10, Terraform's default). */
  parallelism?: number;
  /** Visit dependants before their dependencies (destroy order). */
  reverse?: boolean;
  /** Once aborted no new visit starts; running visits finish, the rest are skipped as 'aborted'. */
  signal?: AbortSignal;
  /**
   * `release` hands the visit's slot to the next node before the visit ends (what is left of it,
   * such as reading back what it changed, no longer counts against `parallelism`); dependants still
   * wait for the visit to end.
   */
  visit(node: N, id: string, release: () => void): Promise<void> | void;
  /**
   * Told once of each node that is next in line (among the first `parallelism` of those ready and
   * waiting for a slot), so a visit can prepare what does not depend on the visits running now.
   */
  upcoming?(node: N, id: string): void;
  /** Called when a visit throws or rejects. */
  onError?(node: N, error: unknown, id: string): void;
  /** Called for each node that will not be visited. */
  onSkip?(node: N, skip: SkippedNode, id: string): void;
}

export interface SkippedNode {
  id: string;
  reason: 'dependency-failed' | 'aborted';
  /** For 'dependency-failed': the failed node that caused the skip (the root cause, not the nearest skip). */
  failedDependency?: string;
}

export interface WalkResult {
  /** Ids in the order their visits completed. */
  completed: string[];
  failed: { id: string; error: unknown }[];
  skipped: SkippedNode[];
  /** True when every node completed. */
  ok: boolean;
}

/**
 * Walks the graph. Resolves when every node has completed, failed or been skipped; rejects only
 * with CycleError (before visiting anything) when the graph has a cycle.
 */
export async function walk<N>(graph: Graph<N>, opts: WalkOptions<N>): Promise<WalkResult> {
  graph.assertAcyclic();
  const parallelism = Math.max(1, Math.floor(opts.parallelism ?? 10));
  const before = (id: string): string[] => (opts.reverse ? graph.dependentsOf(id) : graph.dependenciesOf(id));
  const after = (id: string): string[] => (opts.reverse ? graph.dependenciesOf(id) : graph.dependentsOf(id));

  const result: WalkResult = { completed: [], failed: [], skipped: [], ok: true };
  const waiting = new Map<string, number>();
  const blockedBy = new Map<string, string>();
  const ready: string[] = [];
  for (const id of graph.ids()) {
    const n = before(id).length;
    waiting.set(id, n);
    if (n === 0) ready.push(id);
  }
  const done = new Set<string>();
  const announced = new Set<string>();
  /** Visits holding a slot, and visits not ended (released ones included). */
  let running = 0;
  let open = 0;

  return new Promise<WalkResult>((resolve) => {
    const settle = (id: string, cause: string | undefined): void => {
      done.add(id);
      for (const d of after(id)) {
        if (cause !== undefined && !blockedBy.has(d)) blockedBy.set(d, cause);
        const left = waiting.get(d)! - 1;
        waiting.set(d, left);
        if (left > 0) continue;
        const blocker = blockedBy.get(d);
        if (blocker !== undefined) {
          skip(d, { id: d, reason: 'dependency-failed', failedDependency: blocker });
          settle(d, blocker);
        } else insertSorted(ready, d);
      }
    };

    const skip = (id: string, s: SkippedNode): void => {
      result.skipped.push(s);
      try {
        opts.onSkip?.(graph.node(id), s, id);
      } catch {
        // A reporting callback must not break the walk.
      }
    };

    const finishIfIdle = (): void => {
      if (open > 0) return;
      if (ready.length > 0 && !opts.signal?.aborted) return;
      for (const id of graph.ids()) {
        if (!done.has(id)) {
          done.add(id);
          skip(id, { id, reason: 'aborted' });
        }
      }
      result.ok = result.failed.length === 0 && result.skipped.length === 0;
      resolve(result);
    };

    const pump = (): void => {
      while (running < parallelism && ready.length > 0 && !opts.signal?.aborted) {
        const id = ready.shift()!;
        running++;
        open++;
        let holding = true;
        /** Gives the slot back once; false when it was given back already. */
        const free = (): boolean => {
          if (!holding) return false;
          holding = false;
          running--;
          return true;
        };
        const release = (): void => {
          if (free()) pump();
        };
        const node = graph.node(id);
        Promise.resolve()
          .then(() => opts.visit(node, id, release))
          .then(
            () => {
              result.completed.push(id);
              return undefined;
            },
            (error: unknown) => {
              result.failed.push({ id, error });
              try {
                opts.onError?.(node, error, id);
              } catch {
                // A reporting callback must not break the walk.
              }
              return id;
            },
          )
          .then((failedId) => {
            open--;
            free();
            settle(id, failedId);
            pump();
          });
      }
      announce();
      finishIfIdle();
    };

    const announce = (): void => {
      if (!opts.upcoming || opts.signal?.aborted) return;
      for (let i = 0; i < Math.min(parallelism, ready.length); i++) {
        const id = ready[i]!;
        if (announced.has(id)) continue;
        announced.add(id);
        try {
          opts.upcoming(graph.node(id), id);
        } catch {
          // Preparing ahead is an optimization: the visit does the work itself if it must.
        }
      }
    };

    pump();
  });
}
