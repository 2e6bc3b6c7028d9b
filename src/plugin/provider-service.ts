/**
 * The Terraform provider protocol (tfplugin6) served by our handlers: each RPC decodes Terraform's
 * values with the schema's type, calls the same handler our engine calls, and brings the answer into
 * the shape Terraform checks for (see conform.ts). Nothing here knows gRPC: requests and responses are
 * the plain objects @grpc/proto-loader gives and takes, so the server is a thin table over this class.
 */
import { ReadBatcher } from './read-batch';
import { setMaxListeners } from 'node:events';
import type { PlannedChange, Provider, ProviderFactory, ResourceHandler, State } from '../provider/resource';
import { ResourceApplyError } from '../provider/common/errors';
import { DiagnosticsError, containsUnknown, isUnknown } from '../provider/values';
import { schedulerWarning } from './annotations';
import { conformApplied, conformDataState, conformPlanned, conformRefreshed, handlerConfig } from './conform';
import { CtyError, decodeJsonValue, decodeMsgpackValue, encodeMsgpackValue, type CtyType } from './cty';
import {
  errorDiagnostic,
  fromError,
  hasErrors,
  toProtoAll,
  type ProtoDiagnostic,
  type ProtoStep,
} from './diagnostics';
import { decodePlannedPrivate, encodePlannedPrivate } from './private-state';
import { protoProviderSchema, providerSchemas, type ProviderSchemas, type TypedSchema } from './schema';

type Obj = Record<string, unknown>;
type Bytes = Uint8Array;

export interface DynamicValue {
  msgpack?: Bytes | null;
  json?: Bytes | null;
}

export interface ProviderServiceOptions {
  /** Environment the provider configuration falls back to (SCHED_ADDR, ...). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where progress and notes go: go-plugin forwards the plugin's stderr to Terraform's log. */
  log?: (line: string) => void;
}

export const SERVER_CAPABILITIES = {
  plan_destroy: false,
  // The schema never changes within one version, so Terraform may keep it between plugin starts.
  get_provider_schema_optional: true,
  move_resource_state: false,
};

const EMPTY = Buffer.alloc(0);

function readDynamic(dv: DynamicValue | null | undefined, type: CtyType): unknown {
  if (!dv) return null;
  if (dv.msgpack && dv.msgpack.length > 0) return decodeMsgpackValue(dv.msgpack, type);
  if (dv.json && dv.json.length > 0)
    return decodeJsonValue(JSON.parse(Buffer.from(dv.json).toString('utf8')), type);
  return null;
}

function dynamic(value: unknown, type: CtyType): DynamicValue {
  return { msgpack: encodeMsgpackValue(value, type) };
}

const asObj = (v: unknown): Obj | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;

export class ProviderService {
  readonly schemas: ProviderSchemas;
  private provider: Provider | null = null;
  /** Handlers for validation and state upgrades, which Terraform asks for before configuring. */
  private unconfigured: Provider | null = null;
  private readonly stop = new AbortController();
  /** Concurrent ReadResource calls of one type, refreshed together (read-batch.ts). */
  private readonly reads = new ReadBatcher();
  private protoSchema: ReturnType<typeof protoProviderSchema> | undefined;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly log: (line: string) => void;

  constructor(
    readonly factory: ProviderFactory,
    opts: ProviderServiceOptions = {},
  ) {
    this.schemas = providerSchemas(factory);
    // Every apply in flight listens on this one signal; Terraform runs ten or more at once.
    setMaxListeners(0, this.stop.signal);
    this.env = opts.env ?? process.env;
    this.log = opts.log ?? ((line) => void process.stderr.write(`${line}\n`));
  }

  private validationProvider(): Provider {
    this.unconfigured ??= this.factory.configure({}, {});
    return this.unconfigured;
  }

  private resourceSchema(type: string): TypedSchema {
    const s = this.schemas.resources[type];
    if (!s) throw new UnknownTypeError('resource', type, this.factory.name);
    return s;
  }

  private dataSchema(type: string): TypedSchema {
    const s = this.schemas.dataSources[type];
    if (!s) throw new UnknownTypeError('data source', type, this.factory.name);
    return s;
  }

  private configured(): Provider {
    if (!this.provider) throw new Error(`the ${this.factory.name} provider is not configured yet`);
    return this.provider;
  }

  private resourceHandler(type: string): ResourceHandler {
    const h = this.configured().resources[type];
    if (!h) throw new UnknownTypeError('resource', type, this.factory.name);
    return h;
  }

  async close(): Promise<void> {
    this.stop.abort(new Error('the provider was stopped'));
    await Promise.all(
      [this.provider?.close(), this.unconfigured?.close()].map((p) => p?.catch(() => undefined)),
    );
    this.provider = null;
    this.unconfigured = null;
  }

  // ---- information -------------------------------------------------------------------------------

