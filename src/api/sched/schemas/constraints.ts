import { z } from 'zod';
import { OptNumber, OptString } from './common';

/**
 * Operand: seen `=` and `set_contains`; Nomad also knows `!=`, `>`, `>=`, `<`, `<=`, `distinct_hosts`,
 * `distinct_property`, `regexp`, `set_contains_all`, `set_contains_any`, `version`, `semver`,
 * `is_set`, `is_not_set`. Kept an open string because a cluster may know more.
 */
export const ConstraintSchema = z.looseObject({
  LTarget: OptString,
  RTarget: OptString,
  Operand: OptString,
});
export type Constraint = z.infer<typeof ConstraintSchema>;

export const AffinitySchema = z.looseObject({
  LTarget: OptString,
  RTarget: OptString,
  Operand: OptString,
  Weight: OptNumber,
});
export type Affinity = z.infer<typeof AffinitySchema>;

export const SpreadTargetSchema = z.looseObject({
  Value: OptString,
  Percent: OptNumber,
});
export type SpreadTarget = z.infer<typeof SpreadTargetSchema>;

export const SpreadSchema = z.looseObject({
  Attribute: OptString,
  Weight: OptNumber,
  SpreadTarget: z.array(SpreadTargetSchema).nullish(),
});
export type Spread = z.infer<typeof SpreadSchema>;
