/**
 * The dev agent's state store, shared by the scheduler and the registry (see store.ts). Values read back are
 * frozen, JSON-shaped copies: spread or clone one before changing it, then put() the new version.
 */
export { Store } from './store';
export { adoptJsonForm } from './stored-copy';
export type { Txn } from './txn';
export type { StoreOptions, Indexed, WatchSpec, Change, Commit } from './types';
