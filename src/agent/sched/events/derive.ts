/**
 * Events from store commits. Nomad types every change of one raft message with that message's type
 * (a job register yields `JobRegistered` for the job and for its evaluation); the store has no
 * message types, so the operation is read back from what the commit changed, then each change gets
 * the type that says what happened to it:
 *
 * - Job: JobRegistered / JobDeregistered when its spec or stop flag moved (JobBatchDeregistered when
 *   one commit deletes several jobs); a status-only change carries the commit's operation.
 * - Allocation: AllocationCreated when placed; PlanResult when a scheduler plan stops or updates it;
 *   AllocationUpdateDesiredStatus for a desired-state change outside a plan (stop endpoint);
 *   DeploymentAllocHealth when its deployment health is set; AllocationUpdated for client updates.
 * - Deployment: DeploymentPromotion, DeploymentAllocHealth (health counts), DeploymentStatusUpdate.
 * - Evaluation: the job operation that created it, else EvaluationUpdated.
 * - Node: NodeRegistration, NodeDeregistration, NodeEligibility, NodeDrain, NodeEvent.
 * - Service: ServiceRegistration / ServiceDeregistration when an allocation starts / stops running.
 * - ACLToken / ACLPolicy: ...Upserted / ...Deleted; tokens without their SecretID.
 *
 * Previous versions of records are kept by reference (stored values are frozen, so this costs one
 * extra version per record at most) to tell a creation from an update.
 */
import type { Change, Commit, Store } from '../../store';
import { ACL_T } from '../acl/tables';
import type { AclPolicyRecord, AclTokenRecord } from '../acl/model';
import type { AllocRecord, DeploymentRecord, EvalRecord, Job, NodeRecord } from '../model';
import { T, childKey, jobKey } from '../tables';
import { serviceEvents } from './services';
import type { SchedEvent } from './types';

type AllocKind = 'created' | 'desired' | 'health' | 'client';
type DeploymentKind = 'created' | 'promotion' | 'status' | 'health' | 'other';
type JobKind = 'register' | 'deregister' | 'status';

const TRACKED = [T.jobs, T.allocs, T.deployments, T.nodes] as const;

export class EventDeriver {
  private readonly prev = new Map<string, Map<string, unknown>>();

  constructor(store: Store) {
    for (const table of TRACKED) this.prev.set(table, new Map());
    for (const j of store.list<Job>(T.jobs)) this.remember(T.jobs, jobKey(j.Namespace!, j.ID!), j);
    for (const table of [T.allocs, T.deployments]) {
      for (const r of store.list<{ Namespace: string; JobID: string; ID: string }>(table)) {
        this.remember(table, childKey(r.Namespace, r.JobID, r.ID), r);
      }
    }
    for (const n of store.list<NodeRecord>(T.nodes)) this.remember(T.nodes, n.ID, n);
  }

