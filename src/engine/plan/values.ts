/**
 * Values of resources and data sources as plan and apply learn them, assembled in the shape
 * expressions expect: an object, an array by count index, or an object by for_each key.
 */
import { assembleResourceValue, type InstanceKey } from '../config';
import { markPaths } from '../expressions/marks';
import { UNKNOWN, type AttrPath } from '../../provider/values';

export class ValueBook {
  private readonly modes = new Map<string, 'single' | 'count' | 'for_each'>();
  private readonly values = new Map<string, Map<InstanceKey, unknown>>();

  declare(resourceAddress: string, mode: 'single' | 'count' | 'for_each'): void {
    this.modes.set(resourceAddress, mode);
    if (!this.values.has(resourceAddress)) this.values.set(resourceAddress, new Map());
  }

  /** `sensitive`: paths whose values expressions see marked (schema-sensitive, or derived from secrets). */
  set(resourceAddress: string, key: InstanceKey, value: unknown, sensitive: readonly AttrPath[] = []): void {
    let m = this.values.get(resourceAddress);
    if (!m) this.values.set(resourceAddress, (m = new Map()));
    m.set(key, sensitive.length > 0 ? markPaths(value, sensitive) : value);
  }

  /** Forgets an instance (destroyed), so `type.name[*]` and outputs no longer list it. */
  delete(resourceAddress: string, key: InstanceKey): void {
    this.values.get(resourceAddress)?.delete(key);
  }

  resolve(resourceAddress: string): unknown {
    const mode = this.modes.get(resourceAddress);
    if (!mode) return UNKNOWN;
    return assembleResourceValue(mode, this.values.get(resourceAddress)?.entries() ?? []);
  }
}
