import { RequestValidationError } from '../../../src/api';
import { bodyOf, harness, type Harness } from './harness';

const policy = {
  ID: 'p-1',
  Name: 'read-all',
  Rules: 'node_prefix "" { policy = "read" }',
  CreateIndex: 3,
  ModifyIndex: 3,
};
const role = {
  ID: 'r-1',
  Name: 'ops',
  Policies: [{ ID: 'p-1', Name: 'read-all' }],
  CreateIndex: 4,
  ModifyIndex: 4,
};
const token = {
  AccessorID: 'a-1',
  SecretID: 's-1',
  Description: 'from minikube',
  Roles: [{ ID: 'r-1', Name: 'ops' }],
  AuthMethod: 'minikube',
  Local: true,
  ExpirationTime: '2026-11-21T12:00:00Z',
  CreateIndex: 5,
  ModifyIndex: 5,
};
const rule = {
  ID: 'b-1',
  AuthMethod: 'minikube',
  Selector: 'serviceaccount.namespace==default',
  BindType: 'service',
  BindName: '${serviceaccount.name}',
};

describe('reg client: ACL objects', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('policies: create, read by id and by name, update, delete, list', async () => {
    const acl = h.client().acl.policies;
    h.answer(policy);
    await acl.create({ Name: 'read-all', Rules: policy.Rules });
    expect([h.last().method, h.last().url.pathname]).toEqual(['PUT', '/v1/acl/policy']);
    expect(bodyOf(h.last())).toEqual({ Name: 'read-all', Rules: policy.Rules });
    expect((await acl.read('p-1')).value.Rules).toBe(policy.Rules);
    expect(h.last().url.pathname).toBe('/v1/acl/policy/p-1');
    await acl.readByName('read-all');
    expect(h.last().url.pathname).toBe('/v1/acl/policy/name/read-all');
    await acl.update('p-1', { ID: 'p-1', Name: 'read-all' });
    expect([h.last().method, h.last().url.pathname]).toEqual(['PUT', '/v1/acl/policy/p-1']);
    h.answer(true);
    await expect(acl.delete('p-1')).resolves.toBe(true);
    expect([h.last().method, h.last().url.pathname]).toEqual(['DELETE', '/v1/acl/policy/p-1']);
    const { Rules: _r, ...stub } = policy;
    h.answer([stub]);
    expect((await acl.list()).value).toEqual([stub]);
    expect(h.last().url.pathname).toBe('/v1/acl/policies');
  });

  it('roles: read by name and list filtered by policy', async () => {
    h.answer(role);
    const { value } = await h.client().acl.roles.readByName('ops');
    expect(h.last().url.pathname).toBe('/v1/acl/role/name/ops');
    expect(value.Policies).toEqual([{ ID: 'p-1', Name: 'read-all' }]);
    h.answer([role]);
    await h.client().acl.roles.list({ policy: 'p-1' });
    expect(h.last().url.pathname).toBe('/v1/acl/roles');
    expect(h.last().url.searchParams.get('policy')).toBe('p-1');
  });

  it('tokens: self, and list by auth method', async () => {
    h.answer(token);
    const { value } = await h.client({ token: 's-1' }).acl.tokens.readSelf();
    expect(h.last().url.pathname).toBe('/v1/acl/token/self');
    expect(value.AuthMethod).toBe('minikube');
    h.answer(null);
    const list = await h.client().acl.tokens.list({ authMethod: 'minikube' });
    expect(h.last().url.pathname).toBe('/v1/acl/tokens');
    expect(h.last().url.searchParams.get('authmethod')).toBe('minikube');
    expect(list.value).toEqual([]);
  });

  it('binding rules: create and list by auth method', async () => {
    h.answer(rule);
    const { ID: _id, ...req } = rule;
    await h.client().acl.bindingRules.create({ ...req, BindType: 'service' });
    expect([h.last().method, h.last().url.pathname]).toEqual(['PUT', '/v1/acl/binding-rule']);
    h.answer([rule]);
    const { value } = await h.client().acl.bindingRules.list({ authMethod: 'minikube' });
    expect(h.last().url.pathname).toBe('/v1/acl/binding-rules');
    expect(h.last().url.searchParams.get('authmethod')).toBe('minikube');
    expect(value[0]?.BindName).toBe('${serviceaccount.name}');
  });

  it('refuses a binding rule with an unknown BindType and an empty id before any request', async () => {
    const bad = h
      .client()
      .acl.bindingRules.create({ AuthMethod: 'm', BindName: 'x', BindType: 'galaxy' as 'service' });
    await expect(bad).rejects.toMatchObject({ field: 'BindType' });
    await expect(h.client().acl.tokens.read('')).rejects.toBeInstanceOf(RequestValidationError);
    expect(h.srv.requests).toHaveLength(0);
  });
});
