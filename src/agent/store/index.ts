export { Store } from './store';
export type { Txn } from './txn';
export type { StoreOptions, Indexed, WatchSpec, Change, Commit } from './types';
