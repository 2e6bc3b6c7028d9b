/**
 * The recorded state of a stack, in memory: resources and their instances by address, root
 * outputs, lineage and serial. Parsing and serializing follow Terraform's state format v4 (see
 * format.ts). Values handed in or out are copies, so callers cannot change the state behind its back.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { copyJson } from '../../api/json-copy';
import type { AttrPath } from '../../provider/values';
import {
  type InstanceAddress,
  type InstanceKey,
  type ResourceAddress,
  AddressError,
  compareKeys,
  compareResources,
  formatAddress,
  formatResourceAddress,
  parseAddress,
} from './address';
import {
  type InstanceV4,
  type ResourceV4,
  type StateV4,
  DEFAULT_TERRAFORM_VERSION,
  STATE_FORMAT_VERSION,
  StateV4Schema,
  decodePath,
  defaultProviderFor,
  encodePath,
  impliedType,
  sortKeysDeep,
} from './format';

export interface InstanceObject {
  schemaVersion: number;
  attributes: Record<string, unknown>;
  /** Paths into attributes that are sensitive (Terraform's sensitive_attributes). */
  sensitiveAttributes?: AttrPath[];
  /**
   * Handler data kept between plan/apply runs (PlannedChange.private), stored as base64 JSON like
   * Terraform's private bytes. Bytes that were not JSON (written by another provider) come back as
   * `{ [OPAQUE_PRIVATE]: base64 }` and are written back unchanged.
   */
  private?: Record<string, unknown>;
  /** Resource addresses (without keys) this object depended on when it was last applied. */
  dependencies?: string[];
  status?: 'tainted';
  createBeforeDestroy?: boolean;
  /**
   * A create was started and did not report back (the process was killed): the object may exist.
   * Written before the create (as `status: "tainted"` plus `create_pending: true`), so that the
   * next plan looks for the object instead of losing track of it; replaced once the create ends.
   */
  createPending?: boolean;
}

export interface OutputValue {
  value: unknown;
  /** Terraform type notation; inferred from the value when not given. */
  type: unknown;
  sensitive: boolean;
}

export const OPAQUE_PRIVATE = '__opaque_base64__';

export class StateFileError extends Error {
  constructor(
    readonly path: string | undefined,
    reason: string,
  ) {
    super(`${path ? `state file ${path}` : 'state'}: ${reason}`);
    this.name = 'StateFileError';
  }
}

export class StateMoveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateMoveError';
  }
}

interface StoredInstance {
  obj: InstanceObject;
  /** Fields of the v4 instance we do not model (e.g. identity from newer Terraform), kept verbatim. */
  extra: Record<string, unknown>;
}

interface StoredResource extends ResourceAddress {
  provider: string;
  each?: string;
  instances: Map<string, { key: InstanceKey | undefined; inst: StoredInstance }>;
  /** Deposed objects (left by an interrupted create_before_destroy in Terraform): kept, not modelled. */
  deposed: InstanceV4[];
  extra: Record<string, unknown>;
}

const KNOWN_INSTANCE_FIELDS = new Set([
  'index_key',
  'status',
  'deposed',
  'schema_version',
  'attributes',
  'attributes_flat',
  'sensitive_attributes',
  'private',
  'dependencies',
  'create_before_destroy',
  'create_pending',
]);
const KNOWN_RESOURCE_FIELDS = new Set(['module', 'mode', 'type', 'name', 'each', 'provider', 'instances']);
const KNOWN_STATE_FIELDS = new Set([
  'version',
  'terraform_version',
  'serial',
  'lineage',
  'outputs',
  'resources',
  'check_results',
]);

function keyId(key: InstanceKey | undefined): string {
  return key === undefined ? '' : typeof key === 'number' ? `n:${key}` : `s:${key}`;
}

function resourceId(a: ResourceAddress): string {
  return formatResourceAddress(a);
}

/** The fields of `obj` not in `known`; the shared NO_EXTRA when there are none (the usual case). */
function pick(obj: Record<string, unknown>, known: Set<string>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(obj)) if (!known.has(k)) (out ??= {})[k] = obj[k];
  return out ?? NO_EXTRA;
}

