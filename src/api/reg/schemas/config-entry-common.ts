import { z } from 'zod';
import { StringMapSchema, maybe } from './common';

/** Fields every config entry carries besides Kind and its own settings. */
export const configEntryBase = {
  Name: z.string(),
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
  Meta: maybe(StringMapSchema),
  CreateIndex: maybe(z.number()),
  ModifyIndex: maybe(z.number()),
};

export const ServiceResolverSubsetSchema = z.looseObject({
  /** A filter expression over service instances, e.g. `Service.Meta.version == v1`. */
  Filter: maybe(z.string()),
  OnlyPassing: maybe(z.boolean()),
});
export type ServiceResolverSubset = z.infer<typeof ServiceResolverSubsetSchema>;
