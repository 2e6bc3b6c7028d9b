/**
 * Picks a node for each allocation: feasibility (datacenter, node pool, drivers, constraints,
 * distinct_hosts/distinct_property), then resource fit, then the score Nomad uses: bin-packing,
 * job anti-affinity, affinities and spreads, averaged. Failures fill the same metrics Nomad reports.
 */
import type { AllocMetricRecord, AllocRecord, Job, NodeRecord } from '../model';
import { checkConstraint, constraintKey, globMatch, resolveTarget, type ConstraintLike } from './constraints';
import { heldBy, ownedUnder, ownerOf, shift, type NodeUse } from './node-usage';
import { findGroup, groupAsk, type Ask, type Group } from './resources';

export interface Placed {
  node: NodeRecord;
  metrics: AllocMetricRecord;
}

export function emptyMetrics(): AllocMetricRecord {
  return {
    NodesEvaluated: 0,
    NodesFiltered: 0,
    NodesInPool: 0,
    NodesAvailable: {},
    ClassFiltered: null,
    ConstraintFiltered: null,
    NodesExhausted: 0,
    ClassExhausted: null,
    DimensionExhausted: null,
    QuotaExhausted: null,
    ResourcesExhausted: null,
    Scores: null,
    ScoreMetaData: null,
    AllocationTime: 0,
    CoalescedFailures: 0,
  };
}

function bump(map: Record<string, number> | null, key: string): Record<string, number> {
  const m = map ?? {};
  m[key] = (m[key] ?? 0) + 1;
  return m;
}

/**
 * A node's usage as one placer sees it: what the cluster's live allocations hold, plus what this
 * placer placed or released there. The cluster's counts are read, never copied: an evaluation costs
 * what it places, not what the whole cluster holds.
 */
class PlacerUse {
  cpu: number;
  memoryMB: number;
  diskMB: number;
  /** This placer's changes to the owner counts of `held` (made on the first: most nodes get none). */
  private changed: Map<string, number> | undefined;

  constructor(private readonly held: NodeUse | undefined) {
    this.cpu = held?.cpu ?? 0;
    this.memoryMB = held?.memoryMB ?? 0;
    this.diskMB = held?.diskMB ?? 0;
  }

  /** Live allocations of `owner` on the node. */
  count(owner: string): number {
    return (this.held?.owners.get(owner) ?? 0) + (this.changed?.get(owner) ?? 0);
  }

  /** Live allocations on the node of owners starting with `prefix` (a job's groups). */
  countUnder(prefix: string): number {
    let n = this.held ? ownedUnder(this.held, prefix) : 0;
    for (const [owner, change] of this.changed ?? []) if (owner.startsWith(prefix)) n += change;
    return n;
  }

  take(amount: Ask, owner: string): void {
    shift(this, amount, 1);
    this.change(owner, 1);
  }

  /** Undoes a take of `amount` by `owner` (the owner's count only if it has one there). */
  give(amount: Ask, owner: string): void {
    shift(this, amount, -1);
    if (this.count(owner) > 0) this.change(owner, -1);
  }

  private change(owner: string, by: number): void {
    this.changed ??= new Map();
    this.changed.set(owner, (this.changed.get(owner) ?? 0) + by);
  }
}

export class Placer {
  private readonly use = new Map<string, PlacerUse>();

  /** `usage`: what live allocations hold per node (nodes missing from it hold nothing); only read. */
  constructor(
    private readonly nodes: NodeRecord[],
    usage: ReadonlyMap<string, NodeUse>,
  ) {
    for (const n of nodes) this.use.set(n.ID, new PlacerUse(usage.get(n.ID)));
  }

  /** Frees what an allocation that is about to stop holds, so its replacement can use it. */
  release(a: AllocRecord): void {
    this.use.get(a.NodeID)?.give(heldBy(a), ownerOf(a));
  }

