/**
 * The contract between a resource handler and whoever drives it (our engine, or Terraform through
 * the plugin protocol). A handler translates one resource's desired state into API calls; it never
 * orders resources, records state or renders output.
 *
 *   validate(config)              -> diagnostics (static: types, ranges, formats)
 *   plan({prior, config})         -> PlannedChange (may call the service, e.g. the job plan endpoint)
 *   apply(change)                 -> new state, or null when deleted
 *   read(state)                   -> refreshed state, or null when the object is gone
 *   refreshMany?(states)          -> per state: refreshed without its own read, or undefined (read it)
 *   import(id)                    -> state of an existing object
 */
import type { z } from 'zod';
import type { AttrPath, Diagnostic } from './values';

export type Action = 'noop' | 'create' | 'update' | 'replace' | 'delete';

/** Resource state as recorded: attribute name -> value (JSON). */
export type State = Record<string, unknown>;

/** Desired configuration: attribute name -> value, where values may be UNKNOWN until apply. */
export type Config = Record<string, unknown>;

export interface SchedulerAnnotations {
  /** Per task group: Place, Stop, InPlaceUpdate, DestructiveUpdate, Canary, Ignore, Migrate. */
  desiredTGUpdates: Record<string, Record<string, number>>;
  /** Per task group: placement failure metrics as the scheduler reported them. */
  failedTGAllocs: Record<string, unknown> | null;
  /** The scheduler's structural job diff (Nomad's JobDiff), for renderers. */
  jobDiff: unknown;
  jobModifyIndex: number;
  nextPeriodicLaunch?: string;
  warnings?: string;
}

export interface PlannedChange {
  action: Action;
  /** Why a replace is needed: the attribute paths that force it. */
  replacePaths?: AttrPath[];
  prior: State | null;
  /** State expected after apply; attributes not known yet are UNKNOWN. null for delete. */
  planned: State | null;
  /** Opaque data the handler needs at apply time (e.g. the job plan's JobModifyIndex); kept in saved plans. */
  private?: Record<string, unknown>;
  annotations?: { scheduler?: SchedulerAnnotations };
  diagnostics: Diagnostic[];
}

export interface ProgressEvent {
  /** Resource-level message, e.g. "deployment 1a2b3c4d running". */
  message: string;
  /** Per task group progress of a deployment. */
  groups?: Record<
    string,
    {
      desired: number;
      placed: number;
      healthy: number;
      unhealthy: number;
      canaries: number;
      progressDeadline?: string;
    }
  >;
}

export interface ApplyContext {
  signal?: AbortSignal;
  onProgress?: (e: ProgressEvent) => void;
  /**
   * Called once the change is done on the cluster, when what is left of the apply only reads back
   * its result: the engine may start the next change meanwhile (its parallelism counts changes).
   */
  onChanged?: () => void;
}

export interface ResourceHandler<C extends Config = Config, S extends State = State> {
  /** Terraform type name, e.g. `sched_job`. */
  readonly typeName: string;
  readonly description: string;
  /** All attributes (arguments and computed) as a zod object shape with attr() metadata. */
  readonly shape: Record<string, z.ZodType>;
  /** Schema version of the state, for upgrades. */
  readonly version: number;
  validate(config: C): Diagnostic[];
  /**
   * `replacing`: this plans the create half of a replacement the engine decided on (e.g.
   * replace_triggered_by), of the object in `replacing.prior`; `destroyFirst` when its destroy runs
   * before the create (false with create_before_destroy). A handler whose new object takes the old
   * one's identity needs to know; the others ignore it.
   *
   * `serviceDiff: false`: the caller shows no structural diff of the service's own (the job plan's
   * JobDiff in `annotations`), so the handler need not ask the service for one; the annotation is then
   * null. Absent or true: it is asked for.
   */
  plan(req: {
    prior: S | null;
    config: C | null;
    replacing?: { prior: S; destroyFirst: boolean };
    serviceDiff?: boolean;
  }): Promise<PlannedChange>;
  apply(change: PlannedChange, ctx?: ApplyContext): Promise<S | null>;
  read(state: S): Promise<S | null>;
  /**
   * Optional: refreshes many objects of this type at once, e.g. from one list request whose items carry
   * each object's modify index. For each state (same order): the refreshed state when the handler can
   * tell it without reading that object, or undefined when `read` must be called for it (changed, not
   * listed, or not enough recorded to tell). Never throws for a failed listing: it answers undefined for
   * all, so the per-object reads report the error. A state answered here must plan as if `read` had
   * just returned it (the handler remembers what it learnt for the next `plan` of that state).
   */
  refreshMany?(states: readonly S[]): Promise<Array<S | undefined>>;
  import(id: string): Promise<S>;
  /** Rewrites state written by an older schema version (default: unchanged). */
  upgrade?(state: State, fromVersion: number): State;
}

export interface DataSourceHandler<C extends Config = Config, S extends State = State> {
  readonly typeName: string;
  readonly description: string;
  readonly shape: Record<string, z.ZodType>;
  validate(config: C): Diagnostic[];
  read(config: C): Promise<S>;
}

/** A configured provider: its handlers, bound to clients for one cluster. */
export interface Provider {
  readonly name: 'sched' | 'reg';
  readonly resources: Record<string, ResourceHandler>;
  readonly dataSources: Record<string, DataSourceHandler>;
  close(): Promise<void>;
}

export interface ProviderFactory<Cfg extends Config = Config> {
  readonly name: 'sched' | 'reg';
  /** Provider configuration attributes (address, token, ...), with attr() metadata. */
  readonly shape: Record<string, z.ZodType>;
  validate(config: Cfg): Diagnostic[];
  configure(config: Cfg, env?: Readonly<Record<string, string | undefined>>): Provider;
  /** Handlers without a configured client, for schema generation. */
  readonly resourceShapes: Record<
    string,
    { description: string; shape: Record<string, z.ZodType>; version: number }
  >;
  readonly dataSourceShapes: Record<string, { description: string; shape: Record<string, z.ZodType> }>;
}
