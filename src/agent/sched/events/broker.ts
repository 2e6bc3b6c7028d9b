/**
 * The event broker: derives events from every commit, keeps the most recent messages in a bounded
 * ring for `index` resumption, and hands each subscriber its own bounded queue of the messages it
 * asked for. A subscriber whose queue overflows (its reader does not keep up) is dropped instead of
 * letting memory grow; one whose token or policies change is dropped too, so a revoked token stops
 * seeing events (Nomad closes those subscriptions the same way).
 */
import type { Store } from '../../store';
import { EventDeriver } from './derive';
import type { EventMessage, SchedEvent } from './types';

export interface EventLimits {
  /** Messages kept for resumption (Nomad's event_buffer_size counts events; one message is one commit). */
  bufferSize: number;
  /** Messages one subscriber may have waiting beyond its initial backlog before it is disconnected. */
  subscriberQueue: number;
  /** Interval of `{}` heartbeats on idle streams. */
  heartbeatMs: number;
}

export type CloseReason = 'overflow' | 'token-changed' | 'shutdown';

export interface SubscribeOptions {
  /** First index wanted; older messages than the buffer holds are simply gone. */
  fromIndex: number;
  filter: (e: SchedEvent) => boolean;
  /** Called when messages are waiting. */
  onReady: () => void;
  onClose: (reason: CloseReason) => void;
  /** The token the subscription was authorized with; its change or deletion closes it. */
  accessorId?: string;
  policies?: readonly string[];
}

export class Subscription {
  private readonly queue: EventMessage[] = [];
  private cap = 0;
  closed = false;

  constructor(
    private readonly opts: SubscribeOptions,
    private readonly release: (s: Subscription) => void,
    limit: number,
  ) {
    this.cap = limit;
  }

  /** The initial backlog may be as long as the ring; only growth beyond it counts as falling behind. */
  fill(backlog: readonly EventMessage[], limit: number): void {
    for (const m of backlog) this.enqueue(m, false);
    this.cap = Math.max(limit, this.queue.length);
  }

  offer(m: EventMessage): void {
    if (this.closed) return;
    this.enqueue(m, true);
  }

  take(): EventMessage | undefined {
    return this.queue.shift();
  }

  get pending(): number {
    return this.queue.length;
  }

  close(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.release(this);
    this.opts.onClose(reason);
  }

  /** Closes when a change to ACL objects touches the token this subscription runs under. */
  revokeIfAffected(e: SchedEvent): void {
    if (this.opts.accessorId === undefined) return;
    const token = e.Topic === 'ACLToken' && e.Key === this.opts.accessorId;
    const policy = e.Topic === 'ACLPolicy' && (this.opts.policies ?? []).includes(e.Key);
    if (token || policy) this.close('token-changed');
  }

  private enqueue(m: EventMessage, notify: boolean): void {
    if (m.Index < this.opts.fromIndex) return;
    const events = m.Events.filter(this.opts.filter);
    if (events.length === 0) return;
    this.queue.push(events.length === m.Events.length ? m : { Index: m.Index, Events: events });
    if (!notify) return;
    if (this.queue.length > this.cap) this.close('overflow');
    else this.opts.onReady();
  }
}

export class EventBroker {
  readonly limits: EventLimits;
  private ring: (EventMessage | undefined)[] = [];
  private head = 0;
  private readonly subs = new Set<Subscription>();
  private readonly deriver: EventDeriver;
  private readonly unsubscribe: () => void;

  constructor(store: Store, limits: EventLimits) {
    this.limits = { ...limits };
    this.deriver = new EventDeriver(store);
    this.unsubscribe = store.onCommit((c) => {
      const events = this.deriver.derive(c);
      if (events.length > 0) this.publish({ Index: c.index, Events: events });
    });
  }

  /** Changes limits at run time (tests shrink them to see overflow and buffer loss quickly). */
  setLimits(limits: Partial<EventLimits>): void {
    Object.assign(this.limits, limits);
    this.trim();
  }

  subscribe(opts: SubscribeOptions): Subscription {
    const sub = new Subscription(opts, (s) => this.subs.delete(s), this.limits.subscriberQueue);
    sub.fill(this.backlogFrom(opts.fromIndex), this.limits.subscriberQueue);
    this.subs.add(sub);
    return sub;
  }

  /** Buffered messages, oldest first (for inspection and tests). */
  buffered(): EventMessage[] {
    return this.ring.slice(this.head) as EventMessage[];
  }

  subscriberCount(): number {
    return this.subs.size;
  }

  stop(): void {
    this.unsubscribe();
    for (const s of [...this.subs]) s.close('shutdown');
  }

  private publish(m: EventMessage): void {
    this.ring.push(m);
    this.trim();
    for (const s of [...this.subs]) {
      s.offer(m);
      for (const e of m.Events) if (e.Topic === 'ACLToken' || e.Topic === 'ACLPolicy') s.revokeIfAffected(e);
    }
  }

  private trim(): void {
    while (this.ring.length - this.head > this.limits.bufferSize) this.ring[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.head);
      this.head = 0;
    }
  }

  /** Messages at or after `index`; when it is older than the ring, the ring's oldest is the next available. */
  private backlogFrom(index: number): EventMessage[] {
    let lo = this.head;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ring[mid]!.Index < index) lo = mid + 1;
      else hi = mid;
    }
    return this.ring.slice(lo) as EventMessage[];
  }
}
