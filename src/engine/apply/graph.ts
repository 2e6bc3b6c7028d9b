/**
 * The apply graph: one node per instance change and per deferred data read, ordered by the
 * dependencies the plan recorded (deletes in reverse).
 */
import type { StackConfig } from '../config';
import { Graph } from '../graph';
import type { PlannedChange } from '../../provider/resource';
import type { DataPlan, InstancePlan, StackPlan } from '../plan/types';

/**
 * A replace (without create_before_destroy) is two nodes, as in Terraform: its destroy runs in
 * destroy order (after the destroys of what depends on it), its create in create order. One node
 * could not do both when a dependency is replaced too: the namespace's old object can only go once
 * the job in it is gone, and the job's new object only comes once the new namespace exists.
 */
export type Part = 'whole' | 'destroy' | 'create';
export type ApplyNode = { kind: 'instance'; ip: InstancePlan; part: Part } | { kind: 'data'; dp: DataPlan };

export const DESTROY_SUFFIX = ' (destroy)';

export function buildApplyGraph(plan: StackPlan, config: StackConfig): Graph<ApplyNode> {
  const g = new Graph<ApplyNode>();
  const byResource = new Map<string, string[]>();
  const addToResource = (ra: string, id: string): void => {
    let ids = byResource.get(ra);
    if (!ids) byResource.set(ra, (ids = []));
    ids.push(id);
  };
  for (const ip of plan.instances) {
    if (ip.change.action === 'noop' && !ip.stateOnly) continue;
    if (ip.change.action === 'replace' && !ip.createBeforeDestroy) {
      const destroyId = `${ip.address}${DESTROY_SUFFIX}`;
      g.addNode(destroyId, { kind: 'instance', ip, part: 'destroy' });
      g.addNode(ip.address, { kind: 'instance', ip, part: 'create' });
      g.addDependency(ip.address, destroyId);
      addToResource(ip.resourceAddress, destroyId);
    } else g.addNode(ip.address, { kind: 'instance', ip, part: 'whole' });
    addToResource(ip.resourceAddress, ip.address);
  }
  for (const dp of plan.data) {
    if (!dp.deferred || plan.mode === 'destroy') continue;
    g.addNode(dp.address, { kind: 'data', dp });
    addToResource(dp.resourceAddress, dp.address);
  }
  addDependencies(g, byResource, config);
  return g;
}

function addDependencies(g: Graph<ApplyNode>, byResource: Map<string, string[]>, config: StackConfig): void {
  const isDelete = (id: string): boolean => {
    const n = g.node(id);
    return n.kind === 'instance' && (n.ip.change.action === 'delete' || n.part === 'destroy');
  };
  for (const id of g.ids()) {
    const n = g.node(id);
    const deps = n.kind === 'instance' ? n.ip.dependencies : (n.dp.dependencies ?? depsOfData(config, n.dp));
    for (const dep of deps) {
      for (const depId of byResource.get(dep) ?? []) {
        if (depId === id) continue;
        // Deletes run in reverse: what depends on something is deleted before it, and before
        // that something is created anew or updated (Terraform's order: a dependant's destroy
        // comes before its dependency's create or update).
        if (isDelete(id)) g.addDependency(depId, id);
        else if (!isDelete(depId)) g.addDependency(id, depId);
      }
    }
  }
}

/** The change one node applies: a replace's halves are a delete and a create. */
export function changeOf(ip: InstancePlan, part: Part): PlannedChange {
  return part === 'destroy'
    ? { ...ip.change, action: 'delete', planned: null }
    : part === 'create'
      ? { ...ip.change, action: 'create', prior: null }
      : ip.change;
}

function depsOfData(config: StackConfig, dp: DataPlan): string[] {
  const block = config.dataSources.get(dp.resourceAddress);
  if (!block) return [];
  return block.dependsOn.map((d) => `${d.mode === 'data' ? 'data.' : ''}${d.type}.${d.name}`);
}
