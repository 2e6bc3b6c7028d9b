/**
 * The plan's `configuration` (terraform's configuration representation) is only read by the plan JSON
 * and a saved plan, yet building it walks every resource's expressions: for a plan printed as text it
 * was a tenth of the command's CPU. So a new plan holds it as an accessor that builds it on first read.
 * The accessor is enumerable and defined where the value used to be assigned, so JSON.stringify (the
 * saved plan) writes the same keys in the same order as before.
 */
import { configurationJson, type SchemaSource } from '../render/json/configuration';
import type { StackConfig } from '../config';
import type { StackPlan } from './types';

export function setConfigurationLazily(plan: StackPlan, config: StackConfig, schemas: SchemaSource): void {
  Object.defineProperty(plan, 'configuration', {
    enumerable: true,
    configurable: true,
    get(): unknown {
      const value = configurationJson(config, schemas);
      Object.defineProperty(plan, 'configuration', {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return value;
    },
    set(value: unknown): void {
      Object.defineProperty(plan, 'configuration', {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    },
  });
}
