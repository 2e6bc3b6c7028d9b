/**
 * The providers a stack uses, configured once per plan or apply from the stack's `provider` blocks
 * (with aliases) and the environment. The engine only knows them through the handler contract.
 */
import type {
  Config,
  DataSourceHandler,
  Provider,
  ProviderFactory,
  ResourceHandler,
  State,
} from '../provider/resource';
import { sensitiveAttributes, terraformBlock, type TerraformBlock } from '../provider/schema';
import type { Diagnostic } from '../provider/values';
import type { BuiltinProvider } from './remote-state';

/*
 * Loaded when a stack first uses them: a stack of scheduler jobs does not load the registry's client
 * and schemas, which shortens every command's start.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const PROVIDER_FACTORIES: Readonly<Record<string, () => ProviderFactory>> = {
  sched: () =>
    (require('../provider/sched/provider') as typeof import('../provider/sched/provider')).schedProvider,
  reg: () => (require('../provider/reg/provider') as typeof import('../provider/reg/provider')).regProvider,
};
/* eslint-enable @typescript-eslint/no-require-imports */

export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

export class ProviderSet {
  private readonly configured = new Map<string, Provider>();
  private readonly configuredBuiltins = new Map<string, BuiltinProvider>();
  private readonly blocks = new Map<string, TerraformBlock | undefined>();
  /** sensitive() by mode, provider and type: asked once per resource block, the same answer each time. */
  private readonly sensitiveByType = new Map<string, string[]>();
  /** Each factory's answer: asking it means a require() lookup, and the plan asks once per instance. */
  private readonly loaded = new Map<string, ProviderFactory | undefined>();

  constructor(
    private readonly factories: Readonly<Record<string, () => ProviderFactory>> = PROVIDER_FACTORIES,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    /** Terraform's built-in providers (`terraform`), by name: no block, no configuration. */
    private readonly builtins: Readonly<Record<string, BuiltinProvider>> = {},
  ) {}

  private load(name: string): ProviderFactory | undefined {
    if (!this.loaded.has(name)) this.loaded.set(name, this.factories[name]?.());
    return this.loaded.get(name);
  }

  factory(name: string): ProviderFactory {
    const f = this.load(name);
    if (!f) {
      throw new ProviderError(
        `provider "${name}" is not available: cdktf-sched serves ${[
          ...Object.keys(this.factories),
          ...Object.keys(this.builtins),
        ]
          .map((n) => `"${n}"`)
          .join(', ')}`,
      );
    }
    return f;
  }

  /** Validates and configures the provider at `address` (`sched`, `sched.west`); returns its diagnostics. */
  configure(address: string, name: string, config: Config): Diagnostic[] {
    const builtin = this.builtins[name];
    if (builtin) return this.configureBuiltin(address, name, builtin, config);
    const factory = this.factory(name);
    const diags = factory.validate(config);
    if (diags.some((d) => d.severity === 'error')) return diags;
    if (!this.configured.has(address)) this.configured.set(address, factory.configure(config, this.env));
    return diags;
  }

  private configureBuiltin(
    address: string,
    name: string,
    builtin: BuiltinProvider,
    config: Config,
  ): Diagnostic[] {
    const names = Object.keys(config);
    if (names.length > 0)
      return [
        {
          severity: 'error',
          summary: `Unsupported argument "${names[0]}"`,
          detail: `the built-in provider "${name}" takes no configuration`,
          path: [names[0]!],
        },
      ];
    this.configuredBuiltins.set(address, builtin);
    return [];
  }

  isConfigured(address: string): boolean {
    return this.configured.has(address) || this.configuredBuiltins.has(address);
  }

  private provider(address: string): Provider {
    const p = this.configured.get(address);
    if (!p) throw new ProviderError(`provider ${address} is not configured`);
    return p;
  }

  resource(address: string, type: string): ResourceHandler {
    const h = this.provider(address).resources[type];
    if (!h) throw new ProviderError(`provider ${address} has no resource type "${type}"`);
    return h;
  }

  dataSource(address: string, type: string): DataSourceHandler {
    const h = (this.configuredBuiltins.get(address) ?? this.provider(address)).dataSources[type];
    if (!h) throw new ProviderError(`provider ${address} has no data source "${type}"`);
    return h;
  }

  /** Sensitive top-level attributes of a resource or data source type, from its schema. */
  sensitive(name: string, type: string, mode: 'managed' | 'data'): string[] {
    const builtin = mode === 'data' ? this.builtins[name]?.dataSources[type] : undefined;
    if (builtin) return sensitiveAttributes(builtin.shape);
    const key = `${mode}\u0000${name}\u0000${type}`;
    let out = this.sensitiveByType.get(key);
    if (!out) {
      const f = this.load(name);
      const entry = mode === 'managed' ? f?.resourceShapes[type] : f?.dataSourceShapes[type];
      this.sensitiveByType.set(key, (out = entry ? sensitiveAttributes(entry.shape) : []));
    }
    return [...out];
  }

  /** A data source's value as recorded in state (the built-in provider's in terraform's form). */
  dataState(name: string, type: string, value: State): State {
    return this.builtins[name]?.record(type, value) ?? value;
  }

  /** A resource type's schema as terraform sees it (what the plugin serves), for the state's form. */
  block(name: string, type: string): TerraformBlock | undefined {
    const key = `${name}.${type}`;
    if (!this.blocks.has(key)) {
      const entry = this.load(name)?.resourceShapes[type];
      this.blocks.set(key, entry ? terraformBlock(entry.shape) : undefined);
    }
    return this.blocks.get(key);
  }

  /** A provider's configuration schema (its sensitive attributes stay out of the plan JSON). */
  providerBlock(name: string): TerraformBlock | undefined {
    const shape = this.factories[name]?.().shape;
    return shape ? terraformBlock(shape) : undefined;
  }

  schemaVersion(name: string, type: string): number {
    return this.load(name)?.resourceShapes[type]?.version ?? 0;
  }

  async close(): Promise<void> {
    await Promise.all([...this.configured.values()].map((p) => p.close().catch(() => undefined)));
    this.configured.clear();
    this.configuredBuiltins.clear();
  }
}
