/**
 * The provider schema JSON in the format of `terraform providers schema -json`, built from the
 * providers' zod shapes. The construct generator feeds it to `@cdktf/provider-generator`, and the
 * Terraform plugin protocol serves the same blocks from GetProviderSchema, so both front ends see
 * one schema.
 */
import type { ProviderFactory } from './resource';
import { terraformBlock, type TerraformBlock } from './schema';

/** Registry source addresses, as Terraform spells them in `required_providers` and in the schema JSON. */
export const PROVIDER_ADDRESSES = {
  sched: 'registry.terraform.io/cdktf-sched/sched',
  reg: 'registry.terraform.io/cdktf-sched/reg',
} as const;

export interface TerraformSchema {
  version: number;
  block: TerraformBlock;
}

export interface ProviderSchemaJson {
  provider: TerraformSchema;
  resource_schemas: Record<string, TerraformSchema>;
  data_source_schemas: Record<string, TerraformSchema>;
}

export interface ProvidersSchemaJson {
  format_version: '1.0';
  provider_schemas: Record<string, ProviderSchemaJson>;
}

/** What schema generation needs of a provider: its shapes, not a configured client. */
export type ProviderShapes = Pick<ProviderFactory, 'name' | 'shape' | 'resourceShapes' | 'dataSourceShapes'>;

/** Sorted by type name so the JSON (and the code generated from it) does not depend on registration order. */
function sortedEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function providerSchemaJson(provider: ProviderShapes): ProviderSchemaJson {
  const resource_schemas: Record<string, TerraformSchema> = {};
  for (const [type, r] of sortedEntries(provider.resourceShapes)) {
    resource_schemas[type] = { version: r.version, block: terraformBlock(r.shape, r.description) };
  }
  const data_source_schemas: Record<string, TerraformSchema> = {};
  for (const [type, d] of sortedEntries(provider.dataSourceShapes)) {
    data_source_schemas[type] = { version: 0, block: terraformBlock(d.shape, d.description) };
  }
  return {
    provider: { version: 0, block: terraformBlock(provider.shape) },
    resource_schemas,
    data_source_schemas,
  };
}

export function providersSchemaJson(providers: readonly ProviderShapes[]): ProvidersSchemaJson {
  const provider_schemas: Record<string, ProviderSchemaJson> = {};
  for (const p of providers) provider_schemas[PROVIDER_ADDRESSES[p.name]] = providerSchemaJson(p);
  return { format_version: '1.0', provider_schemas };
}
