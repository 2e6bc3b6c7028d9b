/**
 * A dry run's answer as a real Nomad 1.9 server returns it (test/fixtures/nomad/plan-1.9.json, written
 * from Nomad's structs: a job diff nested four objects deep, Go zero values, Nomad's own names). The
 * engine decodes it with the Diff passed on unparsed below its top level: it must keep exactly what
 * the field-by-field parse gives (the plan JSON's job_diff is written from it), keys in the same order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dialectFor } from '../../../src/api/dialect';
import { JobPlanPassedDiffResponseSchema, JobPlanResponseSchema } from '../../../src/api/sched/schemas';

const wire = (): unknown =>
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'nomad', 'plan-1.9.json'), 'utf8'));
const nomad = dialectFor('scheduler', 'nomad');

describe('a plan answer from Nomad 1.9, decoded as the engine decodes it', () => {
  const full = JobPlanResponseSchema.parse(nomad.fromWire(wire()));
  const passed = JobPlanPassedDiffResponseSchema.parse(nomad.fromWire(wire()));

  it('keeps the diff exactly as the full parse does, key order included', () => {
    expect(JSON.stringify(passed.Diff)).toBe(JSON.stringify(full.Diff));
    expect(passed.Diff).toMatchObject({ Type: 'Edited', ID: 'web' });
  });

  it('reads the annotations, the index and the rest as the full parse does', () => {
    expect(JSON.stringify({ ...passed, Diff: null })).toBe(JSON.stringify({ ...full, Diff: null }));
    expect(passed.JobModifyIndex).toBe(41);
    expect(passed.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({ DestructiveUpdate: 2, Place: 1 });
  });

  it('still refuses a Diff that is not an object, and a malformed part the engine reads', () => {
    const notObject = { ...(wire() as object), Diff: 'Edited' };
    expect(JobPlanPassedDiffResponseSchema.safeParse(notObject).success).toBe(false);
    const badIndex = { ...(wire() as object), JobModifyIndex: '41' };
    expect(JobPlanPassedDiffResponseSchema.safeParse(badIndex).success).toBe(false);
    const badType = { ...(wire() as object), Diff: { Type: 3 } };
    expect(JobPlanPassedDiffResponseSchema.safeParse(badType).success).toBe(false);
  });
});
