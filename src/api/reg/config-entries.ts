import { z } from 'zod';
import { ConflictError, RequestValidationError } from '../errors';
import type { QueryOptions, Result, Transport, WriteOptions } from '../transport';
import { checkBody, orEmpty, refuse, segment } from './request';
import {
  ConfigEntrySchema,
  configEntrySchemas,
  isConfigEntryKind,
  type ConfigEntry,
  type ConfigEntryKind,
  type ConfigEntryOf,
} from './schemas';
import { validateConfigEntry } from './validate';

/** Consul answers a plain delete with `{}` and a CAS delete with a boolean. */
const DeleteResultSchema = z.union([z.boolean(), z.unknown()]);

function kindSegment(kind: string): string {
  const p = segment('kind', kind);
  if (!isConfigEntryKind(kind)) {
    throw new RequestValidationError(
      'kind',
      `"${kind}" is not a config entry kind this client knows (rule: kind)`,
    );
  }
  return p;
}

export interface ConfigEntryWriteOptions extends WriteOptions {
  /** Check-and-set: only write if the entry's ModifyIndex is still this value (0: only if it does not exist). */
  cas?: number;
}

/**
 * Config entries that feed the discovery chain: `/config` (Consul's endpoints; the spec does not show them).
 * With `cas`, a `false` answer is raised as ConflictError, so a lost race is never mistaken for success.
 */
export class ConfigEntries {
  constructor(private readonly t: Transport) {}

  async list<K extends ConfigEntryKind>(kind: K, opts?: QueryOptions): Promise<Result<ConfigEntryOf<K>[]>> {
    const schema = z.array(configEntrySchemas[kind]).nullable();
    return orEmpty(await this.t.get(`/v1/config/${kindSegment(kind)}`, schema, opts));
  }

  /** A missing entry is a 404, raised as NotFoundError (so does Consul's Go client). */
  async read<K extends ConfigEntryKind>(
    kind: K,
    name: string,
    opts?: QueryOptions,
  ): Promise<Result<ConfigEntryOf<K>>> {
    const path = `/v1/config/${kindSegment(kind)}/${segment('name', name)}`;
    return this.t.get(path, configEntrySchemas[kind], opts);
  }

  /** Creates or replaces the entry. Resolves to the server's boolean. */
  async apply(entry: ConfigEntry, opts: ConfigEntryWriteOptions = {}): Promise<boolean> {
    checkBody(ConfigEntrySchema, entry);
    refuse(validateConfigEntry(entry));
    const { cas, ...write } = opts;
    const params = { ...(write.params ?? {}), cas: cas === undefined ? undefined : String(cas) };
    const res = await this.t.send('PUT', '/v1/config', entry, z.boolean(), { ...write, params });
    if (cas !== undefined && !res.value) throw casFailure('PUT', '/v1/config', cas);
    return res.value;
  }

  async delete(kind: ConfigEntryKind, name: string, opts: ConfigEntryWriteOptions = {}): Promise<boolean> {
    const path = `/v1/config/${kindSegment(kind)}/${segment('name', name)}`;
    const { cas, ...write } = opts;
    const params = { ...(write.params ?? {}), cas: cas === undefined ? undefined : String(cas) };
    const res = await this.t.send('DELETE', path, undefined, DeleteResultSchema, { ...write, params });
    const deleted = typeof res.value === 'boolean' ? res.value : true;
    if (cas !== undefined && !deleted) throw casFailure('DELETE', path, cas);
    return deleted;
  }
}

function casFailure(method: string, path: string, cas: number): ConflictError {
  return new ConflictError({
    status: 200,
    method,
    path,
    serverMessage: `check-and-set failed: the entry's ModifyIndex is no longer ${cas}`,
  });
}