  /** Places one allocation of the group, or returns the metrics of the failure. */
  place(
    job: Job,
    groupName: string,
    opts: { onlyNode?: string; avoidNode?: string } = {},
  ): Placed | { failed: AllocMetricRecord } {
    const started = performance.now();
    const group = findGroup(job, groupName)!;
    const ask = groupAsk(group);
    const metrics = emptyMetrics();
    const ns = job.Namespace ?? 'default';
    const owner = `${ns}/${job.ID}/${groupName}`;
    const jobOwner = `${ns}/${job.ID}/`;
    const constraints: ConstraintLike[] = [
      ...(job.Constraints ?? []),
      ...(group.Constraints ?? []),
      ...(group.Tasks ?? []).flatMap((t) => t.Constraints ?? []),
    ];
    const drivers = new Set((group.Tasks ?? []).map((t) => t.Driver ?? 'mock'));
    const datacenters = job.Datacenters && job.Datacenters.length > 0 ? job.Datacenters : ['*'];
    const pool = job.NodePool ?? 'default';
    let best: { node: NodeRecord; score: number; scores: Record<string, number> } | undefined;
    const scoreMeta: NonNullable<AllocMetricRecord['ScoreMetaData']> = [];

    for (const node of this.nodes) {
      if (opts.onlyNode && node.ID !== opts.onlyNode) continue;
      if (pool !== 'all' && node.NodePool !== pool) continue;
      metrics.NodesInPool++;
      if (!datacenters.some((dc) => globMatch(dc, node.Datacenter))) continue;
      if (node.Status !== 'ready' || node.SchedulingEligibility !== 'eligible') continue;
      metrics.NodesAvailable[node.Datacenter] = (metrics.NodesAvailable[node.Datacenter] ?? 0) + 1;
      metrics.NodesEvaluated++;
      const missingDriver = [...drivers].find((d) => !node.Drivers[d]?.Detected || !node.Drivers[d]?.Healthy);
      if (missingDriver) {
        metrics.NodesFiltered++;
        metrics.ConstraintFiltered = bump(metrics.ConstraintFiltered, `missing drivers`);
        continue;
      }
      const failedConstraint = constraints.find((c) => !checkConstraint(c, node));
      if (failedConstraint) {
        metrics.NodesFiltered++;
        metrics.ConstraintFiltered = bump(metrics.ConstraintFiltered, constraintKey(failedConstraint));
        continue;
      }
      const u = this.use.get(node.ID)!;
      const distinct = this.distinctViolation(group, node, u, constraints, owner, jobOwner);
      if (distinct) {
        metrics.NodesFiltered++;
        metrics.ConstraintFiltered = bump(metrics.ConstraintFiltered, distinct);
        continue;
      }
      const exhausted = exhaustedDimension(node, u, ask);
      if (exhausted) {
        metrics.NodesExhausted++;
        metrics.DimensionExhausted = bump(metrics.DimensionExhausted, exhausted);
        metrics.ClassExhausted = bump(metrics.ClassExhausted, node.NodeClass || '');
        continue;
      }
      const scores = this.score(job, group, node, u, ask, owner);
      if (opts.avoidNode === node.ID) scores['node-reschedule-penalty'] = -1;
      const values = Object.values(scores);
      const score = values.reduce((a, b) => a + b, 0) / values.length;
      scoreMeta.push({ NodeID: node.ID, Scores: scores, NormScore: score });
      if (!best || score > best.score) best = { node, score, scores };
    }
    metrics.AllocationTime = Math.round((performance.now() - started) * 1e6);
    if (!best) return { failed: metrics };
    metrics.ScoreMetaData = scoreMeta.sort((a, b) => b.NormScore - a.NormScore).slice(0, 5);
    metrics.Scores = Object.fromEntries(
      Object.entries(best.scores).map(([k, v]) => [`${best!.node.ID}.${k}`, v]),
    );
    this.use.get(best.node.ID)!.take(ask, owner);
    return { node: best.node, metrics };
  }

