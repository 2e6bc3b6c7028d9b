import { z } from 'zod';
import { OptNumber, OptString, StringList } from './common';
import { AllocationSchema } from './allocation';
import { DeploymentSchema } from './deployment';
import { EvaluationSchema } from './evaluation';
import { JobSchema } from './job';
import { NodeSchema } from './node';

/**
 * Known topics: `*`, `ACLToken`, `ACLPolicy`, `Job`, `Allocation`, `Deployment`, `Evaluation`, `Node`,
 * `NodeDrain`, `Service`. Known types: ACLTokenUpserted, ACLTokenDeleted, ACLPolicyUpserted,
 * ACLPolicyDeleted, AllocationCreated, AllocationUpdated, AllocationUpdateDesiredStatus,
 * DeploymentStatusUpdate, DeploymentPromotion, DeploymentAllocHealth, EvaluationUpdated,
 * JobRegistered, JobDeregistered, JobBatchDeregistered, NodeRegistration, NodeDeregistration,
 * NodeEligibility, NodeDrain, NodeEvent, PlanResult, ServiceRegistration, ServiceDeregistration.
 * Both kept open.
 */
export const KNOWN_EVENT_TOPICS = [
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

export const ServiceRegistrationSchema = z.looseObject({
  ID: OptString,
  ServiceName: OptString,
  Namespace: OptString,
  NodeID: OptString,
  Datacenter: OptString,
  JobID: OptString,
  AllocID: OptString,
  Tags: StringList,
  Address: OptString,
  Port: OptNumber,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type ServiceRegistration = z.infer<typeof ServiceRegistrationSchema>;

/** The payload is keyed by the kind of object it carries (`{Node: {...}}` for the Node topic). */
export const EventPayloadSchema = z.looseObject({
  Job: JobSchema.nullish(),
  Allocation: AllocationSchema.nullish(),
  Deployment: DeploymentSchema.nullish(),
  Evaluation: EvaluationSchema.nullish(),
  Node: NodeSchema.nullish(),
  Service: ServiceRegistrationSchema.nullish(),
  ACLToken: z.looseObject({ AccessorID: OptString, Name: OptString }).nullish(),
  ACLPolicy: z.looseObject({ Name: OptString }).nullish(),
});
export type EventPayload = z.infer<typeof EventPayloadSchema>;

export const EventSchema = z.looseObject({
  Topic: z.string(),
  Type: z.string(),
  Key: OptString,
  Namespace: OptString,
  FilterKeys: StringList,
  Index: z.number(),
  Payload: EventPayloadSchema.nullish(),
});
export type Event = z.infer<typeof EventSchema>;

/** One line of the stream. Heartbeats are `{}` (no Index); the client skips them. */
export const EventStreamMessageSchema = z.looseObject({
  Index: z.number(),
  Events: z.array(EventSchema).nullish(),
});
export type EventStreamMessage = z.infer<typeof EventStreamMessageSchema>;

/** A raw line before the heartbeat check: Index absent on heartbeats. */
export const EventStreamLineSchema = z.looseObject({
  Index: OptNumber,
  Events: z.array(EventSchema).nullish(),
});
