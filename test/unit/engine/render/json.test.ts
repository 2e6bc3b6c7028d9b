import { EXTENSION_KEY, PLAN_FORMAT_VERSION, renderJson } from '../../../../src/engine/render/json';
import type { PlanModel, ResourceChange } from '../../../../src/engine/render/model';
import { UNKNOWN } from '../../../../src/provider/values';
import { SECRET, SECRET_2, apiCreate, fullPlan, priorState, teamReplace, webUpdate } from './fixtures';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const parse = (plan: PlanModel, opts = {}): Doc => JSON.parse(renderJson(plan, opts)) as Doc;
const only = (rc: ResourceChange): PlanModel => ({
  resourceChanges: [rc],
  outputChanges: [],
  diagnostics: [],
});
const changeOf = (doc: Doc, address: string): Doc =>
  (doc.resource_changes as Doc[]).find((r) => r.address === address)!;

describe('JSON plan', () => {
  it('has Terraform top-level fields and our extension key', () => {
    const doc = parse(fullPlan());
    expect(doc.format_version).toBe(PLAN_FORMAT_VERSION);
    expect(doc.terraform_version).toBe('1.5.0');
    expect(Object.keys(doc)).toEqual([
      'format_version',
      'terraform_version',
      'planned_values',
      'resource_changes',
      'output_changes',
      'applyable',
      'complete',
      'errored',
      EXTENSION_KEY,
    ]);
    expect(doc.applyable).toBe(true);
    expect(doc.resource_changes.map((r: Doc) => r.address)).toEqual([
      'data.sched_allocations.all',
      'reg_namespace.team',
      'sched_job.api["eu"]',
      'sched_job.same',
      'sched_job.web',
      'sched_namespace.old',
    ]);
  });

  it('encodes actions, replace order, index and replace_paths like Terraform', () => {
    const doc = parse(fullPlan());
    expect(changeOf(doc, 'reg_namespace.team').change.actions).toEqual(['delete', 'create']);
    expect(changeOf(doc, 'reg_namespace.team').change.replace_paths).toEqual([['name']]);
    expect(changeOf(doc, 'sched_job.same').change.actions).toEqual(['no-op']);
    expect(changeOf(doc, 'sched_job.api["eu"]').index).toBe('eu');
    expect(changeOf(doc, 'sched_job.web')).not.toHaveProperty('index');
    const cbd = parse(only({ ...teamReplace, createBeforeDestroy: true }));
    expect(cbd.resource_changes[0].change.actions).toEqual(['create', 'delete']);
  });

  it('leaves unknown values out of after and marks them in after_unknown', () => {
    const c = changeOf(parse(fullPlan()), 'sched_job.api["eu"]').change;
    expect(c.after).not.toHaveProperty('id');
    expect(c.after_unknown).toEqual({ id: true });
    expect(c.before).toBeNull();
    expect(c.before_sensitive).toBe(false);
    const list = parse(
      only({ ...apiCreate, after: { ids: [1, UNKNOWN] }, afterUnknown: [], afterSensitive: [] }),
    ).resource_changes[0].change;
    expect(list.after.ids).toEqual([1, null]);
    expect(list.after_unknown).toEqual({ ids: [false, true] });
  });

  it('masks sensitive values with null and marks them, never printing a secret', () => {
    const text = renderJson(fullPlan(), { priorState: priorState() });
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SECRET_2);
    const doc = JSON.parse(text) as Doc;
    const c = changeOf(doc, 'sched_job.web').change;
    expect(c.before.vault_token).toBeNull();
    expect(c.after.vault_token).toBeNull();
    expect(c.before_sensitive).toEqual({ vault_token: true, datacenters: [false, false, false] });
    expect(doc.output_changes.token).toMatchObject({ before: null, after: null, after_sensitive: true });
    expect(doc.planned_values.outputs.token).toEqual({ sensitive: true, value: null });
    expect(doc.prior_state.values.outputs.token.value).toBeNull();
    const priorWeb = doc.prior_state.values.root_module.resources.find(
      (r: Doc) => r.address === 'sched_job.web',
    );
    expect(priorWeb.values.vault_token).toBeNull();
    expect(priorWeb.sensitive_values.vault_token).toBe(true);
    // The secret also travelled inside the (non-sensitive) jobspec and the scheduler's job diff.
    expect(c.after.jobspec).toContain('"API_TOKEN":"(sensitive value)"');
    const diffText = JSON.stringify(
      doc[EXTENSION_KEY].resource_annotations['sched_job.web'].scheduler.job_diff,
    );
    expect(diffText).toContain('(sensitive value)');
  });

  it('carries scheduler annotations and construct paths under the extension key', () => {
    const ext = parse(fullPlan())[EXTENSION_KEY];
    const web = ext.resource_annotations['sched_job.web'];
    expect(web.construct_path).toBe('app/web');
    expect(web.scheduler.summary).toBe('Place 3, Destructive update 2 (canary 1), Stop 1');
    expect(web.scheduler.desired_tg_updates.web.Place).toBe(3);
    expect(web.scheduler.placement_failures).toEqual([
      'Task group web: 2 not placed: Resources exhausted on 3 nodes (memory)',
    ]);
    expect(web.scheduler.job_modify_index).toBe(10);
    expect(web.diagnostics[0].summary).toContain('update stanza');
    expect(ext.diagnostics).toHaveLength(1);
    expect(ext.resource_annotations).not.toHaveProperty('sched_job.same');
  });

  it('omits deleted resources from planned_values and marks an errored plan unapplyable', () => {
    const doc = parse({ ...fullPlan(), errored: true });
    const planned = doc.planned_values.root_module.resources.map((r: Doc) => r.address);
    expect(planned).not.toContain('sched_namespace.old');
    expect(planned).toContain('sched_job.web');
    expect(doc).toMatchObject({ applyable: false, complete: false, errored: true });
    const empty = parse({ resourceChanges: [], outputChanges: [], diagnostics: [] });
    expect(empty.applyable).toBe(false);
    expect(webUpdate.after).not.toBeNull();
  });
});
