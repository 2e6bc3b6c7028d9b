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

export const TOPICS = [
  'ACLToken',
  'ACLPolicy',
  'Job',
  'Allocation',
  'Deployment',
  'Evaluation',
  'Node',
  'NodeDrain',
  'Service',
] as const;
