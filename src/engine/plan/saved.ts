/**
 * Saved plans (`plan --out FILE`, `deploy FILE`): exactly the changes a reviewer saw, tied to the state
 * (lineage and serial) and the configuration (hash) they were made against. Applying one to anything
 * else is refused. Like Terraform's plan files, a saved plan holds the values it will write, secrets
 * included: it is written with mode 0600 and should be treated like the state.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { StateFile, writeFileAtomic } from '../state';
import type { StackPlan } from './types';

const SAVED_PLAN_FORMAT = 'cdktf-sched-plan';
/**
 * Written as `plan_format_version`, never `version`: terraform reads any JSON file with a top-level
 * `version` as a state file, so `terraform show -json` printed an empty state and exited 0 for our
 * plans. Without it terraform refuses the file ("couldn't load the provided path as either a local
 * plan file ... or a saved cloud plan") and exits 1. Version 1 plans (with `version`) still load.
 */
const SAVED_PLAN_VERSION = 2;

const SavedPlanVersion = z.union([
  z.object({ plan_format_version: z.literal(SAVED_PLAN_VERSION) }),
  z.object({ version: z.literal(1) }),
]);

const SavedPlanSchema = z.looseObject({
  format: z.literal(SAVED_PLAN_FORMAT),
  plan: z.looseObject({
    stack: z.string(),
    mode: z.enum(['normal', 'destroy', 'refresh-only']),
    stateLineage: z.string(),
    stateSerial: z.number(),
    configHash: z.string(),
    instances: z.array(z.looseObject({ address: z.string() })),
    data: z.array(z.unknown()),
    outputs: z.array(z.unknown()),
    outputChanges: z.array(z.unknown()),
    variables: z.record(z.string(), z.unknown()),
    diagnostics: z.array(z.unknown()),
    errored: z.boolean(),
    createdAt: z.string(),
  }),
  /** The state the plan was made against, as terraform's state file text (absent in older plans). */
  prior_state: z.string().optional(),
});

export class StalePlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StalePlanError';
  }
}

/**
 * Writes the plan; with the state it was made against (`prior_state`, as terraform's plan files hold
 * it), so `show --json PLANFILE` prints the same prior_state as the plan did.
 */
export async function savePlan(file: string, plan: StackPlan, priorState?: StateFile): Promise<void> {
  const text = JSON.stringify(
    {
      format: SAVED_PLAN_FORMAT,
      plan_format_version: SAVED_PLAN_VERSION,
      plan,
      ...(priorState ? { prior_state: priorState.serialize() } : {}),
    },
    null,
    1,
  );
  await writeFileAtomic(file, text + '\n', { mode: 0o600 });
}

export async function loadPlan(file: string): Promise<StackPlan> {
  return (await loadSavedPlan(file)).plan;
}

/** The plan and, when it was saved with it, the state it was made against. */
export async function loadSavedPlan(file: string): Promise<{ plan: StackPlan; priorState?: StateFile }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read saved plan ${file}: ${(e as Error).message}`);
  }
  const r = SavedPlanSchema.safeParse(raw);
  const v = SavedPlanVersion.safeParse(raw);
  if (r.success && !v.success)
    throw new Error(`${file} is a cdktf-sched saved plan of a version this release does not read`);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`${file} is not a cdktf-sched saved plan (${issue.path.join('.')}: ${issue.message})`);
  }
  const plan = r.data.plan as unknown as StackPlan;
  const prior = r.data.prior_state;
  return prior === undefined
    ? { plan }
    : { plan, priorState: StateFile.parse(prior, `${file} (prior_state)`) };
}

/** Refuses a plan made against another state or configuration than the current ones. */
export function checkPlanIsCurrent(
  plan: StackPlan,
  current: { stack: string; lineage: string; serial: number; configHash: string },
): void {
  if (plan.errored) throw new StalePlanError('the saved plan has errors and cannot be applied');
  if (plan.stack !== current.stack) {
    throw new StalePlanError(`the saved plan is for stack "${plan.stack}", not "${current.stack}"`);
  }
  if (plan.stateLineage !== current.lineage) {
    throw new StalePlanError(
      `Saved plan is for a different state (lineage ${plan.stateLineage}, current ${current.lineage}); create a new plan`,
    );
  }
  if (plan.stateSerial !== current.serial) {
    throw new StalePlanError(
      `Saved plan is stale: the state changed since it was made (serial ${plan.stateSerial} -> ${current.serial}); create a new plan`,
    );
  }
  if (plan.configHash !== current.configHash) {
    throw new StalePlanError(
      'Saved plan is stale: the configuration changed since it was made; create a new plan',
    );
  }
}
