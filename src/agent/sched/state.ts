/**
 * Read access to the scheduler's records, plus the secondary indexes (allocation, evaluation and
 * deployment by bare ID) that the store's key order does not give. The indexes are derived from
 * commits, so they can never disagree with the store.
 */
import type { Store, Txn } from '../store';
import type {
  AllocRecord,
  DeploymentRecord,
  EvalRecord,
  Job,
  JobSummaryRecord,
  NamespaceRecord,
  NodeRecord,
} from './model';
import { T, childKey, jobKey, jobPrefix, namespacePrefix } from './tables';

type Reader = Pick<Store, 'get' | 'list'> | Pick<Txn, 'get' | 'list'>;

export class SchedState {
  private readonly byId = new Map<string, string>();

  constructor(readonly store: Store) {
    for (const table of [T.allocs, T.evals, T.deployments]) {
      for (const rec of store.list<{ ID: string; Namespace: string; JobID: string }>(table)) {
        this.byId.set(rec.ID, childKey(rec.Namespace, rec.JobID, rec.ID));
      }
    }
    store.onCommit((c) => {
      for (const ch of c.changes) {
        if (ch.table !== T.allocs && ch.table !== T.evals && ch.table !== T.deployments) continue;
        const id = ch.key.slice(ch.key.lastIndexOf('\u0000') + 1);
        if (ch.op === 'put') this.byId.set(id, ch.key);
        else this.byId.delete(id);
      }
    });
  }

  keyOf(id: string): string | undefined {
    return this.byId.get(id);
  }

  /** IDs that start with a prefix, for the `prefix` parameter and short-ID lookups. */
  idsWithPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (const id of this.byId.keys()) if (id.startsWith(prefix)) out.push(id);
    return out.sort();
  }
}

export function getJob(r: Reader, ns: string, id: string): Job | undefined {
  return r.get<Job>(T.jobs, jobKey(ns, id));
}

export function listJobs(r: Reader, ns: string): Job[] {
  return ns === '*' ? r.list<Job>(T.jobs) : r.list<Job>(T.jobs, { prefix: namespacePrefix(ns) });
}

export function jobAllocs(r: Reader, ns: string, id: string): AllocRecord[] {
  return r.list<AllocRecord>(T.allocs, { prefix: jobPrefix(ns, id) });
}

export function jobEvals(r: Reader, ns: string, id: string): EvalRecord[] {
  return r.list<EvalRecord>(T.evals, { prefix: jobPrefix(ns, id) });
}

export function jobDeployments(r: Reader, ns: string, id: string): DeploymentRecord[] {
  return r.list<DeploymentRecord>(T.deployments, { prefix: jobPrefix(ns, id) });
}

export function latestDeployment(r: Reader, ns: string, id: string): DeploymentRecord | undefined {
  let best: DeploymentRecord | undefined;
  for (const d of jobDeployments(r, ns, id)) if (!best || d.CreateIndex > best.CreateIndex) best = d;
  return best;
}

export function getSummary(r: Reader, ns: string, id: string): JobSummaryRecord | undefined {
  return r.get<JobSummaryRecord>(T.summaries, jobKey(ns, id));
}

export function listNodes(r: Reader): NodeRecord[] {
  return r.list<NodeRecord>(T.nodes);
}

export function getNamespace(r: Reader, name: string): NamespaceRecord | undefined {
  return r.get<NamespaceRecord>(T.namespaces, name);
}

export function isTerminalAlloc(a: Pick<AllocRecord, 'DesiredStatus' | 'ClientStatus'>): boolean {
  return (
    a.DesiredStatus !== 'run' ||
    a.ClientStatus === 'complete' ||
    a.ClientStatus === 'failed' ||
    a.ClientStatus === 'lost'
  );
}

export function isClientTerminal(a: Pick<AllocRecord, 'ClientStatus'>): boolean {
  return a.ClientStatus === 'complete' || a.ClientStatus === 'failed' || a.ClientStatus === 'lost';
}
