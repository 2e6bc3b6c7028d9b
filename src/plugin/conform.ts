/**
 * The rules Terraform holds a provider to, applied to what our handlers answer. Terraform checks that
 * a planned value keeps every configured argument exactly as written (handlers may normalise, e.g. an
 * unset description planned as ""), that the state after apply matches what was planned, and that a
 * refresh does not turn an unset value into an equivalent empty one (which would plan a change forever).
 * The engine needs none of this; the plugin front end does, so it lives here and not in the handlers.
 */
import type { TerraformBlock } from '../provider/schema';
import { containsUnknown, isUnknown } from '../provider/values';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A new object with the block's attributes and then its nested blocks in schema order, each null until
 * set (the callers set every one). V8 turns an object given more than a dozen properties one by one
 * under computed names into a hash table: about 1.4 KB for a job's 26 attributes, 16 MB of a plan of
 * 10,000 that keeps one per instance. A copy of one object keeps its compact layout and shares it with
 * the other copies, as long as no copy gains a property (nested blocks are in the shape for that) and
 * no field meets a kind of value it has not held (the shape's fields have held every kind).
 */
function attributeRecord(block: TerraformBlock): Obj {
  let shape = shapes.get(block);
  if (!shape) {
    shape = recordShape([...attributeNames(block), ...Object.keys(block.block_types ?? {})]);
    shapes.set(block, shape);
  }
  return { ...shape };
}

const shapes = new WeakMap<TerraformBlock, Obj>();

/** The block's attribute names, listed once per block (each instance of a plan asks several times). */
export function attributeNames(block: TerraformBlock): readonly string[] {
  let names = attributeLists.get(block);
  if (!names) attributeLists.set(block, (names = Object.keys(block.attributes ?? {})));
  return names;
}

const attributeLists = new WeakMap<TerraformBlock, readonly string[]>();

function recordShape(names: string[]): Obj {
  const shape: Obj = Object.fromEntries(names.map((name) => [name, null]));
  for (const name of names) for (const v of [0, 0.5, '', {}, null]) shape[name] = v;
  return shape;
}

/** Null, "", [] and {}: values an unset argument and the cluster's empty value share. */
export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (isUnknown(v)) return false;
  if (Array.isArray(v)) return v.length === 0;
  if (isObj(v)) return Object.keys(v).length === 0;
  return false;
}

/** An attribute Terraform holds to its configured value: not computed, or optional+computed and set. */
function configDriven(block: TerraformBlock, name: string, configValue: unknown): boolean {
  const a = block.attributes?.[name];
  if (!a) return false;
  if (!a.computed) return true;
  return a.optional === true && configValue !== null && configValue !== undefined;
}

/** Nested blocks: element by element when the shapes line up, else as configured. */
function conformBlocks(
  block: TerraformBlock,
  out: Obj,
  config: Obj,
  from: Obj | null,
  each: (inner: TerraformBlock, value: Obj, config: Obj) => Obj,
): void {
  for (const [name, nested] of Object.entries(block.block_types ?? {})) {
    const c = config[name];
    const v = from?.[name];
    if (isUnknown(c)) {
      // A dynamic block not known yet: the whole block stays unknown.
      out[name] = c;
    } else if (nested.nesting_mode === 'single') {
      out[name] = isObj(c) && isObj(v) ? each(nested.block, v, c) : (c ?? null);
    } else if (
      nested.nesting_mode === 'list' &&
      Array.isArray(c) &&
      Array.isArray(v) &&
      c.length === v.length
    ) {
      out[name] = c.map((ce, i) => (isObj(ce) && isObj(v[i]) ? each(nested.block, v[i] as Obj, ce) : ce));
    } else {
      // Terraform gives an absent list or set block as an empty collection, never null.
      out[name] = c ?? [];
    }
  }
}

/**
 * The planned state Terraform accepts: the handler's plan, with every argument Terraform holds to the
 * configuration taken from the configuration (unknowns included).
 */
export function conformPlanned(block: TerraformBlock, planned: Obj, config: Obj): Obj {
  const out = attributeRecord(block);
  for (const name of attributeNames(block)) {
    const c = config[name] ?? null;
    out[name] = configDriven(block, name, c) ? c : (planned[name] ?? null);
  }
  conformBlocks(block, out, config, planned, (inner, v, c) => conformPlanned(inner, v, c));
  return out;
}

/** Unknowns as null; a value with none is returned as it is (every attribute of every no-op comes here). */
function settleUnknowns(v: unknown): unknown {
  return containsUnknown(v) ? settled(v) : v;
}

function settled(v: unknown): unknown {
  if (isUnknown(v)) return null;
  if (Array.isArray(v)) return v.map(settled);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, settled(x)]));
  return v;
}

/**
 * The state to report after apply: arguments as planned (Terraform requires them unchanged), computed
 * attributes as the handler found them, and no unknown value left anywhere.
 */
export function conformApplied(block: TerraformBlock, state: Obj, planned: Obj): Obj {
  const out = attributeRecord(block);
  for (const name of attributeNames(block)) out[name] = appliedAttribute(block, name, state, planned);
  conformBlocks(block, out, planned, state, (inner, v, p) => conformApplied(inner, v, p));
  return out;
}

/** One attribute of what conformApplied returns (never undefined). */
export function appliedAttribute(block: TerraformBlock, name: string, state: Obj, planned: Obj): unknown {
  const p = planned[name] ?? null;
  const keep = configDriven(block, name, p) && !isUnknown(p);
  return settleUnknowns(keep ? p : (state[name] ?? null));
}

/**
 * A refreshed state in which a value equivalent to the prior one (both empty) keeps the prior form, so
 * an argument left unset does not come back as "" or {} and plan an update that changes nothing.
 */
export function conformRefreshed(block: TerraformBlock, state: Obj, prior: Obj): Obj {
  const out: Obj = { ...state };
  for (const name of attributeNames(block)) {
    if (isEmptyValue(state[name]) && isEmptyValue(prior[name])) out[name] = prior[name] ?? null;
  }
  for (const [name, nested] of Object.entries(block.block_types ?? {})) {
    const v = state[name];
    if (nested.nesting_mode !== 'single' && (v === null || v === undefined)) out[name] = [];
  }
  return out;
}

/**
 * A data source's state: arguments as configured (all known at read time), results as read, no
 * unknowns.
 */
export function conformDataState(block: TerraformBlock, state: Obj, config: Obj): Obj {
  return conformApplied(block, state, config);
}

/**
 * Configuration as our handlers receive it from the engine: only the attributes that are set (Terraform
 * sends every attribute, null when unset), and no empty block lists.
 */
export function handlerConfig(block: TerraformBlock, config: Obj): Obj {
  const out: Obj = {};
  for (const [name, v] of Object.entries(config)) {
    if (v === null || v === undefined) continue;
    const nested = block.block_types?.[name];
    if (nested && !isUnknown(v)) {
      if (Array.isArray(v)) {
        if (v.length === 0) continue;
        out[name] = v.map((e) => (isObj(e) ? handlerConfig(nested.block, e) : e));
      } else out[name] = isObj(v) ? handlerConfig(nested.block, v) : v;
      continue;
    }
    out[name] = v;
  }
  return out;
}
