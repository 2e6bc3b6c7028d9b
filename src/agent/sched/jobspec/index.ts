export { JobspecError, formatRange, type Pos, type Range } from './errors';
export { parseJobspec, type ParseJobspecOptions } from './parse-jobspec';
export { parseHcl, parseHclExpression } from './parser';
export { evaluate, type EvalContext } from './evaluate';
export type { HclValue, HclObject } from './values';
