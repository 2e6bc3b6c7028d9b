import { z } from 'zod';
import type { QueryOptions, Result, Transport, WriteOptions } from '../transport';
import { checkBody, nameSegment, orEmpty, refuse } from './request';
import { checkDnsLabel } from './rules';
import {
  EmptyResultSchema,
  PeeringEstablishRequestSchema,
  PeeringGenerateTokenRequestSchema,
  PeeringSchema,
  PeeringTokenResponseSchema,
  type Peering,
  type PeeringEstablishRequest,
  type PeeringGenerateTokenRequest,
  type PeeringTokenResponse,
} from './schemas';
import { validatePeeringEstablish, validatePeeringGenerateToken } from './validate';

const PeeringListSchema = z.array(PeeringSchema).nullable();

/** `partition` is its own query parameter here (extended edition; the server reads empty as `default`). */
export interface PeeringQueryOptions extends QueryOptions {
  partition?: string;
}
export interface PeeringWriteOptions extends WriteOptions {
  partition?: string;
}

function withPartition<O extends QueryOptions | WriteOptions>(opts: O & { partition?: string }): O {
  const { partition, ...rest } = opts;
  const plain = rest as unknown as O;
  if (!partition) return plain;
  return { ...plain, params: { ...(plain.params ?? {}), partition } };
}

/**
 * Cluster peering (spec 4.3). Tokens: a body `Token` beats the `token` query parameter, which beats the
 * `X-Reg-Token` header, which beats `REG_HTTP_TOKEN`. This client sends the header (from the per-call `token`,
 * then the client's token, then the environment, all resolved by the transport) and passes a body `Token`
 * through untouched; it never puts a token in the query string, where proxies would log it.
 */
export class Peerings {
  constructor(private readonly t: Transport) {}

  async generateToken(req: PeeringGenerateTokenRequest, opts?: WriteOptions): Promise<PeeringTokenResponse> {
    checkBody(PeeringGenerateTokenRequestSchema, req);
    refuse(validatePeeringGenerateToken(req));
    return (await this.t.send('POST', '/v1/peering/token', req, PeeringTokenResponseSchema, opts)).value;
  }

  /** The response carries no data; success is the status code. */
  async establish(req: PeeringEstablishRequest, opts?: WriteOptions): Promise<void> {
    checkBody(PeeringEstablishRequestSchema, req);
    refuse(validatePeeringEstablish(req));
    await this.t.send('POST', '/v1/peering/establish', req, EmptyResultSchema, opts);
  }

  /**
   * A missing peering is raised as NotFoundError (Consul's Go client returns nil). A deleted peering stays
   * readable, State TERMINATED with DeletedAt, until its imported data is gone.
   */
  async read(name: string, opts: PeeringQueryOptions = {}): Promise<Result<Peering>> {
    return this.t.get(
      `/v1/peering/${nameSegment(name, checkDnsLabel)}`,
      PeeringSchema,
      withPartition<QueryOptions>(opts),
    );
  }

  async delete(name: string, opts: PeeringWriteOptions = {}): Promise<void> {
    const path = `/v1/peering/${nameSegment(name, checkDnsLabel)}`;
    await this.t.send('DELETE', path, undefined, EmptyResultSchema, withPartition<WriteOptions>(opts));
  }

  /** meta.filteredByAcls is set when the server dropped peerings the token may not see. */
  async list(opts: PeeringQueryOptions = {}): Promise<Result<Peering[]>> {
    return orEmpty(await this.t.get('/v1/peerings', PeeringListSchema, withPartition<QueryOptions>(opts)));
  }
}