  getMetadata(): Obj {
    return {
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
      resources: Object.keys(this.schemas.resources).map((type_name) => ({ type_name })),
      data_sources: Object.keys(this.schemas.dataSources).map((type_name) => ({ type_name })),
      functions: [],
      ephemeral_resources: [],
    };
  }

  getProviderSchema(): Obj {
    this.protoSchema ??= protoProviderSchema(this.factory);
    return {
      ...this.protoSchema,
      functions: {},
      ephemeral_resource_schemas: {},
      diagnostics: [],
      server_capabilities: SERVER_CAPABILITIES,
    };
  }

  getResourceIdentitySchemas(): Obj {
    return { identity_schemas: {}, diagnostics: [] };
  }

  getFunctions(): Obj {
    return { functions: {}, diagnostics: [] };
  }

  // ---- provider ----------------------------------------------------------------------------------

  validateProviderConfig(req: { config?: DynamicValue | null }): Obj {
    const { block, type } = this.schemas.provider;
    try {
      const config = asObj(readDynamic(req.config, type)) ?? {};
      return { diagnostics: toProtoAll(this.factory.validate(handlerConfig(block, config)), type) };
    } catch (e) {
      return { diagnostics: fromError(e, 'Invalid provider configuration', type) };
    }
  }

  async configureProvider(req: { config?: DynamicValue | null }): Promise<Obj> {
    const { block, type } = this.schemas.provider;
    try {
      const config = handlerConfig(block, asObj(readDynamic(req.config, type)) ?? {});
      const diagnostics = toProtoAll(this.factory.validate(config), type);
      if (hasErrors(diagnostics)) return { diagnostics };
      const open = Object.keys(config).filter((k) => containsUnknown(config[k]));
      if (open.length > 0) {
        // Terraform plans with such a provider anyway; our engine refuses. Say what the plan is based on.
        diagnostics.push({
          severity: 'WARNING',
          summary: `The ${this.factory.name} provider configuration is not known until apply`,
          detail: `${open.join(', ')}: the plan uses the environment and defaults instead; apply uses the real values`,
        });
      }
      const previous = this.provider;
      this.provider = this.factory.configure(config, this.env);
      await previous?.close().catch(() => undefined);
      return { diagnostics };
    } catch (e) {
      return { diagnostics: fromError(e, `Cannot configure the ${this.factory.name} provider`, type) };
    }
  }

  stopProvider(): Obj {
    this.stop.abort(new Error('Terraform asked the provider to stop'));
    return { Error: '' };
  }

  // ---- managed resources -------------------------------------------------------------------------

  validateResourceConfig(req: { type_name: string; config?: DynamicValue | null }): Obj {
    try {
      const { block, type } = this.resourceSchema(req.type_name);
      const handler = this.validationProvider().resources[req.type_name];
      const config = asObj(readDynamic(req.config, type)) ?? {};
      return { diagnostics: handler ? toProtoAll(handler.validate(handlerConfig(block, config)), type) : [] };
    } catch (e) {
      return { diagnostics: fromError(e, `Invalid ${req.type_name} configuration`) };
    }
  }

  upgradeResourceState(req: {
    type_name: string;
    version?: number;
    raw_state?: { json?: Bytes | null; flatmap?: Record<string, string> } | null;
  }): Obj {
    try {
      const schema = this.resourceSchema(req.type_name);
      const json = req.raw_state?.json;
      if (!json || json.length === 0) {
        if (req.raw_state?.flatmap && Object.keys(req.raw_state.flatmap).length > 0)
          return {
            diagnostics: [
              errorDiagnostic(
                'Unsupported state format',
                'flatmap state is from Terraform 0.11; this provider never wrote it',
              ),
            ],
          };
        return { upgraded_state: dynamic(null, schema.type), diagnostics: [] };
      }
      let state = JSON.parse(Buffer.from(json).toString('utf8')) as State;
      const handler = (this.provider ?? this.validationProvider()).resources[req.type_name];
      const from = Number(req.version ?? 0);
      if (handler?.upgrade && from < schema.version) state = handler.upgrade(state, from);
      return { upgraded_state: dynamic(decodeJsonValue(state, schema.type), schema.type), diagnostics: [] };
    } catch (e) {
      return { diagnostics: fromError(e, `Cannot upgrade the state of ${req.type_name}`) };
    }
  }

  async readResource(req: {
    type_name: string;
    current_state?: DynamicValue | null;
    private?: Bytes | null;
  }): Promise<Obj> {
    let schema: TypedSchema | undefined;
    try {
      schema = this.resourceSchema(req.type_name);
      const current = asObj(readDynamic(req.current_state, schema.type));
      const keepPrivate = req.private ?? EMPTY;
      if (!current) return { new_state: dynamic(null, schema.type), private: keepPrivate, diagnostics: [] };
      const read = await this.reads.read(this.resourceHandler(req.type_name), current);
      const state = read ? conformRefreshed(schema.block, read, current) : null;
      return { new_state: dynamic(state, schema.type), private: keepPrivate, diagnostics: [] };
    } catch (e) {
      return { diagnostics: fromError(e, `Cannot read ${req.type_name}`, schema?.type) };
    }
  }

