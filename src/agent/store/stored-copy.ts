/**
 * Values enter the store as their JSON round trip would leave them: what memory holds is what the log
 * persists and what a restart recovers (a Date becomes a string, undefined fields vanish, NaN becomes
 * null, in all places). The copy is made without going through JSON text: parts of the value that are
 * themselves stored records (an allocation embeds its job; an update spreads the previous version)
 * are frozen and already in that form, so they are shared instead of copied. The JSON text is only
 * made when a log needs it.
 */
export interface StoredCopy {
  value: object;
  /** The value's JSON text (made on first use, once). */
  json(): string;
}

/** Every object and array the store holds: frozen, in JSON form, safe to share between records. */
const stored = new WeakSet<object>();

export function storedCopy(table: string, key: string, value: object): StoredCopy {
  return checkedCopy(table, key, () => jsonForm(value, '', new Set()));
}

/**
 * storedCopy of `{ ...value, CreateIndex, ModifyIndex }` (a put's record), made without that spread
 * copy of the whole record when the spread would only copy its own fields: a plain object with no
 * toJSON, whose fields are then copied once, the two indexes set in place (or after the others,
 * where the spread puts them when the value has none).
 */
export function storedCopyWithIndexes(
  table: string,
  key: string,
  value: object,
  createIndex: number,
  modifyIndex: number,
): StoredCopy {
  const proto: unknown = Object.getPrototypeOf(value);
  const plain =
    (proto === Object.prototype || proto === null) &&
    !Array.isArray(value) &&
    typeof (value as { toJSON?: unknown }).toJSON === 'undefined';
  if (!plain) return storedCopy(table, key, { ...value, CreateIndex: createIndex, ModifyIndex: modifyIndex });
  const indexes: Indexes = { CreateIndex: createIndex, ModifyIndex: modifyIndex };
  return checkedCopy(table, key, () => objectForm(value, new Set([value]), indexes));
}

function checkedCopy(table: string, key: string, make: () => unknown): StoredCopy {
  let copy: unknown;
  try {
    copy = make();
  } catch (err) {
    throw new TypeError(
      `store: value for ${table}/${key} is not JSON-serializable: ${(err as Error).message}`,
    );
  }
  if (copy === undefined) throw new TypeError(`store: value for ${table}/${key} is not JSON-serializable`);
  if (copy === null || typeof copy !== 'object') {
    throw new TypeError(`store: value for ${table}/${key} must serialize to a JSON object or array`);
  }
  // jsonForm froze every part it made, and the parts it shares were frozen when they were stored.
  const frozen = copy;
  let json: string | undefined;
  return { value: frozen, json: () => (json ??= JSON.stringify(frozen)) };
}

/**
 * What JSON.parse(JSON.stringify(v)) gives for a value at `key` (undefined: the value is left out),
 * frozen and marked stored as it is made (one walk instead of a copy and then a freeze).
 */
function jsonForm(v: unknown, key: string, ancestors: Set<object>): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      // -0 prints as 0; NaN and the infinities print as null.
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (v === null) return null;
  const o = v as object;
  if (stored.has(o)) return o;
  if (typeof (o as { toJSON?: unknown }).toJSON === 'function') {
    return jsonForm((o as { toJSON: (k: string) => unknown }).toJSON(key), key, ancestors);
  }
  if (o instanceof Number || o instanceof String || o instanceof Boolean) {
    return jsonForm(o.valueOf(), key, ancestors);
  }
  if (ancestors.has(o)) throw new TypeError('Converting circular structure to JSON');
  ancestors.add(o);
  try {
    if (Array.isArray(o)) {
      const out = new Array<unknown>(o.length);
      for (let i = 0; i < o.length; i++) {
        const item = jsonForm(o[i], String(i), ancestors);
        out[i] = item === undefined ? null : item;
      }
      return markStored(out);
    }
    return objectForm(o, ancestors);
  } finally {
    ancestors.delete(o);
  }
}

/** The index fields a put sets on its record. */
interface Indexes {
  CreateIndex: number;
  ModifyIndex: number;
}

