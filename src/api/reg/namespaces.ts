import { z } from 'zod';
import type { QueryOptions, Result, Transport, WriteOptions } from '../transport';
import { checkBody, nameSegment, orEmpty, refuse } from './request';
import { checkDnsLabel } from './rules';
import {
  EmptyResultSchema,
  NamespaceCreateRequestSchema,
  NamespaceSchema,
  NamespaceUpdateRequestSchema,
  type Namespace,
  type NamespaceCreateRequest,
  type NamespaceUpdateRequest,
} from './schemas';
import { validateNamespaceCreate, validateNamespaceUpdate } from './validate';

const NamespaceListSchema = z.array(NamespaceSchema).nullable();

/** Namespaces (spec 4.2, extended edition). */
export class Namespaces {
  constructor(private readonly t: Transport) {}

  async create(ns: NamespaceCreateRequest, opts?: WriteOptions): Promise<Namespace> {
    checkBody(NamespaceCreateRequestSchema, ns);
    refuse(validateNamespaceCreate(ns));
    return (await this.t.send('PUT', '/v1/namespace', ns, NamespaceSchema, opts)).value;
  }

  /**
   * A missing namespace is raised as NotFoundError (Consul's Go client returns nil). A namespace marked for
   * deletion still reads, with DeletedAt set, until its data is gone.
   */
  async read(name: string, opts?: QueryOptions): Promise<Result<Namespace>> {
    return this.t.get(`/v1/namespace/${nameSegment(name, checkDnsLabel)}`, NamespaceSchema, opts);
  }

  async update(name: string, ns: NamespaceUpdateRequest, opts?: WriteOptions): Promise<Namespace> {
    const path = `/v1/namespace/${nameSegment(name, checkDnsLabel)}`;
    checkBody(NamespaceUpdateRequestSchema, ns);
    refuse(validateNamespaceUpdate(name, ns));
    return (await this.t.send('PUT', path, ns, NamespaceSchema, opts)).value;
  }

  /** Marks the namespace for deletion; success is the status code (errors are thrown). */
  async delete(name: string, opts?: WriteOptions): Promise<void> {
    await this.t.send(
      'DELETE',
      `/v1/namespace/${nameSegment(name, checkDnsLabel)}`,
      undefined,
      EmptyResultSchema,
      opts,
    );
  }

  /** Only the namespaces the token may see. */
  async list(opts?: QueryOptions): Promise<Result<Namespace[]>> {
    return orEmpty(await this.t.get('/v1/namespaces', NamespaceListSchema, opts));
  }
}