  /** The events of one commit, in the order of its changes. Updates the remembered versions. */
  derive(commit: Commit): SchedEvent[] {
    const before = (ch: Change): unknown => this.prev.get(ch.table)?.get(ch.key);
    const op = commitOperation(commit.changes, before);
    const events: SchedEvent[] = [];
    const ev = (e: Omit<SchedEvent, 'Index'>): void => {
      events.push({ ...e, Index: commit.index });
    };
    const nodes = this.prev.get(T.nodes)!;
    for (const ch of commit.changes) {
      const prior = before(ch);
      switch (ch.table) {
        case T.jobs: {
          const job = (ch.value ?? prior) as Job | undefined;
          if (!job) break;
          const kind = ch.op === 'delete' ? 'deregister' : jobKind(prior as Job | undefined, job);
          const type =
            kind === 'register'
              ? 'JobRegistered'
              : kind === 'deregister'
                ? op === 'JobBatchDeregistered'
                  ? op
                  : 'JobDeregistered'
                : op;
          if (type)
            ev({
              Topic: 'Job',
              Type: type,
              Key: job.ID!,
              Namespace: job.Namespace!,
              FilterKeys: null,
              Payload: { Job: job },
            });
          break;
        }
        case T.allocs: {
          if (ch.op === 'delete') break; // garbage collection is not an event in Nomad either
          const a = ch.value as AllocRecord;
          const p = prior as AllocRecord | undefined;
          const kind = allocKind(p, a);
          const type =
            kind === 'created'
              ? 'AllocationCreated'
              : kind === 'desired'
                ? op === 'PlanResult'
                  ? 'PlanResult'
                  : 'AllocationUpdateDesiredStatus'
                : kind === 'health'
                  ? 'DeploymentAllocHealth'
                  : 'AllocationUpdated';
          ev({
            Topic: 'Allocation',
            Type: type,
            Key: a.ID,
            Namespace: a.Namespace,
            FilterKeys: [a.JobID, a.DeploymentID],
            Payload: { Allocation: { ...a, Job: null } },
          });
          for (const s of serviceEvents(p, a, nodes.get(a.NodeID) as NodeRecord | undefined)) ev(s);
          break;
        }
        case T.deployments: {
          if (ch.op === 'delete') break;
          const d = ch.value as DeploymentRecord;
          const kind = deploymentKind(prior as DeploymentRecord | undefined, d);
          const type =
            kind === 'promotion'
              ? 'DeploymentPromotion'
              : kind === 'health'
                ? 'DeploymentAllocHealth'
                : kind === 'other' && op
                  ? op
                  : 'DeploymentStatusUpdate';
          ev({
            Topic: 'Deployment',
            Type: type,
            Key: d.ID,
            Namespace: d.Namespace,
            FilterKeys: [d.JobID],
            Payload: { Deployment: d },
          });
          break;
        }
        case T.evals: {
          if (ch.op === 'delete') break;
          const e = ch.value as EvalRecord;
          const type = op && op.startsWith('Job') ? op : 'EvaluationUpdated';
          ev({
            Topic: 'Evaluation',
            Type: type,
            Key: e.ID,
            Namespace: e.Namespace,
            FilterKeys: [e.JobID, e.DeploymentID],
            Payload: { Evaluation: e },
          });
          break;
        }
        case T.nodes: {
          const n = (ch.value ?? prior) as NodeRecord | undefined;
          if (!n) break;
          const type =
            ch.op === 'delete' ? 'NodeDeregistration' : nodeType(prior as NodeRecord | undefined, n);
          if (!type) break;
          const { SecretID: _secret, ...node } = n;
          ev({
            Topic: 'Node',
            Type: type,
            Key: n.ID,
            Namespace: '',
            FilterKeys: null,
            Payload: { Node: node },
          });
          break;
        }
        case ACL_T.tokens: {
          const t = ch.value as AclTokenRecord;
          ev({
            Topic: 'ACLToken',
            Type: ch.op === 'put' ? 'ACLTokenUpserted' : 'ACLTokenDeleted',
            Key: t.AccessorID,
            Namespace: '',
            FilterKeys: null,
            Payload: { ACLToken: { ...t, SecretID: '' } },
          });
          break;
        }
        case ACL_T.policies: {
          const p = ch.value as AclPolicyRecord;
          ev({
            Topic: 'ACLPolicy',
            Type: ch.op === 'put' ? 'ACLPolicyUpserted' : 'ACLPolicyDeleted',
            Key: p.Name,
            Namespace: '',
            FilterKeys: null,
            Payload: { ACLPolicy: p },
          });
          break;
        }
      }
      if (ch.op === 'put') this.remember(ch.table, ch.key, ch.value);
      else this.prev.get(ch.table)?.delete(ch.key);
    }
    return events;
  }

  private remember(table: string, key: string, value: unknown): void {
    this.prev.get(table)?.set(key, value);
  }
}

function jobKind(prev: Job | undefined, job: Job): JobKind {
  if (prev && prev.JobModifyIndex === job.JobModifyIndex && !!prev.Stop === !!job.Stop) return 'status';
  return job.Stop ? 'deregister' : 'register';
}