/** Read only, like every `extra`: they are only ever spread into what is written. */
const NO_EXTRA: Record<string, unknown> = Object.freeze({});

function decodePrivate(b64: string | undefined): Record<string, unknown> | undefined {
  if (!b64) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // not JSON: fall through and keep the bytes opaque
  }
  return { [OPAQUE_PRIVATE]: b64 };
}

function encodePrivate(p: Record<string, unknown> | undefined): string | undefined {
  if (!p || Object.keys(p).length === 0) return undefined;
  const opaque = p[OPAQUE_PRIVATE];
  if (typeof opaque === 'string' && Object.keys(p).length === 1) return opaque;
  return Buffer.from(JSON.stringify(p), 'utf8').toString('base64');
}

/** Whether an instance of `r` other than `kid` is keyed where `key` is not, or the other way round. */
function mixesKeys(r: StoredResource, key: InstanceKey | undefined, kid: string): boolean {
  // A loop, not a filtered copy of the instances: set() runs for every instance an apply records.
  for (const i of r.instances.values())
    if ((i.key === undefined) !== (key === undefined) && keyId(i.key) !== kid) return true;
  return false;
}

function toAddress(address: string | InstanceAddress): InstanceAddress {
  return typeof address === 'string' ? parseAddress(address) : address;
}

function copyObject(o: InstanceObject): InstanceObject {
  return copyJson(o);
}

export class StateFile {
  lineage: string;
  serial: number;
  terraformVersion: string;
  private readonly resourcesById = new Map<string, StoredResource>();
  private readonly outputValues = new Map<string, OutputValue>();
  /** serialize()'s text of each instance, until it is replaced (instances are never changed in place). */
  private readonly instanceTexts = new WeakMap<
    StoredInstance,
    { key: InstanceKey | undefined; text: string }
  >();
  private checkResults: unknown = null;
  private extra: Record<string, unknown> = {};

  private constructor(lineage: string, serial: number, terraformVersion: string) {
    this.lineage = lineage;
    this.serial = serial;
    this.terraformVersion = terraformVersion;
  }

  /** A state with nothing in it and a new lineage. */
  static empty(opts: { lineage?: string; terraformVersion?: string } = {}): StateFile {
    return new StateFile(opts.lineage ?? randomUUID(), 0, opts.terraformVersion ?? DEFAULT_TERRAFORM_VERSION);
  }

