/**
 * The stack configuration (`cdk.tf.json`): loading, parsing with static validation, input variables,
 * count/for_each expansion and evaluation of blocks against a scope the plan/apply code supplies.
 *
 *   const config = await loadStackConfig('cdktf.out/stacks/web');
 *   const { values } = resolveVariables(config, { raw: { replicas: '3' } });
 *   const scope = createStackScope({ config, variables: values, resolveReference: (ref) => ... });
 *   for (const inst of instancesOf(expandResource(res, scope)))
 *     handler.plan({ prior, config: evaluateResourceConfig(res, scope, inst) });
 */
export {
  defaultProviderName,
  formatInstanceKey,
  instanceAddress,
  parseInstanceAddress,
  resourceAddress,
  type InstanceAddress,
  type InstanceKey,
} from './address';
export {
  ConfigError,
  diagnostic,
  diagnosticFromError,
  formatConfigDiagnostic,
  located,
  type ConfigDiagnostic,
  type DiagnosticContext,
} from './errors';
export {
  checkConditions,
  conditionStatus,
  checkPostconditions,
  checkPreconditions,
  checkOutputPreconditions,
  evaluateAt,
  evaluateOutput,
  evaluateProviderConfig,
  evaluateReplaceTriggers,
  evaluateMarkedResourceConfig,
  evaluateResourceConfig,
  isIgnoredChange,
  type ConditionResult,
} from './evaluate';
export { expandResource, instanceAddresses, instanceKeys, instancesOf, type Expansion } from './expand';
export { sourceOf } from './json-expr';
export {
  listSynthesizedStacks,
  loadStackConfig,
  readStackConfig,
  parseStackConfigText,
  localStatePath,
  ManifestSchema,
  type Manifest,
  type ReadStackConfig,
  type SynthesizedStack,
} from './load';
export {
  CdkTfJsonSchema,
  parseStackConfig,
  stripInterpolation,
  type CdkTfJson,
  type ParseOptions,
} from './parse';
export {
  assembleResourceValue,
  createStackScope,
  instanceScope,
  stackPaths,
  type InstanceContext,
  type StackScopeOptions,
} from './scope';
export {
  defaultLifecycle,
  findResource,
  providerAddress,
  type BackendConfig,
  type Condition,
  type ConstructMetadata,
  type ImportConfig,
  type Lifecycle,
  type LocalConfig,
  type MovedConfig,
  type RemovedConfig,
  type OutputConfig,
  type ProviderConfig,
  type ProviderRef,
  type RequiredProvider,
  type ResourceConfig,
  type StackConfig,
  type VariableConfig,
} from './types';
export { forEachLeaf, suggest, validateStackConfig } from './validate';
export {
  parseRawVariableValue,
  resolveVariables,
  type ResolvedVariables,
  type ResolveVariablesOptions,
  type VariableInputs,
} from './variables';