function allocKind(prev: AllocRecord | undefined, a: AllocRecord): AllocKind {
  if (!prev) return 'created';
  if (
    prev.DesiredStatus !== a.DesiredStatus ||
    JSON.stringify(prev.DesiredTransition) !== JSON.stringify(a.DesiredTransition)
  )
    return 'desired';
  if ((prev.DeploymentStatus?.Healthy ?? null) !== (a.DeploymentStatus?.Healthy ?? null)) return 'health';
  return 'client';
}

function deploymentKind(prev: DeploymentRecord | undefined, d: DeploymentRecord): DeploymentKind {
  if (!prev) return 'created';
  const groups = Object.keys(d.TaskGroups);
  // Promotion first: it also rewrites the status description ("requires manual promotion" goes away).
  if (groups.some((g) => d.TaskGroups[g]!.Promoted && !prev.TaskGroups[g]?.Promoted)) return 'promotion';
  if (prev.Status !== d.Status || prev.StatusDescription !== d.StatusDescription) return 'status';
  if (
    groups.some(
      (g) =>
        d.TaskGroups[g]!.HealthyAllocs !== prev.TaskGroups[g]?.HealthyAllocs ||
        d.TaskGroups[g]!.UnhealthyAllocs !== prev.TaskGroups[g]?.UnhealthyAllocs,
    )
  )
    return 'health';
  return 'other';
}

function nodeType(prev: NodeRecord | undefined, n: NodeRecord): string | undefined {
  if (!prev) return 'NodeRegistration';
  if (prev.Drain !== n.Drain || JSON.stringify(prev.DrainStrategy) !== JSON.stringify(n.DrainStrategy))
    return 'NodeDrain';
  if (prev.SchedulingEligibility !== n.SchedulingEligibility) return 'NodeEligibility';
  return 'NodeEvent';
}

/** What the commit as a whole did, as Nomad's raft message type would say. */
function commitOperation(changes: readonly Change[], before: (ch: Change) => unknown): string | undefined {
  let register = false;
  let deregistered = 0;
  let created = false;
  let desired = false;
  let health = false;
  let client = false;
  let evals = false;
  let evalDone = false;
  let promotion = false;
  let depStatus = false;
  for (const ch of changes) {
    const prior = before(ch);
    if (ch.table === T.jobs) {
      if (ch.op === 'delete') deregistered++;
      else {
        const kind = jobKind(prior as Job | undefined, ch.value as Job);
        if (kind === 'register') register = true;
        else if (kind === 'deregister') deregistered++;
      }
    } else if (ch.table === T.allocs && ch.op === 'put') {
      const kind = allocKind(prior as AllocRecord | undefined, ch.value as AllocRecord);
      if (kind === 'created') created = true;
      else if (kind === 'desired') desired = true;
      else if (kind === 'health') health = true;
      else client = true;
    } else if (ch.table === T.evals) {
      evals = true;
      // A plan commits its evaluation's outcome; a desired-state change (stop) only creates a pending one.
      if (ch.op === 'put' && (ch.value as EvalRecord).Status !== 'pending') evalDone = true;
    } else if (ch.table === T.deployments && ch.op === 'put') {
      const kind = deploymentKind(prior as DeploymentRecord | undefined, ch.value as DeploymentRecord);
      if (kind === 'promotion') promotion = true;
      else if (kind === 'created' || kind === 'status') depStatus = true;
    }
  }
  if (register) return 'JobRegistered';
  if (deregistered > 1) return 'JobBatchDeregistered';
  if (deregistered === 1) return 'JobDeregistered';
  if (created || (desired && evalDone)) return 'PlanResult';
  if (promotion) return 'DeploymentPromotion';
  if (health) return 'DeploymentAllocHealth';
  if (depStatus) return 'DeploymentStatusUpdate';
  if (desired) return 'AllocationUpdateDesiredStatus';
  if (client) return 'AllocationUpdated';
  if (evals) return 'EvaluationUpdated';
  return undefined;
}
