import {
  describePlacementFailure,
  describeUpdates,
  placementFailures,
  schedulerSummary,
} from '../../../../src/engine/render/scheduler';
import type { SchedulerAnnotations } from '../../../../src/provider/resource';

const ann = (over: Partial<SchedulerAnnotations>): SchedulerAnnotations => ({
  desiredTGUpdates: {},
  failedTGAllocs: null,
  jobDiff: null,
  jobModifyIndex: 1,
  ...over,
});

describe('scheduler annotations in words', () => {
  it('orders updates and attaches canaries to destructive updates', () => {
    expect(describeUpdates({ Stop: 1, Canary: 1, DestructiveUpdate: 2, Place: 3, Ignore: 0 })).toBe(
      'Place 3, Destructive update 2 (canary 1), Stop 1',
    );
    expect(describeUpdates({ Canary: 1, Ignore: 2 })).toBe('Canary 1, Ignore 2');
    expect(describeUpdates({ InPlaceUpdate: 0 })).toBe('no allocation changes');
    expect(describeUpdates({ Migrate: 1, SomethingNew: 4 })).toBe('Migrate 1, SomethingNew 4');
  });

  it('summarizes one group plainly and several by name', () => {
    expect(schedulerSummary(ann({ desiredTGUpdates: { web: { Place: 1 } } }))).toBe('Place 1');
    expect(schedulerSummary(ann({ desiredTGUpdates: { web: { Place: 1 }, api: { Stop: 2 } } }))).toBe(
      'api: Stop 2; web: Place 1',
    );
  });

  it('explains placement failures from the allocation metrics', () => {
    expect(
      describePlacementFailure({
        NodesEvaluated: 5,
        ConstraintFiltered: { '${attr.kernel.name} = windows': 2 },
        ClassFiltered: { gpu: 1 },
        NodesExhausted: 2,
        DimensionExhausted: { cpu: 1, memory: 2 },
      }),
    ).toEqual([
      'Class "gpu" filtered 1 node',
      'Constraint "${attr.kernel.name} = windows" filtered 2 nodes',
      'Resources exhausted on 2 nodes (memory, cpu)',
    ]);
    expect(describePlacementFailure({ NodesEvaluated: 0, NodesAvailable: { dc9: 0 } })).toEqual([
      'No nodes are available in datacenter dc9',
    ]);
    expect(
      placementFailures(
        ann({
          failedTGAllocs: {
            web: {
              NodesEvaluated: 3,
              NodesExhausted: 3,
              DimensionExhausted: { memory: 3 },
              CoalescedFailures: 1,
            },
          },
        }),
      ),
    ).toEqual(['Task group web: 2 not placed: Resources exhausted on 3 nodes (memory)']);
  });
});
