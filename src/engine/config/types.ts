/**
 * The parsed form of one synthesized stack (`cdktf.out/stacks/<stack>/cdk.tf.json`). Every string that
 * Terraform treats as an expression is already parsed (so syntax errors surface before planning); the
 * original JSON is kept beside it for renderers and debugging.
 */
import type { AttrPath } from '../../provider/values';
import type { Expr } from '../expressions/ast';
import type { ResourceMode, ResourceRef } from '../expressions/references';
import type { TypeConstraint } from '../expressions/types';

/** Where a block came from in the user's CDKTF program (cdktf's `"//": {"metadata": {...}}`). */
export interface ConstructMetadata {
  /** Construct path, e.g. "stack/web". */
  path?: string;
  uniqueId?: string;
  /** Everything else cdktf put under "//" (stack traces, ...). */
  raw?: Record<string, unknown>;
}

/** A provider configuration reference: `sched` or `sched.west`. */
export interface ProviderRef {
  name: string;
  alias?: string;
}

export function providerAddress(p: ProviderRef): string {
  return p.alias ? `${p.name}.${p.alias}` : p.name;
}

export interface Condition {
  condition: Expr;
  errorMessage: Expr;
}

export interface Lifecycle {
  preventDestroy: boolean;
  createBeforeDestroy: boolean;
  /** `all`, or attribute paths whose changes are ignored (e.g. [["meta"], ["task_group", 0, "count"]]). */
  ignoreChanges: 'all' | AttrPath[];
  /** Expressions whose change replaces the resource (references to resources or their attributes). */
  replaceTriggeredBy: Expr[];
  preconditions: Condition[];
  postconditions: Condition[];
}

/** A resource without a `lifecycle` block: Terraform's defaults. */
export function defaultLifecycle(): Lifecycle {
  return {
    preventDestroy: false,
    createBeforeDestroy: false,
    ignoreChanges: [],
    replaceTriggeredBy: [],
    preconditions: [],
    postconditions: [],
  };
}

export interface ResourceConfig extends ResourceRef {
  mode: ResourceMode;
  /** `sched_job.web` or `data.sched_job.current`. */
  address: string;
  construct: ConstructMetadata;
  /** The provider configuration used: the `provider` meta-argument or the type's default provider. */
  provider: ProviderRef;
  /** True when the `provider` meta-argument was written. */
  providerExplicit: boolean;
  count?: Expr;
  forEach?: Expr;
  /** Explicit dependencies (`depends_on`), as resources. */
  dependsOn: ResourceRef[];
  lifecycle: Lifecycle;
  /** Attributes and nested blocks (meta-arguments and "//" removed) as one object expression. */
  body: Expr & { type: 'object' };
  /** The block as written in the JSON. */
  raw: Record<string, unknown>;
}

export interface ProviderConfig extends ProviderRef {
  /** `sched` or `sched.west`. */
  address: string;
  construct: ConstructMetadata;
  body: Expr & { type: 'object' };
  raw: Record<string, unknown>;
}

export interface VariableConfig {
  name: string;
  /** Absent means `any`. */
  type?: TypeConstraint;
  typeText?: string;
  /** The default, already converted to `type`; `hasDefault` tells a null default from none. */
  default?: unknown;
  hasDefault: boolean;
  description?: string;
  sensitive: boolean;
  nullable: boolean;
  validations: Condition[];
  construct: ConstructMetadata;
}

export interface LocalConfig {
  name: string;
  expr: Expr;
}

export interface OutputConfig {
  name: string;
  value: Expr;
  description?: string;
  sensitive: boolean;
  dependsOn: ResourceRef[];
  preconditions: Condition[];
  construct: ConstructMetadata;
  /** The block as written in the JSON. */
  raw: Record<string, unknown>;
}

export interface BackendConfig {
  /** e.g. "local". */
  type: string;
  config: Record<string, unknown>;
}

export interface RequiredProvider {
  source?: string;
  version?: string;
}

export interface ImportConfig {
  /** The target's resource address (`sched_job.web`), without the instance key. */
  to: string;
  /** The target's instance key, when `to` has one (`sched_job.web[each.key]`): evaluated per for_each element. */
  toKey?: Expr;
  id: Expr;
  /** Terraform 1.7's import for_each: one import per element, with `each.key`/`each.value` in `to` and `id`. */
  forEach?: Expr;
  provider?: ProviderRef;
}

/** A `removed` block: the resource left the configuration; destroy = false forgets it instead of destroying it. */
export interface RemovedConfig {
  /** A resource address (`sched_job.web`) or an instance address. */
  from: string;
  destroy: boolean;
}

export interface MovedConfig {
  from: string;
  to: string;
}

export interface StackConfig {
  /** File the configuration was read from, when known. */
  file?: string;
  /** cdktf's stack-level metadata (`"//".metadata`: stackName, backend, version). */
  metadata: Record<string, unknown>;
  /** Managed resources by address (`sched_job.web`), in the order of the JSON. */
  resources: Map<string, ResourceConfig>;
  /** Data sources by address (`data.sched_job.current`). */
  dataSources: Map<string, ResourceConfig>;
  /** Provider configurations by address (`sched`, `sched.west`). */
  providers: Map<string, ProviderConfig>;
  variables: Map<string, VariableConfig>;
  locals: Map<string, LocalConfig>;
  outputs: Map<string, OutputConfig>;
  backend?: BackendConfig;
  /** The workspace the command works in (`terraform.workspace`); "default" when not set. */
  workspace?: string;
  requiredProviders: Record<string, RequiredProvider>;
  requiredVersion?: string;
  imports: ImportConfig[];
  moved: MovedConfig[];
  removed: RemovedConfig[];
}

/** The resource or data source with this address, if declared. */
export function findResource(config: StackConfig, ref: ResourceRef): ResourceConfig | undefined {
  const addr = `${ref.mode === 'data' ? 'data.' : ''}${ref.type}.${ref.name}`;
  return ref.mode === 'data' ? config.dataSources.get(addr) : config.resources.get(addr);
}
