/**
 * Terraform refreshes with one ReadResource per resource, up to its parallelism at once. Reads of one
 * type that arrive together (within BATCH_WINDOW_MS of the first) are handed to the handler's
 * `refreshMany` as one batch, as the engine's plan does once per type (src/engine/plan/batch-refresh.ts):
 * one listing tells which objects are unchanged, and only the rest are read on their own.
 *
 * Nothing is cached across time: a batch's listing is made after its last read arrived and serves only
 * the reads waiting for it, so each object is read no earlier than its own ReadResource call, as a read
 * of its own would be. A write in the same process can therefore never be hidden by it.
 */
import type { ResourceHandler, State } from '../provider/resource';

/** How long the first read of a batch waits for others (Terraform sends its parallel reads together). */
const BATCH_WINDOW_MS = 3;

interface Waiting {
  state: State;
  resolve: (s: State | undefined) => void;
}

export class ReadBatcher {
  private readonly open = new Map<ResourceHandler, Waiting[]>();

  /** The refreshed state (null: gone), through a batch when the handler can refresh many. */
  async read(handler: ResourceHandler, state: State): Promise<State | null> {
    if (!handler.refreshMany) return handler.read(state);
    const batched = await this.join(handler, state);
    return batched !== undefined ? batched : handler.read(state);
  }

  private join(handler: ResourceHandler, state: State): Promise<State | undefined> {
    return new Promise((resolve) => {
      let batch = this.open.get(handler);
      if (!batch) {
        this.open.set(handler, (batch = []));
        setTimeout(() => void this.run(handler), BATCH_WINDOW_MS);
      }
      batch.push({ state, resolve });
    });
  }

  private async run(handler: ResourceHandler): Promise<void> {
    const batch = this.open.get(handler) ?? [];
    this.open.delete(handler);
    // A batch that fails leaves every read to itself, which reports the error in its place.
    const refreshed = await handler.refreshMany!(batch.map((w) => w.state)).catch(() => []);
    batch.forEach((w, i) => w.resolve(refreshed[i]));
  }
}