/**
 * jsonForm of a plain object's own fields (`o` is already among the ancestors). With `indexes`, the
 * two fields take those values instead, and one `o` lacks follows the others, as in a spread
 * `{ ...o, CreateIndex, ModifyIndex }`.
 */
function objectForm(o: object, ancestors: Set<object>, indexes?: Indexes): object {
  const out: Record<string, unknown> = {};
  const fields = o as Record<string, unknown>;
  let create = false;
  let modify = false;
  for (const k of Object.keys(o)) {
    let v = fields[k];
    if (indexes !== undefined) {
      if (k === 'CreateIndex') {
        v = indexes.CreateIndex;
        create = true;
      } else if (k === 'ModifyIndex') {
        v = indexes.ModifyIndex;
        modify = true;
      }
    }
    setField(out, k, jsonForm(v, k, ancestors));
  }
  if (indexes !== undefined) {
    if (!create) setField(out, 'CreateIndex', jsonForm(indexes.CreateIndex, 'CreateIndex', ancestors));
    if (!modify) setField(out, 'ModifyIndex', jsonForm(indexes.ModifyIndex, 'ModifyIndex', ancestors));
  }
  return markStored(out);
}

function setField(out: Record<string, unknown>, k: string, item: unknown): void {
  if (item === undefined) return;
  // JSON.parse makes "__proto__" an own property; plain assignment would set the prototype.
  if (k === '__proto__')
    Object.defineProperty(out, k, { value: item, enumerable: true, writable: true, configurable: true });
  else out[k] = item;
}

function markStored<T extends object>(o: T): T {
  Object.freeze(o);
  stored.add(o);
  return o;
}

/**
 * Marks a value as stored without copying it, when it is already what the copy would be (plain
 * objects and arrays of strings, booleans, finite numbers other than -0, and null, with no holes, no
 * toJSON, no symbol or hidden keys). For values their maker owns and will not change: they are frozen,
 * and every record that later embeds them shares them instead of copying. Returns whether it was so;
 * a value that is not is left as it is.
 */
export function adoptJsonForm(value: object): boolean {
  // One walk checks and lists the parts not stored yet; they are frozen only once all of it passed.
  const fresh: object[] = [];
  if (!isJsonForm(value, fresh, 0)) return false;
  for (const o of fresh) markStored(o);
  return true;
}

/**
 * Beyond any value a request can carry (bodies nest at most MAX_JSON_DEPTH): deeper means a cycle,
 * found without keeping a set of the ancestors on the way down.
 */
const MAX_ADOPT_DEPTH = 1024;

/**
 * Whether `v` is in JSON form; the objects and arrays in it not stored yet are appended to `fresh`
 * (a part reached twice is listed twice, which freezing does not mind).
 */
function isJsonForm(v: unknown, fresh: object[], depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null || stored.has(v)) return true;
  if (depth >= MAX_ADOPT_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) {
    // The own keys are the indexes and length: fewer means holes, more means extra properties.
    const n = v.length;
    if (Object.getOwnPropertyNames(v).length !== n + 1 || Object.getOwnPropertySymbols(v).length > 0)
      return false;
    fresh.push(v);
    for (let i = 0; i < n; i++) if (!isJsonForm(v[i], fresh, depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  const keys = Object.keys(v);
  if (Object.getOwnPropertyNames(v).length !== keys.length || Object.getOwnPropertySymbols(v).length > 0)
    return false;
  fresh.push(v);
  for (const k of keys) if (!isJsonForm((v as Record<string, unknown>)[k], fresh, depth + 1)) return false;
  return true;
}

/**
 * Readers get the stored object itself (no copy per read: reads are far hotter than writes), so it is frozen
 * to make an accidental mutation throw instead of silently changing committed state. Only values in JSON
 * form come here (copies made above, or parsed from the log and snapshots), so they may be shared.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !stored.has(value)) {
    Object.freeze(value);
    stored.add(value);
    if (Array.isArray(value)) {
      for (const item of value) deepFreeze(item);
    } else {
      for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
    }
  }
  return value;
}
