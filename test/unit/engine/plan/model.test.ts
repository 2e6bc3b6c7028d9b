/**
 * The text's plan model: printPlan builds it of the instances the text mentions only (mentionedInText),
 * and the text must read exactly as from the whole model, secrets of the instances left out included.
 */
import type { PlannedChange } from '../../../../src/provider/resource';
import { mentionedInText, planModel } from '../../../../src/engine/plan/model';
import type { InstancePlan, StackPlan } from '../../../../src/engine/plan/types';
import { renderText } from '../../../../src/engine/render/text';

const SECRET = 'hunter2-left-out-of-the-model';

function instance(
  name: string,
  change: Partial<PlannedChange>,
  extra: Partial<InstancePlan> = {},
): InstancePlan {
  const prior = { id: name, token: `${name}-value` };
  return {
    address: `sched_job.${name}`,
    resourceAddress: `sched_job.${name}`,
    type: 'sched_job',
    name,
    provider: 'sched',
    providerName: 'sched',
    mode: 'managed',
    change: { action: 'noop', prior, planned: prior, diagnostics: [], ...change },
    dependencies: [],
    createBeforeDestroy: false,
    orphan: false,
    sensitive: [],
    schemaVersion: 0,
    ...extra,
  };
}

function stackPlan(instances: InstancePlan[]): StackPlan {
  return {
    stack: 'app',
    mode: 'normal',
    stateLineage: 'lineage',
    stateSerial: 1,
    configHash: 'hash',
    instances,
    data: [],
    outputs: [],
    outputChanges: [],
    variables: {},
    diagnostics: [],
    errored: false,
    createdAt: '2026-12-07T00:00:00Z',
  };
}

const silent = instance('silent', {}, { sensitive: ['token'] });
const secretOfSilent = { id: 'silent', token: SECRET };
silent.change = { ...silent.change, prior: secretOfSilent, planned: secretOfSilent };
// Another instance's error that quotes the secret: only the second net (text scrubbing) catches it.
const failing = instance('failing', {
  diagnostics: [{ severity: 'error', summary: 'Cannot plan', detail: `token ${SECRET} refused` }],
});
const created = instance('created', { action: 'create', prior: null, planned: { id: 'created' } });
const moved = instance('moved', {}, { previousAddress: 'sched_job.old' });
const annotated = instance('annotated', {
  annotations: {
    scheduler: { desiredTGUpdates: {}, failedTGAllocs: null, jobDiff: null, jobModifyIndex: 3 },
  },
});

describe('the plan model of the text', () => {
  it('mentions changes, moves, diagnostics and scheduler notes, not a silent no-op', () => {
    expect([silent, failing, created, moved, annotated].map(mentionedInText)).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it('renders the same text as the whole model, and still scrubs the secrets of what it left out', () => {
    const plan = stackPlan([silent, failing, created, moved, annotated]);
    const whole = renderText(planModel(plan), { color: false });
    const model = planModel(plan, undefined, mentionedInText);
    expect(model.resourceChanges.map((rc) => rc.address)).not.toContain('sched_job.silent');
    expect(renderText(model, { color: false })).toBe(whole);
    expect(whole).toContain('token (sensitive value) refused');
    expect(whole).not.toContain(SECRET);
  });

  it('of unchanged resources only, still says there are no changes', () => {
    const plan = stackPlan([silent]);
    const text = renderText(planModel(plan, undefined, mentionedInText), { color: false });
    expect(text).toBe(renderText(planModel(plan), { color: false }));
    expect(text).toContain('No changes.');
  });
});
