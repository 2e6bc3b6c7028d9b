/**
 * Creates in flight, journaled beside the state (`<state>.pending`, one JSON line per create) before
 * each create starts: after a kill, the next run learns that these objects may exist, looks them up
 * and records them instead of losing track of them (or failing on "already exists").
 *
 * A journal rather than a state write because a line costs an append, while a state write costs
 * serializing every resource: with 1,000 jobs, a state write per create start nearly doubled the
 * deploy. The journal only matters after a run that did not finish: a run that ends writes every
 * pending record it still has into the state, then removes the journal.
 *
 * A create next in line for a slot is journaled ahead, while the running ones run, with a token
 * (`ahead`); when it starts, a `started` line names that token. A line journaled ahead whose create
 * never started is not a create in flight: reading the journal drops it, so that a job someone else
 * registers under that ID later is never taken for ours.
 */
import { readFile, unlink } from 'node:fs/promises';
import { z } from 'zod';
import { StateFile, type InstanceObject } from './state-file';

export function pendingPathFor(statePath: string): string {
  return `${statePath}.pending`;
}

const PendingLineSchema = z.object({
  address: z.string().min(1),
  provider: z.string().optional(),
  object: z.looseObject({
    schemaVersion: z.number().int().nonnegative(),
    attributes: z.record(z.string(), z.unknown()),
  }),
  ahead: z.string().min(1).optional(),
});
const StartedLineSchema = z.object({ started: z.string().min(1) });
export type PendingLine = { address: string; provider?: string; object: InstanceObject; ahead?: string };

/**
 * The journal's creates that may have started (each without its `ahead` token); a torn last line
 * (killed mid-append) is skipped.
 */
export async function readPending(statePath: string): Promise<PendingLine[]> {
  let text: string;
  try {
    text = await readFile(pendingPathFor(statePath), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const lines: PendingLine[] = [];
  const started = new Set<string>();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const json: unknown = JSON.parse(raw);
      const line = PendingLineSchema.safeParse(json);
      if (line.success) lines.push(line.data as PendingLine);
      const mark = StartedLineSchema.safeParse(json);
      if (mark.success) started.add(mark.data.started);
    } catch {
      // torn line
    }
  }
  return lines
    .filter((l) => l.ahead === undefined || started.has(l.ahead))
    .map(({ ahead: _ahead, ...line }) => line);
}

export async function removePending(statePath: string): Promise<void> {
  await unlink(pendingPathFor(statePath)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}

/**
 * Adds the journal's creates the state does not know as pending records (the state knows better
 * about an address it has: the create finished, or what it left was recorded). Returns their addresses.
 */
export function mergePending(state: StateFile, lines: PendingLine[]): string[] {
  const added: string[] = [];
  for (const l of lines) {
    try {
      if (state.has(l.address)) continue;
      state.set(
        l.address,
        { ...l.object, createPending: true },
        l.provider !== undefined ? { provider: l.provider } : {},
      );
      added.push(l.address);
    } catch {
      // An address the state cannot hold (changed by hand since): nothing to recover there.
    }
  }
  return added;
}

export interface LoadedState {
  state: StateFile;
  /**
   * Fingerprint of the file as read, for a StateWriter, when the journal added to it; undefined when
   * the state is the file as read (encoding a large state only to compare it costs a plan memory).
   */
  persistedFingerprint: string | undefined;
}

/** Loads a state with the creates an unfinished run left in its journal. */
export async function loadStateWithPending(statePath: string): Promise<LoadedState> {
  const state = await StateFile.load(statePath);
  const lines = await readPending(statePath);
  const persistedFingerprint = lines.length > 0 ? state.fingerprint() : undefined;
  mergePending(state, lines);
  return { state, persistedFingerprint };
}
