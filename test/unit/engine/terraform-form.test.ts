/**
 * The form the engine records state in, on a real resource schema (sched_namespace: `description` and
 * `meta` optional, `id` computed): unset arguments null as terraform records them, and a state an older
 * engine wrote with "" rewritten when the plan changes nothing.
 */
import { heapAfterGc as heap } from '../../helpers/heap';
import { recordForm, recordedState } from '../../../src/engine/terraform-form';
import { jobShape } from '../../../src/provider/sched/job/schema';
import { namespaceShape } from '../../../src/provider/sched/namespace';
import { terraformBlock } from '../../../src/provider/schema';
import type { PlannedChange } from '../../../src/provider/resource';

const block = terraformBlock(namespaceShape);
const handlerState = { name: 'apps', description: '', meta: null, id: 'apps' };

describe('recorded state', () => {
  it('records an unset description as null and a set one as configured', () => {
    const create: PlannedChange = { action: 'create', prior: null, planned: handlerState, diagnostics: [] };
    const unset = recordForm(block, create, { name: 'apps' }, undefined);
    expect(recordedState(block, handlerState, unset.recordAs)).toEqual({
      ...handlerState,
      description: null,
    });
    const set = recordForm(block, create, { name: 'apps', description: '' }, undefined);
    expect(recordedState(block, handlerState, set.recordAs)).toEqual(handlerState);
    expect(unset.upgrade).toBeUndefined();
  });

  it('rewrites a state stored with "" for an unset argument when nothing else changes', () => {
    const noop: PlannedChange = {
      action: 'noop',
      prior: handlerState,
      planned: handlerState,
      diagnostics: [],
    };
    expect(recordForm(block, noop, { name: 'apps' }, handlerState).upgrade).toEqual({
      ...handlerState,
      description: null,
    });
    const current = { ...handlerState, description: null };
    expect(recordForm(block, noop, { name: 'apps' }, current).upgrade).toBeUndefined();
  });

  it('keeps the handler state as it is for a plan saved without the recorded form', () => {
    expect(recordedState(block, handlerState, undefined)).toBe(handlerState);
  });
});

describe('memory', () => {
  it('keeps the recorded form of many instances compact (a plan holds one per instance)', () => {
    const jobBlock = terraformBlock(jobShape);
    const config = (i: number): Record<string, unknown> => ({ jobspec: `{"ID":"job-${i}"}` });
    const planned = (i: number): Record<string, unknown> => ({
      ...config(i),
      id: `job-${i}`,
      job_modify_index: i,
      task_groups: [],
    });
    const inputs = Array.from({ length: 10_000 }, (_, i) => ({ planned: planned(i), config: config(i) }));
    const before = heap();
    const kept = inputs.map((x) =>
      recordForm(
        jobBlock,
        { action: 'create', prior: null, planned: x.planned, diagnostics: [] },
        x.config,
        undefined,
      ),
    );
    const perInstance = (heap() - before) / kept.length;
    expect(kept[7]!.recordAs).toMatchObject({ id: 'job-7', detach: null, task_groups: [] });
    // In V8's hash-table form (properties set one by one under computed names): 1,660 bytes; now 300.
    expect(perInstance).toBeLessThan(600);
  });
});
