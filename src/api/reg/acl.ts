import { z } from 'zod';
import type { QueryOptions, Result, Transport, WriteOptions } from '../transport';
import { checkBody, orEmpty, segment } from './request';
import {
  ACLBindingRuleSchema,
  ACLBindingRuleWriteRequestSchema,
  ACLPolicyListEntrySchema,
  ACLPolicySchema,
  ACLPolicyWriteRequestSchema,
  ACLRoleSchema,
  ACLRoleWriteRequestSchema,
  ACLTokenSchema,
  ACLTokenWriteRequestSchema,
  BooleanResultSchema,
  type ACLBindingRule,
  type ACLBindingRuleWriteRequest,
  type ACLPolicy,
  type ACLPolicyListEntry,
  type ACLPolicyWriteRequest,
  type ACLRole,
  type ACLRoleWriteRequest,
  type ACLToken,
  type ACLTokenWriteRequest,
} from './schemas';

/**
 * Create/read/update/delete/list over one ACL object type, following Consul's `/acl/<kind>` layout:
 * PUT /acl/<kind>, GET|PUT|DELETE /acl/<kind>/<id>, and a plural list path. Missing objects raise NotFoundError
 * (older Consul releases answer 403 "ACL not found", which arrives as PermissionDeniedError).
 */
class AclResource<Obj, Req, Stub = Obj> {
  private readonly listSchema: z.ZodType<Stub[] | null>;

  constructor(
    protected readonly t: Transport,
    private readonly kind: string,
    private readonly listPath: string,
    private readonly schema: z.ZodType<Obj>,
    private readonly requestSchema: z.ZodType,
    stubSchema: z.ZodType<Stub>,
  ) {
    this.listSchema = z.array(stubSchema).nullable();
  }

  async create(body: Req, opts?: WriteOptions): Promise<Obj> {
    checkBody(this.requestSchema, body);
    return (await this.t.send('PUT', `/v1/acl/${this.kind}`, body, this.schema, opts)).value;
  }

  async read(id: string, opts?: QueryOptions): Promise<Result<Obj>> {
    return this.t.get(`/v1/acl/${this.kind}/${segment('id', id)}`, this.schema, opts);
  }

  async update(id: string, body: Req, opts?: WriteOptions): Promise<Obj> {
    const path = `/v1/acl/${this.kind}/${segment('id', id)}`;
    checkBody(this.requestSchema, body);
    return (await this.t.send('PUT', path, body, this.schema, opts)).value;
  }

  async delete(id: string, opts?: WriteOptions): Promise<boolean> {
    const path = `/v1/acl/${this.kind}/${segment('id', id)}`;
    return (await this.t.send('DELETE', path, undefined, BooleanResultSchema, opts)).value;
  }

  protected async listWith(
    params: Record<string, string | undefined>,
    opts: QueryOptions = {},
  ): Promise<Result<Stub[]>> {
    return orEmpty(
      await this.t.get(this.listPath, this.listSchema, {
        ...opts,
        params: { ...(opts.params ?? {}), ...params },
      }),
    );
  }

  protected async readByNameAt(name: string, opts?: QueryOptions): Promise<Result<Obj>> {
    return this.t.get(`/v1/acl/${this.kind}/name/${segment('name', name)}`, this.schema, opts);
  }
}

export class AclPolicies extends AclResource<ACLPolicy, ACLPolicyWriteRequest, ACLPolicyListEntry> {
  constructor(t: Transport) {
    super(
      t,
      'policy',
      '/v1/acl/policies',
      ACLPolicySchema,
      ACLPolicyWriteRequestSchema,
      ACLPolicyListEntrySchema,
    );
  }
  async readByName(name: string, opts?: QueryOptions): Promise<Result<ACLPolicy>> {
    return this.readByNameAt(name, opts);
  }
  async list(opts?: QueryOptions): Promise<Result<ACLPolicyListEntry[]>> {
    return this.listWith({}, opts);
  }
}

export class AclRoles extends AclResource<ACLRole, ACLRoleWriteRequest> {
  constructor(t: Transport) {
    super(t, 'role', '/v1/acl/roles', ACLRoleSchema, ACLRoleWriteRequestSchema, ACLRoleSchema);
  }
  async readByName(name: string, opts?: QueryOptions): Promise<Result<ACLRole>> {
    return this.readByNameAt(name, opts);
  }
  /** `policy` narrows to roles linked to that policy ID. */
  async list(opts: QueryOptions & { policy?: string } = {}): Promise<Result<ACLRole[]>> {
    const { policy, ...rest } = opts;
    return this.listWith({ policy }, rest);
  }
}

export class AclTokens extends AclResource<ACLToken, ACLTokenWriteRequest> {
  constructor(t: Transport) {
    super(t, 'token', '/v1/acl/tokens', ACLTokenSchema, ACLTokenWriteRequestSchema, ACLTokenSchema);
  }
  /** The token the request is made with. */
  async readSelf(opts?: QueryOptions): Promise<Result<ACLToken>> {
    return this.t.get('/v1/acl/token/self', ACLTokenSchema, opts);
  }
  async list(
    opts: QueryOptions & { policy?: string; role?: string; authMethod?: string } = {},
  ): Promise<Result<ACLToken[]>> {
    const { policy, role, authMethod, ...rest } = opts;
    return this.listWith({ policy, role, authmethod: authMethod }, rest);
  }
}

export class AclBindingRules extends AclResource<ACLBindingRule, ACLBindingRuleWriteRequest> {
  constructor(t: Transport) {
    super(
      t,
      'binding-rule',
      '/v1/acl/binding-rules',
      ACLBindingRuleSchema,
      ACLBindingRuleWriteRequestSchema,
      ACLBindingRuleSchema,
    );
  }
  async list(opts: QueryOptions & { authMethod?: string } = {}): Promise<Result<ACLBindingRule[]>> {
    const { authMethod, ...rest } = opts;
    return this.listWith({ authmethod: authMethod }, rest);
  }
}

/** The ACL objects that namespaces (default policies and roles) and auth methods (binding rules, tokens) refer to. */
export class Acl {
  readonly policies: AclPolicies;
  readonly roles: AclRoles;
  readonly tokens: AclTokens;
  readonly bindingRules: AclBindingRules;
  constructor(t: Transport) {
    this.policies = new AclPolicies(t);
    this.roles = new AclRoles(t);
    this.tokens = new AclTokens(t);
    this.bindingRules = new AclBindingRules(t);
  }
}
