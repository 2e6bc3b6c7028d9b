import { z } from 'zod';
import { Duration, FreeMap, OptBool, OptNumber, OptString, StringList, StringMap, list, map } from './common';

export const CheckRestartSchema = z.looseObject({
  Limit: OptNumber,
  Grace: z.number().nullish(),
  IgnoreWarnings: OptBool,
});
export type CheckRestart = z.infer<typeof CheckRestartSchema>;

/**
 * Type: Nomad knows `http`, `tcp`, `script`, `grpc` (open string). InitialStatus: `passing`,
 * `warning`, `critical` or empty.
 */
export const CheckSchema = z.looseObject({
  Name: OptString,
  Type: OptString,
  Command: OptString,
  Args: StringList,
  Path: OptString,
  Protocol: OptString,
  PortLabel: OptString,
  Expose: OptBool,
  AddressMode: OptString,
  Interval: Duration,
  Timeout: Duration,
  InitialStatus: OptString,
  TLSServerName: OptString,
  TLSSkipVerify: OptBool,
  Header: map(z.array(z.string())),
  Method: OptString,
  Body: OptString,
  CheckRestart: CheckRestartSchema.nullish(),
  GRPCService: OptString,
  GRPCUseTLS: OptBool,
  TaskName: OptString,
  SuccessBeforePassing: OptNumber,
  FailuresBeforeCritical: OptNumber,
  FailuresBeforeWarning: OptNumber,
  OnUpdate: OptString,
});
export type Check = z.infer<typeof CheckSchema>;

/** Provider: `sched` (built in) or `registry` (neutral names for Nomad's `nomad` / `consul`); open string. */
export const ServiceSchema = z.looseObject({
  Name: OptString,
  PortLabel: OptString,
  Tags: StringList,
  CanaryTags: StringList,
  EnableTagOverride: OptBool,
  AddressMode: OptString,
  Address: OptString,
  TaskName: OptString,
  Provider: OptString,
  OnUpdate: OptString,
  Meta: StringMap,
  CanaryMeta: StringMap,
  TaggedAddresses: StringMap,
  Checks: list(CheckSchema),
  // Service mesh settings are deep and driver specific; kept free-form.
  Connect: FreeMap,
  Cluster: OptString,
});
export type Service = z.infer<typeof ServiceSchema>;
