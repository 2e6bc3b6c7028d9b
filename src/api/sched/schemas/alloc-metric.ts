import { z } from 'zod';
import { Duration, OptNumber, OptString, StringList, list, map } from './common';

/*
 * Apart from the allocation: a plan's answer and an evaluation carry these metrics, and a plan decodes
 * no allocation (its module, which embeds the job, costs a command that loads it a few M instructions).
 */
export const NodeScoreMetaSchema = z.looseObject({
  NodeID: OptString,
  Scores: map(z.number()),
  NormScore: OptNumber,
});

export const AllocMetricSchema = z.looseObject({
  NodesEvaluated: OptNumber,
  NodesFiltered: OptNumber,
  NodesInPool: OptNumber,
  NodePool: OptString,
  NodesAvailable: map(z.number()),
  ClassFiltered: map(z.number()),
  ConstraintFiltered: map(z.number()),
  NodesExhausted: OptNumber,
  ClassExhausted: map(z.number()),
  DimensionExhausted: map(z.number()),
  QuotaExhausted: StringList,
  ResourcesExhausted: map(z.unknown()),
  Scores: map(z.number()),
  ScoreMetaData: list(NodeScoreMetaSchema),
  AllocationTime: Duration,
  CoalescedFailures: OptNumber,
});
export type AllocMetric = z.infer<typeof AllocMetricSchema>;
