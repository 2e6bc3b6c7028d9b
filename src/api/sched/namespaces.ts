import { z } from 'zod';
import { RequestValidationError } from '../errors';
import type { Transport } from '../transport';
import {
  AckSchema,
  type PlainWriteOptions,
  type PrefixListOptions,
  type ReadOptions,
  type Result,
} from './options';
import { seg } from './paths';
import { NamespaceSchema, type Namespace } from './schemas';
import { prefixListQuery } from './list-query';
import { requireNonEmpty } from './validate';

// Nomad's rule for namespace names: letters, digits, dashes; at most 128 characters.
const NAME = /^[a-zA-Z0-9-]{1,128}$/;

const NamespaceListSchema = z.array(NamespaceSchema);

/** Scheduler namespaces, `/v1/namespaces` and `/v1/namespace/<name>` (as Nomad has them). */
export class NamespacesApi {
  constructor(private readonly t: Transport) {}

  /** `GET /v1/namespaces`. */
  async list(opts: PrefixListOptions = {}): Promise<Result<Namespace[]>> {
    return this.t.get('/v1/namespaces', NamespaceListSchema, prefixListQuery(opts));
  }

  /** `GET /v1/namespace/<name>`. */
  async read(name: string, opts: Omit<ReadOptions, 'namespace'> = {}): Promise<Result<Namespace>> {
    requireNonEmpty('name', name);
    return this.t.get(`/v1/namespace/${seg(name)}`, NamespaceSchema, opts);
  }

  /** `POST /v1/namespace/<name>`: creates or replaces the namespace. */
  async upsert(namespace: Namespace, opts: Omit<PlainWriteOptions, 'namespace'> = {}): Promise<Result<void>> {
    if (!NAME.test(namespace.Name ?? '')) {
      throw new RequestValidationError('Name', 'must be 1-128 letters, digits or dashes');
    }
    return this.t.send('POST', `/v1/namespace/${seg(namespace.Name)}`, namespace, AckSchema, opts);
  }

  /** `DELETE /v1/namespace/<name>`. */
  async delete(name: string, opts: Omit<PlainWriteOptions, 'namespace'> = {}): Promise<Result<void>> {
    requireNonEmpty('name', name);
    return this.t.send('DELETE', `/v1/namespace/${seg(name)}`, undefined, AckSchema, opts);
  }
}
