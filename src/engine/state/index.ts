export * from './address';
export {
  DEFAULT_TERRAFORM_VERSION,
  PROVIDER_NAMESPACE,
  PROVIDER_REGISTRY,
  defaultProviderFor,
  providerConfigAddress,
  providerFqn,
  BUILTIN_TERRAFORM_SOURCE,
  providerSource,
  impliedType,
  type StateV4,
} from './format';
export * from './state-file';
export * from './writer';
export * from './pending';
export * from './lock';
export { writeFileAtomic, removeStaleTemps, type AtomicWriteOptions } from './atomic';
