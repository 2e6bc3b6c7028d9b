/**
 * The dependency graph of a stack: one node per resource, data source, provider configuration,
 * variable, local value and output, with an edge for every reference (in attributes, count,
 * for_each, lifecycle, conditions, provider configuration), every `depends_on` entry and every
 * resource's provider. Resource nodes stand for all instances of the block, as in Terraform's
 * configuration graph; the apply code expands them when it visits them.
 */
import { resourceAddress } from '../config/address';
import type { Expr } from '../expressions/ast';
import { findReferences, type ResourceRef } from '../expressions/references';
import {
  providerAddress,
  type LocalConfig,
  type OutputConfig,
  type ProviderConfig,
  type ResourceConfig,
  type StackConfig,
  type VariableConfig,
} from '../config/types';
import { Graph } from './graph';

export type ConfigNode =
  /** id: the resource address, `sched_job.web`. */
  | { kind: 'resource'; id: string; resource: ResourceConfig }
  /** id: `data.sched_job.current`. */
  | { kind: 'data'; id: string; resource: ResourceConfig }
  /** id: `provider.sched` / `provider.sched.west`; `provider` undefined for an unconfigured default provider. */
  | { kind: 'provider'; id: string; address: string; name: string; alias?: string; provider?: ProviderConfig }
  /** id: `var.name`. */
  | { kind: 'variable'; id: string; variable: VariableConfig }
  /** id: `local.name`. */
  | { kind: 'local'; id: string; local: LocalConfig }
  /** id: `output.name`. */
  | { kind: 'output'; id: string; output: OutputConfig };

export function providerNodeId(address: string): string {
  return `provider.${address}`;
}

/** Graph node id of a resource or data source: its address. */
export function resourceNodeId(ref: ResourceRef): string {
  return resourceAddress(ref);
}

function referencedIds(exprs: (Expr | undefined)[]): string[] {
  const ids: string[] = [];
  for (const e of exprs) {
    if (!e) continue;
    for (const r of findReferences(e)) {
      if (r.kind === 'var') ids.push(`var.${r.name}`);
      else if (r.kind === 'local') ids.push(`local.${r.name}`);
      else if (r.kind === 'resource') ids.push(resourceNodeId(r));
    }
  }
  return ids;
}

function resourceExprs(r: ResourceConfig): Expr[] {
  const lc = r.lifecycle;
  return [
    r.body,
    ...(r.count ? [r.count] : []),
    ...(r.forEach ? [r.forEach] : []),
    ...lc.replaceTriggeredBy,
    ...lc.preconditions.flatMap((c) => [c.condition, c.errorMessage]),
    ...lc.postconditions.flatMap((c) => [c.condition, c.errorMessage]),
  ];
}

/**
 * Builds the graph. References to undeclared objects are skipped (validation reports them); cycles
 * are not checked here — call `graph.assertAcyclic()` or let `walk` do it.
 */
export function buildConfigGraph(config: StackConfig): Graph<ConfigNode> {
  const g = new Graph<ConfigNode>();
  for (const v of config.variables.values())
    g.addNode(`var.${v.name}`, { kind: 'variable', id: `var.${v.name}`, variable: v });
  for (const l of config.locals.values())
    g.addNode(`local.${l.name}`, { kind: 'local', id: `local.${l.name}`, local: l });
  for (const o of config.outputs.values())
    g.addNode(`output.${o.name}`, { kind: 'output', id: `output.${o.name}`, output: o });
  for (const p of config.providers.values()) {
    const id = providerNodeId(p.address);
    g.addNode(id, {
      kind: 'provider',
      id,
      address: p.address,
      name: p.name,
      ...(p.alias !== undefined ? { alias: p.alias } : {}),
      provider: p,
    });
  }
  for (const r of [...config.resources.values(), ...config.dataSources.values()]) {
    const id = resourceNodeId(r);
    g.addNode(
      id,
      r.mode === 'data' ? { kind: 'data', id, resource: r } : { kind: 'resource', id, resource: r },
    );
    const pAddr = providerAddress(r.provider);
    const pid = providerNodeId(pAddr);
    // A resource of a provider nobody configured uses that provider's defaults, as Terraform does.
    if (!g.hasNode(pid))
      g.addNode(pid, {
        kind: 'provider',
        id: pid,
        address: pAddr,
        name: r.provider.name,
        ...(r.provider.alias !== undefined ? { alias: r.provider.alias } : {}),
      });
  }

  const link = (from: string, to: string): void => {
    if (g.hasNode(to)) g.addDependency(from, to);
  };
  for (const l of config.locals.values())
    for (const to of referencedIds([l.expr])) link(`local.${l.name}`, to);
  for (const o of config.outputs.values()) {
    const id = `output.${o.name}`;
    for (const to of referencedIds([
      o.value,
      ...o.preconditions.flatMap((c) => [c.condition, c.errorMessage]),
    ]))
      link(id, to);
    for (const d of o.dependsOn) link(id, resourceNodeId(d));
  }
  for (const p of config.providers.values())
    for (const to of referencedIds([p.body])) link(providerNodeId(p.address), to);
  for (const r of [...config.resources.values(), ...config.dataSources.values()]) {
    const id = resourceNodeId(r);
    for (const to of referencedIds(resourceExprs(r))) link(id, to);
    for (const d of r.dependsOn) link(id, resourceNodeId(d));
    link(id, providerNodeId(providerAddress(r.provider)));
  }
  return g;
}