  async planResourceChange(req: {
    type_name: string;
    prior_state?: DynamicValue | null;
    proposed_new_state?: DynamicValue | null;
    config?: DynamicValue | null;
    prior_private?: Bytes | null;
  }): Promise<Obj> {
    let schema: TypedSchema | undefined;
    try {
      schema = this.resourceSchema(req.type_name);
      const { block, type } = schema;
      const prior = asObj(readDynamic(req.prior_state, type));
      const config = asObj(readDynamic(req.config, type));
      if (!config) return { planned_state: dynamic(null, type), requires_replace: [], diagnostics: [] };
      // Terraform has no place for the scheduler's JobDiff: it is not asked for.
      const change = await this.resourceHandler(req.type_name).plan({
        prior,
        config: handlerConfig(block, config),
        serviceDiff: false,
      });
      const diagnostics = toProtoAll(change.diagnostics, type);
      if (hasErrors(diagnostics)) {
        return {
          planned_state: req.proposed_new_state ?? dynamic(null, type),
          requires_replace: [],
          diagnostics,
        };
      }
      const scheduler = change.annotations?.scheduler;
      if (scheduler) diagnostics.push(schedulerWarning(scheduler, jobIdOf(change, config)));
      const planned = conformPlanned(block, change.planned ?? prior ?? {}, config);
      return {
        planned_state: dynamic(planned, type),
        requires_replace: requiresReplace(change, prior, planned),
        planned_private: encodePlannedPrivate(change),
        diagnostics,
      };
    } catch (e) {
      return { diagnostics: fromError(e, `Cannot plan ${req.type_name}`, schema?.type) };
    }
  }

  async applyResourceChange(req: {
    type_name: string;
    prior_state?: DynamicValue | null;
    planned_state?: DynamicValue | null;
    config?: DynamicValue | null;
    planned_private?: Bytes | null;
  }): Promise<Obj> {
    let schema: TypedSchema | undefined;
    let prior: Obj | null = null;
    try {
      schema = this.resourceSchema(req.type_name);
      const { block, type } = schema;
      prior = asObj(readDynamic(req.prior_state, type));
      const planned = asObj(readDynamic(req.planned_state, type));
      const handler = this.resourceHandler(req.type_name);
      const change = await this.changeToApply(handler, block, prior, planned, req);
      const started = Date.now();
      const result = await handler.apply(change, {
        signal: this.stop.signal,
        onProgress: (e) => this.log(`[INFO] ${req.type_name}: ${e.message}`),
      });
      this.log(`[DEBUG] ${req.type_name}: ${change.action} took ${Date.now() - started} ms`);
      const state = result && planned ? conformApplied(block, result, planned) : null;
      return { new_state: dynamic(state, type), private: EMPTY, diagnostics: [] };
    } catch (e) {
      const type = schema?.type;
      const diagnostics = fromError(e, `Cannot apply ${req.type_name}`, type);
      if (!type) return { diagnostics };
      // Record what exists: the handler's account of a half-done change, else the state before it.
      const remains = e instanceof ResourceApplyError ? e.state : prior;
      try {
        return { new_state: dynamic(remains ? settle(remains) : null, type), private: EMPTY, diagnostics };
      } catch (encodeErr) {
        if (encodeErr instanceof CtyError)
          return { new_state: dynamic(prior, type), private: EMPTY, diagnostics };
        throw encodeErr;
      }
    }
  }