  /** Parses state v4 JSON; `source` names the file in errors. */
  static parse(text: string, source?: string): StateFile {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new StateFileError(source, `not valid JSON (${(e as Error).message})`);
    }
    const version = (raw as { version?: unknown } | null)?.version;
    if (version !== STATE_FORMAT_VERSION) {
      throw new StateFileError(
        source,
        `state format version ${JSON.stringify(version)} is not supported; only version 4 (Terraform >= 0.12) is`,
      );
    }
    const parsed = StateV4Schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new StateFileError(source, `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return StateFile.fromV4(parsed.data, source);
  }

  /** Reads a state file; a missing or empty file is an empty state with a new lineage. */
  static async load(path: string, opts: { terraformVersion?: string } = {}): Promise<StateFile> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return StateFile.empty(opts);
      throw e;
    }
    if (text.trim() === '') return StateFile.empty(opts);
    return StateFile.parse(text, path);
  }

  private static fromV4(v4: StateV4, source?: string): StateFile {
    const s = new StateFile(v4.lineage, v4.serial, v4.terraform_version);
    s.checkResults = v4.check_results ?? null;
    s.extra = pick(v4 as Record<string, unknown>, KNOWN_STATE_FIELDS);
    for (const [name, o] of Object.entries(v4.outputs ?? {})) {
      s.outputValues.set(name, { value: o.value, type: o.type, sensitive: o.sensitive === true });
    }
    for (const r of v4.resources ?? []) {
      const addr: ResourceAddress = { module: r.module ?? '', mode: r.mode, type: r.type, name: r.name };
      const id = resourceId(addr);
      if (s.resourcesById.has(id)) throw new StateFileError(source, `resource ${id} appears more than once`);
      // Written out, not spread from addr: an object built by spreading gets a hidden class of its own
      // in V8 (10,000 of them, 4 MB, for a state of 10,000 resources).
      const stored: StoredResource = {
        module: addr.module,
        mode: addr.mode,
        type: addr.type,
        name: addr.name,
        provider: r.provider,
        instances: new Map(),
        deposed: [],
        extra: pick(r as Record<string, unknown>, KNOWN_RESOURCE_FIELDS),
      };
      if (r.each) stored.each = r.each;
      for (const i of r.instances) {
        if (i.deposed) {
          stored.deposed.push(i);
          continue;
        }
        const kid = keyId(i.index_key);
        if (stored.instances.has(kid)) {
          throw new StateFileError(
            source,
            `instance ${formatAddress({ ...addr, key: i.index_key })} appears twice`,
          );
        }
        let attributes = i.attributes;
        if (!attributes && i.attributes_flat) {
          throw new StateFileError(
            source,
            `${formatAddress({ ...addr, key: i.index_key })} uses the pre-0.12 flat attribute format; upgrade it with Terraform first`,
          );
        }
        attributes ??= {};
        const obj: InstanceObject = { schemaVersion: i.schema_version, attributes };
        if (i.sensitive_attributes && i.sensitive_attributes.length > 0) {
          obj.sensitiveAttributes = i.sensitive_attributes.map(decodePath);
        }
        const priv = decodePrivate(i.private);
        if (priv) obj.private = priv;
        if (i.dependencies && i.dependencies.length > 0) obj.dependencies = [...i.dependencies];
        if (i.create_before_destroy) obj.createBeforeDestroy = true;
        if ((i as Record<string, unknown>)['create_pending'] === true) obj.createPending = true;
        else if (i.status) obj.status = i.status;
        stored.instances.set(kid, {
          key: i.index_key,
          inst: { obj, extra: pick(i as Record<string, unknown>, KNOWN_INSTANCE_FIELDS) },
        });
      }
      s.resourcesById.set(id, stored);
    }
    return s;
  }

  /** A deep copy (same lineage and serial). */
  clone(): StateFile {
    return StateFile.fromV4(StateV4Schema.parse(JSON.parse(this.serialize())));
  }

  // ---- instances ----

  get(address: string | InstanceAddress): InstanceObject | undefined {
    const a = toAddress(address);
    const inst = this.resourcesById.get(resourceId(a))?.instances.get(keyId(a.key));
    return inst ? copyObject(inst.inst.obj) : undefined;
  }

  /**
   * The stored object itself, not a copy, for a caller that only reads it: get() copies the whole
   * object, and a plan reads each instance's several times.
   */
  peek(address: string | InstanceAddress): Readonly<InstanceObject> | undefined {
    const a = toAddress(address);
    return this.resourcesById.get(resourceId(a))?.instances.get(keyId(a.key))?.inst.obj;
  }

  has(address: string | InstanceAddress): boolean {
    const a = toAddress(address);
    return this.resourcesById.get(resourceId(a))?.instances.has(keyId(a.key)) ?? false;
  }

  /** Provider configuration address recorded for a resource, if it is in the state. */
  providerOf(address: string | ResourceAddress): string | undefined {
    const a = typeof address === 'string' ? parseAddress(address) : address;
    return this.resourcesById.get(resourceId(a))?.provider;
  }

  /**
   * Records an instance. `provider` defaults to what the resource already has, else to the
   * provider named by the type's prefix (`sched_job` -> cdktf-sched/sched).
   */
  set(address: string | InstanceAddress, obj: InstanceObject, opts: { provider?: string } = {}): void {
    const a = toAddress(address);
    const id = resourceId(a);
    let r = this.resourcesById.get(id);
    if (!r) {
      r = {
        module: a.module,
        mode: a.mode,
        type: a.type,
        name: a.name,
        provider: opts.provider ?? defaultProviderFor(a.type),
        instances: new Map(),
        deposed: [],
        extra: {},
      };
      this.resourcesById.set(id, r);
    } else if (opts.provider) {
      r.provider = opts.provider;
    }
    const kid = keyId(a.key);
    if (mixesKeys(r, a.key, kid)) {
      throw new AddressError(
        formatAddress(a),
        a.key === undefined
          ? `${id} has instances with keys (count/for_each); address one of them`
          : `${id} has an instance without a key; it cannot also have keyed instances`,
      );
    }
    if (!Number.isInteger(obj.schemaVersion) || obj.schemaVersion < 0) {
      throw new StateFileError(
        undefined,
        `${formatAddress(a)}: schemaVersion must be a non-negative integer`,
      );
    }
    r.instances.set(kid, { key: a.key, inst: { obj: copyObject(obj), extra: {} } });
    // Terraform writes how the instances are keyed: "list" for count, "map" for for_each.
    if (a.key === undefined) delete r.each;
    else r.each = typeof a.key === 'number' ? 'list' : 'map';
  }

  /**
   * Removes an instance, or every instance of a resource when the address has no key and the
   * resource has keyed instances (as `terraform state rm sched_job.web` does). Returns what was removed.
   */
  remove(address: string | InstanceAddress): string[] {
    const a = toAddress(address);
    const id = resourceId(a);
    const r = this.resourcesById.get(id);
    if (!r) return [];
    const removed: string[] = [];
    if (a.key === undefined && !r.instances.has('')) {
      for (const { key } of r.instances.values()) removed.push(formatAddress({ ...r, key }));
      this.resourcesById.delete(id);
      return removed.sort();
    }
    if (r.instances.delete(keyId(a.key))) removed.push(formatAddress(a));
    if (r.instances.size === 0 && r.deposed.length === 0) this.resourcesById.delete(id);
    return removed;
  }

  /** Instance addresses in Terraform's state order. */
  addresses(): string[] {
    return this.instances().map((e) => e.address);
  }

  /** Every instance's parsed address and provider, in Terraform's state order (no object copied). */
  instances(): { address: string; addr: InstanceAddress; provider: string }[] {
    const out: { address: string; addr: InstanceAddress; provider: string }[] = [];
    for (const r of this.sortedResources()) {
      for (const { key } of this.sortedInstances(r)) {
        const addr: InstanceAddress = { module: r.module, mode: r.mode, type: r.type, name: r.name };
        if (key !== undefined) addr.key = key;
        out.push({ address: formatAddress(addr), addr, provider: r.provider });
      }
    }
    return out;
  }

  /** Whether the instance is a create that did not report back (see InstanceObject.createPending). */
  isCreatePending(address: string | InstanceAddress): boolean {
    const a = toAddress(address);
    return (
      this.resourcesById.get(resourceId(a))?.instances.get(keyId(a.key))?.inst.obj.createPending === true
    );
  }

  /** Every instance with its parsed address and provider, in Terraform's state order. */
  entries(): { address: string; addr: InstanceAddress; provider: string; object: InstanceObject }[] {
    const out: { address: string; addr: InstanceAddress; provider: string; object: InstanceObject }[] = [];
    for (const r of this.sortedResources()) {
      for (const { key, inst } of this.sortedInstances(r)) {
        const addr: InstanceAddress = { module: r.module, mode: r.mode, type: r.type, name: r.name };
        if (key !== undefined) addr.key = key;
        out.push({ address: formatAddress(addr), addr, provider: r.provider, object: copyObject(inst.obj) });
      }
    }
    return out;
  }

  /** True when there are no resources and no outputs. */
  isEmpty(): boolean {
    return this.resourcesById.size === 0 && this.outputValues.size === 0;
  }

  /**
   * `state mv`: moves an instance to a new address, or a whole resource (all its instances) when
   * neither address has a key and the source has keyed instances. Type and mode must match and
   * the destination must be free.
   */
  move(from: string | InstanceAddress, to: string | InstanceAddress): string[] {
    const src = toAddress(from);
    const dst = toAddress(to);
    const fromText = formatAddress(src);
    const toText = formatAddress(dst);
    if (src.mode !== dst.mode || src.type !== dst.type) {
      throw new StateMoveError(
        `cannot move ${fromText} to ${toText}: resource type and mode must stay the same`,
      );
    }
    const sr = this.resourcesById.get(resourceId(src));
    if (!sr) throw new StateMoveError(`cannot move ${fromText}: no such resource in the state`);
    const whole = src.key === undefined && !sr.instances.has('') && sr.instances.size > 0;
    if (whole) {
      if (dst.key !== undefined) {
        throw new StateMoveError(
          `cannot move all instances of ${fromText} into the single instance ${toText}`,
        );
      }
      if (this.resourcesById.has(resourceId(dst))) {
        throw new StateMoveError(
          `cannot move ${fromText} to ${toText}: ${toText} already exists in the state`,
        );
      }
      this.resourcesById.delete(resourceId(src));
      const moved: StoredResource = { ...sr, module: dst.module, name: dst.name };
      this.resourcesById.set(resourceId(dst), moved);
      return [...sr.instances.values()].map(({ key }) => formatAddress({ ...moved, key })).sort();
    }
    const inst = sr.instances.get(keyId(src.key));
    if (!inst) throw new StateMoveError(`cannot move ${fromText}: no such instance in the state`);
    if (this.has(dst)) {
      throw new StateMoveError(`cannot move ${fromText} to ${toText}: ${toText} already exists in the state`);
    }
    const sameRes = resourceId(src) === resourceId(dst);
    const dr = this.resourcesById.get(resourceId(dst));
    if (dr && !sameRes && dr.provider !== sr.provider) {
      throw new StateMoveError(`cannot move ${fromText} to ${toText}: the resources use different providers`);
    }
    // Take the source out first so `web` -> `web[0]` within one resource passes the key check; put it back if refused.
    sr.instances.delete(keyId(src.key));
    if (!sameRes && sr.instances.size === 0 && sr.deposed.length === 0)
      this.resourcesById.delete(resourceId(src));
    try {
      this.set(dst, inst.inst.obj, { provider: sr.provider });
    } catch (e) {
      sr.instances.set(keyId(src.key), inst);
      this.resourcesById.set(resourceId(src), sr);
      throw e;
    }
    const moved = this.resourcesById.get(resourceId(dst))!.instances.get(keyId(dst.key))!;
    moved.inst = { ...moved.inst, extra: inst.inst.extra };
    return [toText];
  }

  // ---- outputs ----

  outputs(): Record<string, OutputValue> {
    const out: Record<string, OutputValue> = {};
    for (const name of [...this.outputValues.keys()].sort())
      out[name] = copyJson(this.outputValues.get(name)!);
    return out;
  }

  getOutput(name: string): OutputValue | undefined {
    const o = this.outputValues.get(name);
    return o ? copyJson(o) : undefined;
  }

  setOutput(name: string, value: unknown, opts: { sensitive?: boolean; type?: unknown } = {}): void {
    this.outputValues.set(name, {
      value: copyJson(value),
      type: opts.type ?? impliedType(value),
      sensitive: opts.sensitive === true,
    });
  }

  removeOutput(name: string): boolean {
    return this.outputValues.delete(name);
  }

  // ---- serialization ----

  /** `instance` stands in for the v4 form of each instance (serialize() puts cached text there). */
  toV4(instance: (key: InstanceKey | undefined, inst: StoredInstance) => InstanceV4 = instanceToV4): StateV4 {
    const outputs: NonNullable<StateV4['outputs']> = {};
    for (const [name, o] of Object.entries(this.outputs())) {
      outputs[name] = { value: o.value, type: o.type, ...(o.sensitive ? { sensitive: true } : {}) };
    }
    const resources: ResourceV4[] = [];
    for (const r of this.sortedResources()) {
      const instances: InstanceV4[] = [];
      for (const { key, inst } of this.sortedInstances(r)) instances.push(instance(key, inst));
      instances.push(...r.deposed);
      resources.push({
        ...(r.module ? { module: r.module } : {}),
        mode: r.mode,
        type: r.type,
        name: r.name,
        ...(r.each ? { each: r.each } : {}),
        provider: r.provider,
        instances,
        ...r.extra,
      });
    }
    return {
      version: STATE_FORMAT_VERSION,
      terraform_version: this.terraformVersion,
      serial: this.serial,
      lineage: this.lineage,
      outputs,
      resources,
      check_results: this.checkResults ?? null,
      ...this.extra,
    };
  }

  /** The file's bytes: two-space indented JSON and a final newline, like Terraform writes. */
  serialize(): string {
    // Each instance's text is kept until the instance changes, so a write during an apply costs the
    // changed instances plus joining the rest, not re-encoding every resource (quadratic over a run).
    const texts: string[] = [];
    const skeleton = this.toV4((key, inst) => {
      texts.push(this.instanceText(key, inst));
      return `${INSTANCE_MARK}${texts.length - 1}` as unknown as InstanceV4;
    });
    // split() rather than replace() with a callback: V8 runs this pattern's replace about fifty times
    // slower (5 ms for 200 instances), and a write during an apply is mostly this join.
    const parts = JSON.stringify(skeleton, null, 2).split(INSTANCE_MARK_RE);
    for (let i = 1; i < parts.length; i += 2) parts[i] = texts[Number(parts[i])]!;
    parts.push('\n');
    return parts.join('');
  }

  /** The file text and its fingerprint from one serialization (a write needs both). */
  snapshot(): { text: string; fingerprint: string } {
    const text = this.serialize();
    return { text, fingerprint: withoutSerial(text) };
  }

  private instanceText(key: InstanceKey | undefined, inst: StoredInstance): string {
    const hit = this.instanceTexts.get(inst);
    if (hit && hit.key === key) return hit.text;
    // split/join gives one flat string; a regex replace would keep a rope of slices of the original.
    const text = JSON.stringify(instanceToV4(key, inst), null, 2).split('\n').join(`\n${INSTANCE_INDENT}`);
    this.instanceTexts.set(inst, { key, text });
    return text;
  }

  /** Serialization without the serial: equal fingerprints mean nothing worth a new serial changed. */
  fingerprint(): string {
    return withoutSerial(this.serialize());
  }

  private sortedResources(): StoredResource[] {
    return [...this.resourcesById.values()].sort(compareResources);
  }

  private sortedInstances(r: StoredResource): { key: InstanceKey | undefined; inst: StoredInstance }[] {
    return [...r.instances.values()].sort((a, b) => compareKeys(a.key, b.key));
  }
}

/*
 * serialize() encodes the state with a marker where each instance goes, then puts the instance's own
 * text there. The marker carries a per-process nonce, so no value in the state can imitate it.
 * Instances sit four levels deep in the file (root, resources, resource, instances): 8 spaces.
 */
const INSTANCE_MARK = `\u0001instance-${randomUUID()}-`;
const INSTANCE_MARK_RE = new RegExp(
  `"${JSON.stringify(INSTANCE_MARK).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`,
  'g',
);
const INSTANCE_INDENT = ' '.repeat(8);

/** The state text without its serial line: equal fingerprints mean nothing worth a new serial changed. */
function withoutSerial(text: string): string {
  // The serial is a line of its own near the top (toV4's third field): no regex over the whole text.
  const at = text.indexOf(SERIAL_LINE);
  if (at < 0) return text;
  const end = text.indexOf('\n', at + SERIAL_LINE.length);
  return end < 0 ? text : text.slice(0, at + 1) + text.slice(end + 1);
}
const SERIAL_LINE = '\n  "serial": ';

function instanceToV4(key: InstanceKey | undefined, inst: StoredInstance): InstanceV4 {
  const o = inst.obj;
  const priv = encodePrivate(o.private);
  return {
    ...(key !== undefined ? { index_key: key } : {}),
    // Terraform ignores create_pending and replaces a tainted object: the cautious reading.
    ...(o.status ? { status: o.status } : o.createPending ? { status: 'tainted' as const } : {}),
    schema_version: o.schemaVersion,
    attributes: sortKeysDeep(o.attributes) as Record<string, unknown>,
    sensitive_attributes: (o.sensitiveAttributes ?? []).map(encodePath),
    ...(priv ? { private: priv } : {}),
    ...(o.dependencies && o.dependencies.length > 0 ? { dependencies: [...o.dependencies].sort() } : {}),
    ...(o.createBeforeDestroy ? { create_before_destroy: true } : {}),
    ...(o.createPending ? { create_pending: true } : {}),
    ...inst.extra,
  };
}
