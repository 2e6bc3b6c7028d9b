/**
 * Runs evaluations one at a time, in the order they were created, as Nomad's leader does. Pending
 * evaluations start on their own (a commit that writes one wakes the broker); those with WaitUntil
 * wait for their time; blocked evaluations run again when capacity may have appeared.
 */
import type { Commit } from '../store';
import type { SchedContext } from './context';
import { processEval } from './evaluator';
import type { AllocRecord, EvalRecord } from './model';
import { T } from './tables';

export class EvalBroker {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly delayed = new Map<string, () => void>();
  private readonly blocked = new Set<string>();
  private scheduled = false;
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: SchedContext) {
    this.unsubscribe = ctx.store.onCommit((c) => this.onCommit(c));
  }

  /** Picks up evaluations left pending by a previous run (a restart with --data-dir). */
  start(): void {
    for (const ev of this.ctx.store.list<EvalRecord>(T.evals)) {
      if (ev.Status === 'pending') this.offer(ev);
      if (ev.Status === 'blocked') this.blocked.add(ev.ID);
    }
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const cancel of this.delayed.values()) cancel();
    this.delayed.clear();
  }

  /** Pending work count, for tests and the benchmarks. */
  get depth(): number {
    return this.queue.length + this.delayed.size;
  }

  private onCommit(c: Commit): void {
    let capacityChanged = false;
    for (const ch of c.changes) {
      if (ch.table === T.evals && ch.op === 'put') {
        const ev = ch.value as EvalRecord;
        if (ev.Status === 'pending') this.offer(ev);
        if (ev.Status === 'blocked') this.blocked.add(ev.ID);
        else this.blocked.delete(ev.ID);
      } else if (ch.table === T.allocs && ch.op === 'put') {
        const a = ch.value as AllocRecord;
        if (
          a.DesiredStatus !== 'run' ||
          a.ClientStatus === 'complete' ||
          a.ClientStatus === 'failed' ||
          a.ClientStatus === 'lost'
        ) {
          capacityChanged = true;
        }
      } else if (ch.table === T.allocs && ch.op === 'delete') {
        capacityChanged = true;
      } else if (ch.table === T.evals && ch.op === 'delete') {
        this.blocked.delete(ch.key.slice(ch.key.lastIndexOf('\u0000') + 1));
      } else if (ch.table === T.nodes) {
        capacityChanged = true;
      }
    }
    if (capacityChanged) this.unblock();
  }

  private offer(ev: EvalRecord): void {
    if (this.stopped || this.queued.has(ev.ID) || this.delayed.has(ev.ID)) return;
    const waitUntil = Date.parse(ev.WaitUntil);
    if (Number.isFinite(waitUntil) && waitUntil > Date.now()) {
      const cancel = this.ctx.clock.at(waitUntil, () => {
        this.delayed.delete(ev.ID);
        this.enqueue(ev.ID);
      });
      this.delayed.set(ev.ID, cancel);
      return;
    }
    this.enqueue(ev.ID, ev.TriggeredBy === 'job-register');
  }

  private unblock(): void {
    for (const id of this.blocked) this.enqueue(id);
  }

  private enqueue(id: string, soon = false): void {
    if (this.stopped || this.queued.has(id)) return;
    this.queued.add(id);
    this.queue.push(id);
    this.schedule(soon);
  }

  /**
   * `soon`: the evaluation of a registration, which nothing else queued waits on, runs right after the
   * commit that created it (a microtask) when the broker is idle: a turn of the event loop would
   * first wait for all the I/O it polled. The rest keep their turn, behind what the same commits
   * queued for the next turn (the deployment watcher's reviews).
   */
  private schedule(soon = false): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    if (soon) queueMicrotask(() => this.drain());
    else setImmediate(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    // A bounded batch per turn keeps HTTP requests flowing while many evaluations queue up.
    for (let i = 0; i < 64 && this.queue.length > 0 && !this.stopped; i++) {
      const id = this.queue.shift()!;
      this.queued.delete(id);
      try {
        processEval(this.ctx, id);
      } catch (err) {
        this.ctx.log(
          `evaluation ${id} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
      }
    }
    if (this.queue.length > 0) this.schedule();
  }
}