  /** The handler's planned change, from the plan's private bytes (or planned again when there are none). */
  private async changeToApply(
    handler: ResourceHandler,
    block: TypedSchema['block'],
    prior: Obj | null,
    planned: Obj | null,
    req: { config?: DynamicValue | null; planned_private?: Bytes | null },
  ): Promise<PlannedChange> {
    if (!planned) return { action: 'delete', prior, planned: null, diagnostics: [] };
    const stored = decodePlannedPrivate(req.planned_private);
    if (!stored) {
      const config = asObj(readDynamic(req.config, this.resourceSchema(handler.typeName).type)) ?? planned;
      const again = await handler.plan({ prior, config: handlerConfig(block, config), serviceDiff: false });
      const errors = again.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) throw new DiagnosticsError(errors);
      return again;
    }
    // Terraform splits a replacement into a delete and a create, each applied on its own.
    const action = stored.action === 'replace' && !prior ? 'create' : stored.action;
    return {
      action,
      prior,
      planned: stored.planned === undefined ? planned : stored.planned,
      ...(stored.private ? { private: stored.private } : {}),
      ...(stored.replacePaths ? { replacePaths: stored.replacePaths } : {}),
      diagnostics: [],
    };
  }

  async importResourceState(req: { type_name: string; id: string }): Promise<Obj> {
    let schema: TypedSchema | undefined;
    try {
      schema = this.resourceSchema(req.type_name);
      const state = await this.resourceHandler(req.type_name).import(req.id);
      const value = conformRefreshed(schema.block, settle(state), {});
      return {
        imported_resources: [
          { type_name: req.type_name, state: dynamic(value, schema.type), private: EMPTY },
        ],
        diagnostics: [],
      };
    } catch (e) {
      return { diagnostics: fromError(e, `Cannot import ${req.type_name} "${req.id}"`, schema?.type) };
    }
  }

  moveResourceState(req: { source_type_name?: string; target_type_name?: string }): Obj {
    return {
      diagnostics: [
        errorDiagnostic(
          'Move not supported',
          `the ${this.factory.name} provider cannot move state from "${req.source_type_name ?? ''}" to "${req.target_type_name ?? ''}"`,
        ),
      ],
    };
  }

  // ---- data sources ------------------------------------------------------------------------------

  validateDataResourceConfig(req: { type_name: string; config?: DynamicValue | null }): Obj {
    try {
      const { block, type } = this.dataSchema(req.type_name);
      const ds = this.validationProvider().dataSources[req.type_name];
      const config = asObj(readDynamic(req.config, type)) ?? {};
      return { diagnostics: ds ? toProtoAll(ds.validate(handlerConfig(block, config)), type) : [] };
    } catch (e) {
      return { diagnostics: fromError(e, `Invalid ${req.type_name} configuration`) };
    }
  }

  async readDataSource(req: { type_name: string; config?: DynamicValue | null }): Promise<Obj> {
    let schema: TypedSchema | undefined;
    try {
      schema = this.dataSchema(req.type_name);
      const config = asObj(readDynamic(req.config, schema.type)) ?? {};
      const ds = this.configured().dataSources[req.type_name];
      if (!ds) throw new UnknownTypeError('data source', req.type_name, this.factory.name);
      const diagnostics = toProtoAll(ds.validate(handlerConfig(schema.block, config)), schema.type);
      if (hasErrors(diagnostics)) return { diagnostics };
      const state = await ds.read(handlerConfig(schema.block, config));
      return { state: dynamic(conformDataState(schema.block, state, config), schema.type), diagnostics };
    } catch (e) {
      return { diagnostics: fromError(e, `Cannot read data source ${req.type_name}`, schema?.type) };
    }
  }

  // ---- what this provider does not have ----------------------------------------------------------

  unsupported(what: string): Obj {
    return {
      diagnostics: [
        errorDiagnostic(`Unsupported: ${what}`, `the ${this.factory.name} provider has no ${what}`),
      ],
    };
  }

  callFunction(req: { name?: string }): Obj {
    return { error: { text: `the ${this.factory.name} provider has no function "${req.name ?? ''}"` } };
  }
}

class UnknownTypeError extends Error {
  constructor(kind: string, type: string, provider: string) {
    super(`the ${provider} provider has no ${kind} type "${type}"`);
    this.name = 'UnknownTypeError';
  }
}

/** A state with every value still unknown set to null: what can be recorded. */
function settle(v: State): State {
  const walk = (x: unknown): unknown => {
    if (isUnknown(x)) return null;
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object')
      return Object.fromEntries(Object.entries(x).map(([k, e]) => [k, walk(e)]));
    return x;
  };
  return walk(v) as State;
}

function jobIdOf(change: PlannedChange, config: Obj): string | undefined {
  const id = change.planned?.['id'];
  if (typeof id === 'string') return id;
  return typeof config['name'] === 'string' ? config['name'] : undefined;
}

function differs(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
}

/**
 * The paths that make Terraform plan a replacement. Terraform only replaces when one of them changes
 * between prior and planned, so when the handler's reason lies elsewhere (e.g. a job ID set through an
 * HCL variable), every changed argument is named instead.
 */
function requiresReplace(change: PlannedChange, prior: Obj | null, planned: Obj): { steps: ProtoStep[] }[] {
  if (change.action !== 'replace' || !prior) return [];
  const changedTop = (name: string): boolean => differs(prior[name], planned[name]);
  const fromHandler = (change.replacePaths ?? []).filter((p) => typeof p[0] === 'string' && changedTop(p[0]));
  const names =
    fromHandler.length > 0
      ? fromHandler.map((p) => p[0] as string)
      : Object.keys(planned).filter((k) => changedTop(k) && !isUnknown(planned[k]));
  return [...new Set(names)].map((name) => ({ steps: [{ attribute_name: name }] }));
}

export type { ProtoDiagnostic };
