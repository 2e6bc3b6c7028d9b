import { z } from 'zod';
import { maybe } from './common';
import { configEntryBase } from './config-entry-common';

export const ServiceSplitSchema = z.looseObject({
  /** Percentage of traffic, 0-100 with up to two decimals; weights of an entry add up to 100. */
  Weight: z.number(),
  Service: maybe(z.string()),
  ServiceSubset: maybe(z.string()),
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
});
export type ServiceSplit = z.infer<typeof ServiceSplitSchema>;

export const ServiceSplitterConfigEntrySchema = z.looseObject({
  Kind: z.literal('service-splitter'),
  ...configEntryBase,
  Splits: maybe(z.array(ServiceSplitSchema)),
});
export type ServiceSplitterConfigEntry = z.infer<typeof ServiceSplitterConfigEntrySchema>;
