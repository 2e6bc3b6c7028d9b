/*
 * zod schemas of the scheduler API (spec section 2 and the request/response bodies of section 4).
 * The schema is the type: `XxxSchema` validates, `Xxx` is `z.infer<typeof XxxSchema>`.
 */
export * from './schemas/constraints';
export * from './schemas/resources';
export * from './schemas/services';
export * from './schemas/job';
export * from './schemas/alloc-metric';
export * from './schemas/allocation';
export * from './schemas/evaluation';
export * from './schemas/deployment';
export * from './schemas/node';
export * from './schemas/plan';
export * from './schemas/requests';
export * from './schemas/responses';
export * from './schemas/events';
export * from './schemas/exec';
export * from './schemas/namespace';
export * from './schemas/acl';
