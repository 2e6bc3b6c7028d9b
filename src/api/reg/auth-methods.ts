import { z } from 'zod';
import type { QueryOptions, Result, Transport, WriteOptions } from '../transport';
import { checkBody, nameSegment, orEmpty, refuse } from './request';
import { checkAuthMethodName } from './rules';
import {
  AuthMethodCreateRequestSchema,
  AuthMethodListStubSchema,
  AuthMethodSchema,
  AuthMethodUpdateRequestSchema,
  BooleanResultSchema,
  type AuthMethod,
  type AuthMethodCreateRequest,
  type AuthMethodListStub,
  type AuthMethodUpdateRequest,
} from './schemas';
import { validateAuthMethodCreate, validateAuthMethodUpdate } from './validate';

const AuthMethodListSchema = z.array(AuthMethodListStubSchema).nullable();

/** ACL auth methods (spec 4.1). The namespace travels as `ns` (pass `namespace`); `*` lists every namespace. */
export class AuthMethods {
  constructor(private readonly t: Transport) {}

  async create(method: AuthMethodCreateRequest, opts?: WriteOptions): Promise<AuthMethod> {
    checkBody(AuthMethodCreateRequestSchema, method);
    refuse(validateAuthMethodCreate(method));
    return (await this.t.send('PUT', '/v1/acl/auth-method', method, AuthMethodSchema, opts)).value;
  }

  /** A missing method is a 404, raised as NotFoundError (Consul's Go client turns it into nil; see orNull). */
  async read(name: string, opts?: QueryOptions): Promise<Result<AuthMethod>> {
    return this.t.get(
      `/v1/acl/auth-method/${nameSegment(name, checkAuthMethodName)}`,
      AuthMethodSchema,
      opts,
    );
  }

  /** Body Name may be omitted; when present it must equal `name`. Type may be omitted (kept as stored). */
  async update(name: string, method: AuthMethodUpdateRequest, opts?: WriteOptions): Promise<AuthMethod> {
    const path = `/v1/acl/auth-method/${nameSegment(name, checkAuthMethodName)}`;
    checkBody(AuthMethodUpdateRequestSchema, method);
    refuse(validateAuthMethodUpdate(name, method));
    return (await this.t.send('PUT', path, method, AuthMethodSchema, opts)).value;
  }

  /** Also deletes the method's binding rules and every token it minted. Resolves to the server's true/false. */
  async delete(name: string, opts?: WriteOptions): Promise<boolean> {
    const path = `/v1/acl/auth-method/${nameSegment(name, checkAuthMethodName)}`;
    return (await this.t.send('DELETE', path, undefined, BooleanResultSchema, opts)).value;
  }

  /** Stubs without Config. */
  async list(opts?: QueryOptions): Promise<Result<AuthMethodListStub[]>> {
    return orEmpty(await this.t.get('/v1/acl/auth-methods', AuthMethodListSchema, opts));
  }
}
