/**
 * Values enter the store through a JSON round trip: the JSON text is what the log persists, and the parsed copy
 * is what readers get back. Memory and disk therefore hold the same thing (a Date becomes a string, undefined
 * fields vanish, in both places), and one stringify serves both the copy and the log line.
 */
export interface StoredCopy {
  value: object;
  json: string;
}

export function storedCopy(table: string, key: string, value: object): StoredCopy {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    throw new TypeError(
      `store: value for ${table}/${key} is not JSON-serializable: ${(err as Error).message}`,
    );
  }
  if (json === undefined) throw new TypeError(`store: value for ${table}/${key} is not JSON-serializable`);
  const parsed: unknown = JSON.parse(json);
  if (parsed === null || typeof parsed !== 'object') {
    throw new TypeError(`store: value for ${table}/${key} must serialize to a JSON object or array`);
  }
  return { value: deepFreeze(parsed), json };
}

/**
 * Readers get the stored object itself (no copy per read: reads are far hotter than writes), so it is frozen
 * to make an accidental mutation throw instead of silently changing committed state.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (Array.isArray(value)) {
      for (const item of value) deepFreeze(item);
    } else {
      for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
    }
  }
  return value;
}
