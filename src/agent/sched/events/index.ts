/** The scheduler's event stream (spec section 6): the broker over store commits and its HTTP route. */
import type { Router } from '../../http/router';
import type { SchedAuthorizer } from '../acl/authorize';
import type { SchedContext } from '../context';
import { EventBroker, type EventLimits } from './broker';
import { eventStreamRoutes } from './stream';

export { EventBroker, Subscription, type EventLimits, type CloseReason } from './broker';
export type { EventMessage, SchedEvent } from './types';
export { TOPICS } from './types';

const HEARTBEAT_NS = 10e9;

/** Nomad heartbeats every 10 s; the dev agent scales that with its clock so fast tests see them. */
export function defaultEventLimits(sc: SchedContext): EventLimits {
  return {
    bufferSize: 1000,
    subscriberQueue: 512,
    heartbeatMs: Math.max(20, sc.clock.scaledMs(HEARTBEAT_NS)),
  };
}

export function createSchedEvents(sc: SchedContext, router: Router, auth: SchedAuthorizer): EventBroker {
  const broker = new EventBroker(sc.store, defaultEventLimits(sc));
  eventStreamRoutes(router, sc, broker, auth);
  return broker;
}
