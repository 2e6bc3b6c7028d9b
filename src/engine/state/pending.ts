/**
 * Creates in flight, journaled beside the state (`<state>.pending`, one JSON line per create) before
 * each create starts: after a kill, the next run learns that these objects may exist, looks them up
 * and records them instead of losing track of them (or failing on "already exists").
 *
 * A journal rather than a state write because a line costs an append, while a state write costs
 * serializing every resource: with 1,000 jobs, a state write per create start nearly doubled the
 * deploy. The journal only matters after a run that did not finish: a run that ends writes every
 * pending record it still has into the state, then removes the journal.
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
});
export type PendingLine = { address: string; provider?: string; object: InstanceObject };

/** The journal's lines; a torn last line (killed mid-append) is skipped. */
export async function readPending(statePath: string): Promise<PendingLine[]> {
  let text: string;
  try {
    text = await readFile(pendingPathFor(statePath), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: PendingLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const parsed = PendingLineSchema.safeParse(JSON.parse(raw));
      if (parsed.success) out.push(parsed.data as PendingLine);
    } catch {
      // torn line
    }
  }
  return out;
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
