/**
 * undici without undici's index at start-up. The index also builds fetch, WebSocket, the HTTP cache,
 * the mock and proxy agents, which makes Node load its own copy of undici, worker_threads, perf_hooks
 * and web streams at every start of the command line and of the plugins. The transport needs the
 * pool alone; the rare users of the rest (the http state backend, registry peering) load the index
 * on first use.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Undici from 'undici';
import { lazyModule } from '../common/lazy-module';

// The index is what puts `request` and the other calls on every dispatcher's prototype, so this
// does the same with the same functions (the index repeats it harmlessly when it loads).
const dispatcherBase = require('undici/lib/dispatcher/dispatcher') as { prototype: object };
Object.assign(dispatcherBase.prototype, require('undici/lib/api') as object);

export const Pool = require('undici/lib/dispatcher/pool') as typeof Undici.Pool;
export type Pool = Undici.Pool;

/** The whole of undici (Agent, request, ...), loaded on first use. */
export const undici = lazyModule(() => require('undici') as typeof Undici);
