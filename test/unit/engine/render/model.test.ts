import {
  resourceChangeFromPlanned,
  sortedChanges,
  splitAddress,
  summarize,
  summaryCounts,
} from '../../../../src/engine/render/model';
import { UNKNOWN } from '../../../../src/provider/values';
import { fullPlan } from './fixtures';

describe('plan model', () => {
  it('counts a replace as one add and one destroy, reads and no-ops as neither', () => {
    const s = summarize(fullPlan());
    expect(s).toEqual({ import: 0, add: 2, change: 1, destroy: 2, read: 1, noop: 1, forget: 0 });
    expect(summaryCounts(s)).toBe('2 to add, 1 to change, 2 to destroy');
  });

  it('splits addresses', () => {
    expect(splitAddress('data.sched_job.x')).toEqual({ mode: 'data', type: 'sched_job', name: 'x' });
    expect(splitAddress('sched_job.web["k"]')).toEqual({
      mode: 'managed',
      type: 'sched_job',
      name: 'web',
      index: 'k',
    });
    expect(splitAddress('sched_job.web[3]').index).toBe(3);
    expect(() => splitAddress('nonsense')).toThrow(/cannot split/);
  });

  it('sorts changes by address as Terraform does', () => {
    const names = sortedChanges(fullPlan().resourceChanges).map((rc) => rc.address);
    expect(names).toEqual([
      'data.sched_allocations.all',
      'reg_namespace.team',
      'sched_job.api["eu"]',
      'sched_job.same',
      'sched_job.web',
      'sched_namespace.old',
    ]);
  });

  it('builds a change from a handler PlannedChange, finding unknowns and sensitive attributes', () => {
    const rc = resourceChangeFromPlanned({
      address: 'sched_job.web[0]',
      constructPath: 'app/web',
      sensitive: ['vault_token'],
      planned: {
        action: 'replace',
        replacePaths: [['namespace']],
        prior: { id: 'web', namespace: 'a', vault_token: 't' },
        planned: { id: UNKNOWN, namespace: 'b', vault_token: 't', tags: [UNKNOWN] },
        annotations: {
          scheduler: {
            desiredTGUpdates: { web: { Place: 1 } },
            failedTGAllocs: null,
            jobDiff: null,
            jobModifyIndex: 0,
          },
        },
        diagnostics: [],
      },
    });
    expect(rc).toMatchObject({
      type: 'sched_job',
      name: 'web',
      index: 0,
      providerName: 'registry.terraform.io/cdktf-sched/sched',
      action: 'replace',
      actionReason: 'replace_because_cannot_update',
      afterUnknown: [['id'], ['tags', 0]],
      beforeSensitive: [['vault_token']],
      afterSensitive: [['vault_token']],
      replacePaths: [['namespace']],
      constructPath: 'app/web',
    });
    expect(rc.scheduler?.desiredTGUpdates.web?.Place).toBe(1);
    const del = resourceChangeFromPlanned({
      address: 'reg_namespace.n',
      planned: { action: 'delete', prior: { id: 'n' }, planned: null, diagnostics: [] },
    });
    expect(del).toMatchObject({
      after: null,
      afterUnknown: [],
      providerName: 'registry.terraform.io/cdktf-sched/reg',
    });
  });
});
