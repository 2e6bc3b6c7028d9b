/** Nodes of a compiled discovery chain, and the graph passes that run once all nodes exist. */
import type { ServiceRoute } from '../config/types';
import { goDuration } from '../request';
import { ChainError } from './errors';

export interface ResolverNode {
  Type: 'resolver';
  Name: string;
  Resolver: {
    Default: boolean;
    ConnectTimeoutMs: number;
    RequestTimeout?: string;
    Target: string;
    Failover?: { Targets: string[] };
  };
  LoadBalancer?: Record<string, unknown>;
}
export interface SplitterNode {
  Type: 'splitter';
  Name: string;
  Splits: { Weight: number; NextNode: string }[];
  LoadBalancer?: Record<string, unknown>;
}
export interface RouterNode {
  Type: 'router';
  Name: string;
  Routes: { Definition: ServiceRoute; NextNode: string }[];
}
export type Node = ResolverNode | SplitterNode | RouterNode;

export const keyOf = (n: Node): string => `${n.Type}:${n.Name}`;
const round2 = (w: number): number => Math.round(w * 100) / 100;

export function detectCycles(nodes: Map<string, Node>, startNode: string): void {
  const visiting: string[] = [];
  const walk = (key: string): void => {
    if (visiting.includes(key))
      throw new ChainError(`detected circular reference: [${[...visiting, key].join(' -> ')}]`);
    const node = nodes.get(key);
    if (!node || node.Type === 'resolver') return;
    visiting.push(key);
    const next =
      node.Type === 'router' ? node.Routes.map((r) => r.NextNode) : node.Splits.map((s) => s.NextNode);
    for (const n of new Set(next)) walk(n);
    visiting.pop();
  };
  walk(startNode);
}

/** A split that leads to another splitter is replaced by that splitter's splits, weights multiplied. */
export function flattenSplitters(nodes: Map<string, Node>): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const node of nodes.values()) {
      if (node.Type !== 'splitter') continue;
      const fixed: SplitterNode['Splits'] = [];
      let touched = false;
      for (const split of node.Splits) {
        const next = nodes.get(split.NextNode);
        if (next?.Type !== 'splitter') {
          fixed.push(split);
          continue;
        }
        touched = true;
        for (const inner of next.Splits)
          fixed.push({ Weight: round2((split.Weight * inner.Weight) / 100), NextNode: inner.NextNode });
      }
      if (touched) {
        node.Splits = fixed;
        changed = true;
      }
    }
  }
}

export function removeUnused(nodes: Map<string, Node>, startNode: string): void {
  const seen = new Set<string>();
  const todo = [startNode];
  while (todo.length > 0) {
    const key = todo.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const node = nodes.get(key);
    if (!node) throw new ChainError(`compilation references non-retained node "${key}"`);
    if (node.Type === 'router') todo.push(...node.Routes.map((r) => r.NextNode));
    if (node.Type === 'splitter') todo.push(...node.Splits.map((s) => s.NextNode));
  }
  for (const key of [...nodes.keys()]) if (!seen.has(key)) nodes.delete(key);
}

export function renderNode(n: Node): Record<string, unknown> {
  if (n.Type === 'resolver') {
    const { ConnectTimeoutMs, ...rest } = n.Resolver;
    const resolver: Record<string, unknown> = {
      Default: rest.Default,
      ConnectTimeout: goDuration(ConnectTimeoutMs),
      Target: rest.Target,
    };
    if (rest.RequestTimeout) resolver['RequestTimeout'] = rest.RequestTimeout;
    if (rest.Failover) resolver['Failover'] = rest.Failover;
    const out: Record<string, unknown> = { Type: n.Type, Name: n.Name, Resolver: resolver };
    if (n.LoadBalancer) out['LoadBalancer'] = n.LoadBalancer;
    return out;
  }
  return { ...n };
}
