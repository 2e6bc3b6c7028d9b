/**
 * Refresh in batches: before the first instance of a resource type is refreshed, every instance of
 * that type and provider configuration the plan covers is handed to the handler's `refreshMany` at
 * once (one list request instead of a read per object). What the batch cannot tell is read per
 * instance as before. One batch per provider configuration and type per plan.
 */
import type { ResourceHandler, State } from '../../provider/resource';
import type { InstanceObject, StateFile } from '../state';

export interface BatchRefreshInput {
  readonly state: StateFile;
  /** Resource and instance addresses the plan is limited to (--target), or undefined for all. */
  readonly targetSet: Set<string> | undefined;
}

export interface BatchKey {
  /** Provider configuration address: `sched` or `sched.west`. */
  providerAddr: string;
  type: string;
  handler: ResourceHandler;
  schemaVersion: number;
  /** Provider configuration address of a state resource's `provider` string. */
  providerAddrOfState: (provider: string, type: string) => string;
}

/** What the batch told of one instance. */
export interface Batched {
  /** As the handler's refreshMany answered it. */
  refreshed: State;
  /** The prior it was refreshed from: a copy of `source`'s attributes, upgraded to the schema. */
  prior: State;
  /** The state's own object the prior was copied from (a plan after moved blocks has other ones). */
  source: Readonly<InstanceObject>;
}

type Batch = Map<string, Batched>;

export class BatchRefresh {
  private readonly batches = new Map<string, Promise<Batch>>();

  constructor(private readonly input: BatchRefreshInput) {}

  /**
   * The instance's refreshed object when its type's batch could tell it; undefined: read it on its own.
   * Taken once (a plan refreshes each instance once), so the batch does not hold every prior to the end.
   */
  async lookup(key: BatchKey, address: string): Promise<Batched | undefined> {
    if (!key.handler.refreshMany) return undefined;
    const id = `${key.providerAddr}\u0000${key.type}`;
    let batch = this.batches.get(id);
    if (!batch) this.batches.set(id, (batch = this.run(key)));
    const found = await batch;
    const entry = found.get(address);
    found.delete(address);
    return entry;
  }

  private async run(key: BatchKey): Promise<Batch> {
    const addresses: string[] = [];
    const priors: State[] = [];
    const sources: Readonly<InstanceObject>[] = [];
    const { state } = this.input;
    for (const e of state.instances()) {
      const source = this.covers(e, key) ? state.peek(e.addr) : undefined;
      if (!source) continue;
      const obj = state.get(e.addr)!;
      let prior = obj.attributes;
      if (key.handler.upgrade && obj.schemaVersion < key.schemaVersion)
        prior = key.handler.upgrade(prior, obj.schemaVersion);
      addresses.push(e.address);
      priors.push(prior);
      sources.push(source);
    }
    const out: Batch = new Map();
    if (priors.length === 0) return out;
    // A batch that fails leaves every instance to its own read, which reports the error in its place.
    const refreshed = await key.handler.refreshMany!(priors).catch(() => []);
    refreshed.forEach((s, i) => {
      if (s !== undefined) out.set(addresses[i]!, { refreshed: s, prior: priors[i]!, source: sources[i]! });
    });
    return out;
  }

  private covers(e: ReturnType<StateFile['instances']>[number], key: BatchKey): boolean {
    const { addr } = e;
    if (addr.mode !== 'managed' || addr.type !== key.type) return false;
    // An interrupted create is always read: only the cluster knows whether it happened.
    if (this.input.state.isCreatePending(addr)) return false;
    if (key.providerAddrOfState(e.provider, addr.type) !== key.providerAddr) return false;
    const targets = this.input.targetSet;
    return !targets || targets.has(`${addr.type}.${addr.name}`) || targets.has(e.address);
  }
}
