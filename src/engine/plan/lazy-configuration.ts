/**
 * Parts of a plan that only the plan JSON and a saved plan read, built on first read: the
 * `configuration` (terraform's configuration representation) walks every resource's expressions, and
 * so do the `relevantAttributes` (for a plan of 200 new jobs printed as text, about 10 ms after the
 * last answer from the cluster). Each is an accessor that builds its value once. The accessor is
 * enumerable and defined where the value used to be assigned, so JSON.stringify (the saved plan)
 * writes the same keys in the same order as before; a value that builds to undefined is left out of
 * it, as the key was.
 */
import { configurationJson, type SchemaSource } from '../render/json/configuration';
import type { StackConfig } from '../config';
import { relevantAttributes } from './relevant';
import type { StackPlan } from './types';

type LazyKey = 'configuration' | 'relevantAttributes';

function settle<K extends LazyKey>(plan: StackPlan, key: K, value: StackPlan[K] | undefined): void {
  // Without a value the key goes, as a plan that never had it (an eager plan assigned none).
  if (value === undefined) delete plan[key];
  else Object.defineProperty(plan, key, { value, enumerable: true, writable: true, configurable: true });
}

function defineLazily<K extends LazyKey>(
  plan: StackPlan,
  key: K,
  build: () => StackPlan[K] | undefined,
): void {
  Object.defineProperty(plan, key, {
    enumerable: true,
    configurable: true,
    get(): StackPlan[K] | undefined {
      const value = build();
      settle(plan, key, value);
      return value;
    },
    set(value: StackPlan[K] | undefined): void {
      settle(plan, key, value);
    },
  });
}

export function setConfigurationLazily(plan: StackPlan, config: StackConfig, schemas: SchemaSource): void {
  defineLazily(plan, 'configuration', () => configurationJson(config, schemas));
}

/** Call once the plan's instances are all recorded: the attributes are those the changing ones read. */
export function setRelevantAttributesLazily(plan: StackPlan, config: StackConfig): void {
  defineLazily(plan, 'relevantAttributes', () => {
    const relevant = relevantAttributes(config, plan);
    return relevant.length > 0 ? relevant : undefined;
  });
}
