/**
 * The heap in use after a full collection, for tests that check what a structure keeps alive (the
 * memory of a large plan). Node starts without `gc`; the flag set here exposes it to new contexts.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function heapAfterGc(): number {
  gc();
  return process.memoryUsage().heapUsed;
}
