/**
 * Dependency graph of a stack and the concurrent walk the apply and destroy code drive:
 *
 *   const graph = buildConfigGraph(config);           // nodes: resources, data, providers, vars, locals, outputs
 *   const result = await walk(graph, { parallelism: 10, visit: async (node) => { ... } });
 *   await walk(graph, { reverse: true, visit: destroyNode }); // dependants first
 */
export { buildConfigGraph, providerNodeId, resourceNodeId, type ConfigNode } from './build';
export { CycleError, Graph } from './graph';
export { walk, type SkippedNode, type WalkOptions, type WalkResult } from './walk';
