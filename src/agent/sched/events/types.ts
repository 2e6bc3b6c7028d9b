/** The event stream's wire shapes (spec section 6). */

export interface SchedEvent {
  Topic: string;
  Type: string;
  Key: string;
  /** Empty for topics that are not namespaced (Node, ACLToken, ACLPolicy). */
  Namespace: string;
  /** Further keys a `Topic:key` subscription matches besides Key (JobID, DeploymentID, ...). */
  FilterKeys: string[] | null;
  Index: number;
  Payload: Record<string, unknown>;
}

export interface EventMessage {
  Index: number;
  Events: SchedEvent[];
}

/*
 * The topic list is part of the wire contract, so it has one home: the API's zod schemas, which the agent
 * already validates requests with. Those modules hold only schemas and constants (no transport, no HTTP), so
 * the agent depending on them does not reach into the client. The event shapes above stay separate: the
 * agent's are exactly what it sends, the client's schema tolerates what any server might send (nulls,
 * absent fields).
 */
export { KNOWN_EVENT_TOPICS as TOPICS } from '../../../api/sched/schemas';
