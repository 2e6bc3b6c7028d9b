/**
 * Moved blocks at apply time: the renames the plan made in its copy of the state are made in the
 * real state first, in the plan's order, so every later step finds each object at its new address.
 */
import type { ApplyOptions } from '../apply';

export async function applyMoves(opts: ApplyOptions): Promise<void> {
  const moves = opts.plan.moves ?? [];
  if (moves.length === 0) return;
  await opts.writer.update((st) => {
    for (const m of moves) st.move(m.from, m.to);
  });
}
