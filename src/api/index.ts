export * from './errors';
export * from './duration';
export * from './env';
export * from './transport';
export * from './watch';
// The two clients at the top, the rest of each service under its own name: both services have a
// NamespacesApi, an AclApi and schemas of the same names.
export { SchedClient, type SchedClientOptions } from './sched/client';
export { RegClient, type RegClientOptions } from './reg/client';
export * as sched from './sched';
export * as reg from './reg';