  private distinctViolation(
    group: Group,
    node: NodeRecord,
    u: PlacerUse,
    constraints: ConstraintLike[],
    owner: string,
    jobOwner: string,
  ): string | undefined {
    for (const c of constraints) {
      const op = c.Operand ?? '';
      // A group's own constraint counts that group's allocations; the job's counts all its groups
      // (Nomad's propertyset filters by task group the same way).
      const groupLevel = (group.Constraints ?? []).includes(c as never);
      const held = (use: PlacerUse): number => (groupLevel ? use.count(owner) : use.countUnder(jobOwner));
      if (op === 'distinct_hosts' && (c.RTarget ?? 'true') !== 'false') {
        if (held(u) > 0) return 'distinct_hosts';
      }
      if (op === 'distinct_property' && c.LTarget) {
        const limit = Number(c.RTarget || 1) || 1;
        const value = resolveTarget(c.LTarget, node);
        if (value === undefined) return `missing property ${JSON.stringify(c.LTarget)}`;
        let used = 0;
        for (const otherNode of this.nodes) {
          if (resolveTarget(c.LTarget, otherNode) !== value) continue;
          used += held(this.use.get(otherNode.ID)!);
        }
        if (used >= limit) return `distinct_property: ${c.LTarget}=${value} used by ${used} allocs`;
      }
    }
    return undefined;
  }

  private score(
    job: Job,
    group: Group,
    node: NodeRecord,
    u: PlacerUse,
    ask: Ask,
    owner: string,
  ): Record<string, number> {
    const scores: Record<string, number> = {};
    // Nomad's bin-packing fit: higher when the node ends up fuller.
    const freeCpu = 1 - (u.cpu + ask.cpu) / node.NodeResources.Cpu.CpuShares;
    const freeMem = 1 - (u.memoryMB + ask.memoryMB) / node.NodeResources.Memory.MemoryMB;
    const fit = 20 - (Math.pow(10, freeCpu) + Math.pow(10, freeMem));
    scores['binpack'] = Math.min(18, Math.max(0, fit)) / 18;
    const collisions = u.count(owner);
    if (collisions > 0) scores['job-anti-affinity'] = -1 * ((collisions + 1) / Math.max(1, group.Count ?? 1));
    const affinities = [
      ...(job.Affinities ?? []),
      ...(group.Affinities ?? []),
      ...(group.Tasks ?? []).flatMap((t) => t.Affinities ?? []),
    ];
    if (affinities.length > 0) {
      let total = 0;
      let sumWeight = 0;
      for (const a of affinities) {
        const w = a.Weight ?? 50;
        sumWeight += Math.abs(w);
        if (checkConstraint(a, node)) total += w;
      }
      if (total !== 0) scores['node-affinity'] = total / sumWeight;
    }
    const spreads = [...(job.Spreads ?? []), ...(group.Spreads ?? [])];
    for (const s of spreads) {
      if (!s.Attribute) continue;
      const value = resolveTarget(s.Attribute, node);
      if (value === undefined) continue;
      let here = 0;
      let total = 0;
      for (const otherNode of this.nodes) {
        const n = this.use.get(otherNode.ID)!.count(owner);
        total += n;
        if (resolveTarget(s.Attribute, otherNode) === value) here += n;
      }
      const targets = s.SpreadTarget ?? [];
      const target = targets.find((t) => t.Value === value);
      const desiredShare = target
        ? (target.Percent ?? 0) / 100
        : 1 / Math.max(1, distinctValues(this.nodes, s.Attribute));
      const share = total === 0 ? 0 : here / (total + 1);
      scores['allocation-spread'] = Math.max(
        -1,
        Math.min(1, (desiredShare - share) * ((s.Weight ?? 50) / 50)),
      );
    }
    return scores;
  }
}

function distinctValues(nodes: NodeRecord[], attribute: string): number {
  return new Set(nodes.map((n) => resolveTarget(attribute, n)).filter((v) => v !== undefined)).size;
}

function exhaustedDimension(node: NodeRecord, u: Ask, ask: Ask): string | undefined {
  if (u.cpu + ask.cpu > node.NodeResources.Cpu.CpuShares) return 'cpu';
  if (u.memoryMB + ask.memoryMB > node.NodeResources.Memory.MemoryMB) return 'memory';
  if (u.diskMB + ask.diskMB > node.NodeResources.Disk.DiskMB) return 'disk';
  return undefined;
}
