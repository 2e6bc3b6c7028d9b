/** lifecycle.ignore_changes: the desired configuration keeps the prior values of the attributes it names. */
import { isIgnoredChange, type ResourceConfig } from '../config';
import type { State } from '../../provider/resource';
import { valueAt, type AttrPath } from '../../provider/values';

/** Replaces, in the desired configuration, the attributes lifecycle.ignore_changes names with their prior values. */
export function applyIgnoreChanges(r: ResourceConfig, config: State, prior: State | null): State {
  if (!prior) return config;
  const ic = r.lifecycle.ignoreChanges;
  if (ic === 'all') {
    const out: State = {};
    for (const k of Object.keys(config)) out[k] = k in prior ? prior[k] : config[k];
    return out;
  }
  if (ic.length === 0) return config;
  const out: State = structuredClone(config);
  for (const path of ic) {
    if (!isIgnoredChange(r, path)) continue;
    setPath(out, path, valueAt(prior, path));
  }
  return out;
}

function setPath(root: Record<string, unknown>, path: AttrPath, value: unknown): void {
  let cur: Record<string | number, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const next = cur[path[i]!];
    if (next === null || typeof next !== 'object') return;
    cur = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}
