/** `--target`: which configuration graph nodes a targeted plan covers. */
import { ConfigError, diagnostic } from '../config';
import type { buildConfigGraph } from '../graph';
import { parseAddress } from '../state';

/** The targeted node ids plus everything they depend on; undefined when not targeting. */
export function targetClosure(
  targets: string[] | undefined,
  graph: ReturnType<typeof buildConfigGraph>,
): Set<string> | undefined {
  if (!targets || targets.length === 0) return undefined;
  const out = new Set<string>();
  for (const t of targets) {
    let id = t;
    try {
      const a = parseAddress(t);
      id = `${a.mode === 'data' ? 'data.' : ''}${a.type}.${a.name}`;
    } catch {
      // not an instance address: maybe output.x or a block id
    }
    if (!graph.hasNode(id))
      throw new ConfigError([diagnostic({ address: t }, `--target ${t} names nothing in this stack`)]);
    out.add(id);
    out.add(t);
    for (const anc of graph.ancestors(id)) out.add(anc);
  }
  return out;
}
