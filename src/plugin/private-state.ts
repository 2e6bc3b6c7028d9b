/**
 * What a plan hands to its apply through Terraform's planned_private bytes: the handler's own decision
 * (action, the state it planned with UNKNOWN markers, its private data such as the job's check-and-set
 * index). Terraform keeps these bytes in saved plans and gives them back verbatim, so apply runs the
 * handler on exactly what it planned, as our engine does with its saved plans.
 */
import { z } from 'zod';
import type { Action, PlannedChange } from '../provider/resource';

const PlannedPrivateSchema = z.object({
  v: z.literal(1),
  action: z.enum(['noop', 'create', 'update', 'replace', 'delete']),
  planned: z.record(z.string(), z.unknown()).nullable().optional(),
  private: z.record(z.string(), z.unknown()).optional(),
  replacePaths: z.array(z.array(z.union([z.string(), z.number()]))).optional(),
});

export interface StoredPlan {
  action: Action;
  planned?: Record<string, unknown> | null;
  private?: Record<string, unknown>;
  replacePaths?: (string | number)[][];
}

export function encodePlannedPrivate(change: PlannedChange): Buffer {
  const stored = {
    v: 1,
    action: change.action,
    // A no-op applies nothing: the prior state is all apply needs, and Terraform sends it anyway.
    ...(change.action !== 'noop' ? { planned: change.planned } : {}),
    ...(change.private ? { private: change.private } : {}),
    ...(change.replacePaths ? { replacePaths: change.replacePaths } : {}),
  };
  return Buffer.from(JSON.stringify(stored));
}

/** The stored plan, or null when the bytes are empty or not ours (then apply plans again). */
export function decodePlannedPrivate(bytes: Uint8Array | null | undefined): StoredPlan | null {
  if (!bytes || bytes.length === 0) return null;
  try {
    const parsed = PlannedPrivateSchema.safeParse(JSON.parse(Buffer.from(bytes).toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
