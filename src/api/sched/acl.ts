import { z } from 'zod';
import { RequestValidationError } from '../errors';
import type { Transport } from '../transport';
import {
  AckSchema,
  type PlainWriteOptions,
  type PrefixListOptions,
  type ReadOptions,
  type Result,
  omit,
} from './options';
import { seg } from './paths';
import { ACLPolicySchema, ACLTokenSchema, type ACLPolicy, type ACLToken } from './schemas';
import { prefixListQuery } from './list-query';
import { requireNonEmpty, requireUuid } from './validate';

export interface TokenInput {
  Name?: string;
  /** `client` (needs Policies or Roles) or `management`. */
  Type: string;
  Policies?: string[];
  Global?: boolean;
  /** Duration in nanoseconds after which the token expires. */
  ExpirationTTL?: number;
}

const TokenListSchema = z.array(ACLTokenSchema);
const PolicyListSchema = z.array(ACLPolicySchema);

/** ACL tokens and policies, `/v1/acl/...` (as Nomad has them). */
export class AclApi {
  constructor(private readonly t: Transport) {}

  /** `POST /v1/acl/bootstrap`: the first management token (once per cluster). */
  async bootstrap(opts: PlainWriteOptions & { bootstrapSecret?: string } = {}): Promise<Result<ACLToken>> {
    const body = opts.bootstrapSecret ? { BootstrapSecret: opts.bootstrapSecret } : undefined;
    return this.t.send('POST', '/v1/acl/bootstrap', body, ACLTokenSchema, omit(opts, 'bootstrapSecret'));
  }

  /** `GET /v1/acl/token/self`: the token the request carries. */
  async self(opts: ReadOptions = {}): Promise<Result<ACLToken>> {
    return this.t.get('/v1/acl/token/self', ACLTokenSchema, opts);
  }

  /** `GET /v1/acl/tokens`. */
  async tokens(opts: PrefixListOptions = {}): Promise<Result<ACLToken[]>> {
    return this.t.get('/v1/acl/tokens', TokenListSchema, prefixListQuery(opts));
  }

  /** `GET /v1/acl/token/<accessor>`. */
  async token(accessorId: string, opts: ReadOptions = {}): Promise<Result<ACLToken>> {
    requireUuid('accessorId', accessorId);
    return this.t.get(`/v1/acl/token/${seg(accessorId)}`, ACLTokenSchema, opts);
  }

  /** `POST /v1/acl/token`: creates a token; the response carries its SecretID. */
  async createToken(input: TokenInput, opts: PlainWriteOptions = {}): Promise<Result<ACLToken>> {
    if (input.Type !== 'client' && input.Type !== 'management') {
      throw new RequestValidationError('Type', 'must be client or management');
    }
    if (input.Type === 'client' && !(input.Policies?.length ?? 0)) {
      throw new RequestValidationError('Policies', 'a client token needs at least one policy');
    }
    return this.t.send('POST', '/v1/acl/token', input, ACLTokenSchema, opts);
  }

  /** `DELETE /v1/acl/token/<accessor>`. */
  async deleteToken(accessorId: string, opts: PlainWriteOptions = {}): Promise<Result<void>> {
    requireUuid('accessorId', accessorId);
    return this.t.send('DELETE', `/v1/acl/token/${seg(accessorId)}`, undefined, AckSchema, opts);
  }

  /** `GET /v1/acl/policies`. */
  async policies(opts: PrefixListOptions = {}): Promise<Result<ACLPolicy[]>> {
    return this.t.get('/v1/acl/policies', PolicyListSchema, prefixListQuery(opts));
  }

  /** `GET /v1/acl/policy/<name>`. */
  async policy(name: string, opts: ReadOptions = {}): Promise<Result<ACLPolicy>> {
    requireNonEmpty('name', name);
    return this.t.get(`/v1/acl/policy/${seg(name)}`, ACLPolicySchema, opts);
  }

  /** `POST /v1/acl/policy/<name>`: creates or replaces a policy. */
  async upsertPolicy(policy: ACLPolicy, opts: PlainWriteOptions = {}): Promise<Result<void>> {
    requireNonEmpty('Name', policy.Name);
    requireNonEmpty('Rules', policy.Rules);
    return this.t.send('POST', `/v1/acl/policy/${seg(policy.Name)}`, policy, AckSchema, opts);
  }

  /** `DELETE /v1/acl/policy/<name>`. */
  async deletePolicy(name: string, opts: PlainWriteOptions = {}): Promise<Result<void>> {
    requireNonEmpty('name', name);
    return this.t.send('DELETE', `/v1/acl/policy/${seg(name)}`, undefined, AckSchema, opts);
  }
}
