import { NotFoundError } from '../../../../src/api/errors';
import { RegApplyError } from '../../../../src/provider/reg/redact';
import { DiagnosticsError, isUnknown } from '../../../../src/provider/values';
import { pathsOf, startRegFixture, type RegFixture } from './fixture';

describe('reg_namespace against the dev agent', () => {
  let f: RegFixture;
  let p1 = '';
  let p2 = '';
  let r1 = '';
  // 0.1: background deletion takes 200 ms, long enough to observe a namespace that is being deleted.
  beforeAll(async () => {
    f = await startRegFixture({ timeScale: 0.1 });
    p1 = (
      await f.client.acl.policies.create({ Name: 'p-one', Rules: 'service_prefix "" { policy = "read" }' })
    ).ID;
    p2 = (await f.client.acl.policies.create({ Name: 'p-two', Rules: 'node_prefix "" { policy = "read" }' }))
      .ID;
    r1 = (await f.client.acl.roles.create({ Name: 'r-one', Policies: [{ ID: p1 }] })).ID;
  });
  afterAll(() => f.stop());

  const ns = () => f.resource('reg_namespace');
  const read = async (name: string) => (await f.client.namespaces.read(name)).value;

  test('create, read without drift, update in place, drift detected and repaired, destroy', async () => {
    const config = {
      name: 'team-a',
      description: 'Team A',
      meta: { owner: 'a' },
      policy_defaults: ['p-one', p2],
      role_defaults: ['r-one'],
    };
    const plan = await ns().plan({ prior: null, config });
    expect(plan.action).toBe('create');
    expect(isUnknown(plan.planned!['id'])).toBe(true);

    const created = await f.converge('reg_namespace', null, config, 'create');
    expect(created).toEqual({ id: 'team-a', ...config, timeouts: null });
    const server = await read('team-a');
    expect(server.Description).toBe('Team A');
    expect(server.ACLs?.PolicyDefaults?.map((l) => l.ID).sort()).toEqual([p1, p2].sort());
    expect(server.ACLs?.RoleDefaults).toEqual([{ ID: r1, Name: 'r-one' }]);

    // Names and IDs as configured survive a refresh: no drift, no change.
    const refreshed = await ns().read(created!);
    expect(refreshed).toEqual(created);
    expect((await ns().plan({ prior: refreshed, config })).action).toBe('noop');
    // The same policies by the other form, or in another order, are the same setting.
    const swapped = { ...config, policy_defaults: [p1, 'p-two'] };
    expect((await ns().plan({ prior: refreshed, config: swapped })).action).toBe('noop');

    const updatedConfig = {
      ...config,
      description: 'Team A (renamed)',
      meta: { owner: 'a', tier: '1' },
      role_defaults: null,
    };
    const updated = await f.converge('reg_namespace', refreshed, updatedConfig, 'update');
    expect(updated).toMatchObject({
      description: 'Team A (renamed)',
      meta: { owner: 'a', tier: '1' },
      role_defaults: null,
    });
    const after = await read('team-a');
    expect(after.Meta).toEqual({ owner: 'a', tier: '1' });
    expect(after.ACLs?.RoleDefaults ?? []).toEqual([]);
    expect(after.CreateIndex).toBe(server.CreateIndex);

    // Out of band: description changed and a policy dropped.
    await f.client.namespaces.update('team-a', {
      Description: 'edited by hand',
      ACLs: { PolicyDefaults: [{ ID: p2 }] },
    });
    const drifted = await ns().read(updated!);
    expect(drifted).toMatchObject({ description: 'edited by hand', policy_defaults: [p2], meta: null });
    const repair = await ns().plan({ prior: drifted, config: updatedConfig });
    expect(repair.action).toBe('update');
    await f.converge('reg_namespace', drifted, updatedConfig, 'update');
    expect((await read('team-a')).Description).toBe('Team A (renamed)');

    const gone = await f.converge('reg_namespace', updated, null, 'delete');
    expect(gone).toBeNull();
    // Destroy waited for the background deletion: the namespace is already gone, not just marked.
    await expect(f.client.namespaces.read('team-a')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('changing the name replaces the namespace', async () => {
    const first = await f.converge('reg_namespace', null, { name: 'old-name', description: 'x' }, 'create');
    const plan = await ns().plan({ prior: first, config: { name: 'new-name', description: 'x' } });
    expect(plan.action).toBe('replace');
    expect(plan.replacePaths).toEqual([['name']]);
    const second = await f.converge(
      'reg_namespace',
      first,
      { name: 'new-name', description: 'x' },
      'replace',
    );
    expect(second).toMatchObject({ id: 'new-name', name: 'new-name' });
    await expect(f.client.namespaces.read('old-name')).rejects.toBeInstanceOf(NotFoundError);
    expect((await read('new-name')).Description).toBe('x');
    // A replace whose create fails after the destroy went through reports that nothing is left.
    const err = await f
      .converge('reg_namespace', second, { name: 'third-name', policy_defaults: ['missing'] }, 'replace')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegApplyError);
    expect((err as RegApplyError).state).toBeNull();
    expect((err as Error).message).toMatch(/Error replacing namespace "third-name"/);
    await expect(f.client.namespaces.read('new-name')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('a namespace marked for deletion is gone; creating its name again waits for the deletion', async () => {
    const state = await f.converge('reg_namespace', null, { name: 'doomed' }, 'create');
    await f.client.namespaces.delete('doomed');
    expect((await read('doomed')).DeletedAt).toBeTruthy();
    expect(await ns().read(state!)).toBeNull();
    const plan = await ns().plan({ prior: null, config: { name: 'doomed', description: 'again' } });
    expect(plan.action).toBe('create');

    f.progress.length = 0;
    const again = await f.converge('reg_namespace', null, { name: 'doomed', description: 'again' }, 'create');
    expect(f.progress).toContain('waiting for namespace "doomed" to be deleted');
    expect(again).toMatchObject({ name: 'doomed', description: 'again' });
    const fresh = await read('doomed');
    expect(fresh.DeletedAt).toBeUndefined();
    expect(fresh.Description).toBe('again');
    await f.converge('reg_namespace', again, null, 'delete');
  });

  test('a namespace deleted out of band entirely is gone, and the plan creates it again', async () => {
    const state = await f.converge('reg_namespace', null, { name: 'vanishing' }, 'create');
    await f.client.namespaces.delete('vanishing');
    await new Promise((r) => setTimeout(r, 400));
    await expect(f.client.namespaces.read('vanishing')).rejects.toBeInstanceOf(NotFoundError);
    expect(await ns().read(state!)).toBeNull();
    expect((await ns().plan({ prior: null, config: { name: 'vanishing' } })).action).toBe('create');
  });

  test('import by name records names, and a configuration using IDs plans no change', async () => {
    await f.client.namespaces.create({
      Name: 'imported',
      Description: 'made elsewhere',
      Meta: { k: 'v' },
      ACLs: { PolicyDefaults: [{ ID: p1 }], RoleDefaults: [{ Name: 'r-one' }] },
    });
    const state = await ns().import('imported');
    expect(state).toEqual({
      id: 'imported',
      name: 'imported',
      description: 'made elsewhere',
      meta: { k: 'v' },
      policy_defaults: ['p-one'],
      role_defaults: ['r-one'],
      timeouts: null,
    });
    const config = {
      name: 'imported',
      description: 'made elsewhere',
      meta: { k: 'v' },
      policy_defaults: [p1],
      role_defaults: [r1],
    };
    expect((await ns().plan({ prior: state, config })).action).toBe('noop');
    // A real difference is still a difference.
    expect((await ns().plan({ prior: state, config: { ...config, policy_defaults: [p2] } })).action).toBe(
      'update',
    );

    await expect(ns().import('no-such-ns')).rejects.toThrow(/Cannot import namespace "no-such-ns"/);
    await expect(ns().import('Not_A_Label')).rejects.toBeInstanceOf(DiagnosticsError);
  });

  test('a default policy that does not exist fails the apply with the registry message', async () => {
    const err = await f
      .converge('reg_namespace', null, { name: 'bad-links', policy_defaults: ['nope'] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegApplyError);
    expect((err as RegApplyError).state).toBeNull();
    expect((err as RegApplyError).diagnostics[0]).toMatchObject({
      severity: 'error',
      summary: 'Error creating namespace "bad-links"',
    });
    expect((err as Error).message).toMatch(/no policy named "nope"/);
    await expect(f.client.namespaces.read('bad-links')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('validation errors name the attribute', () => {
    const v = (c: Record<string, unknown>) => pathsOf(ns().validate(c));
    expect(v({})).toEqual(['name']);
    expect(v({ name: '-bad-' })).toEqual(['name']);
    expect(v({ name: 'a'.repeat(64) })).toEqual(['name']);
    expect(v({ name: 'ok', meta: { a: 1 } })).toEqual(['meta.a']);
    expect(v({ name: 'ok', policy_defaults: [''] })).toEqual(['policy_defaults.0']);
    expect(v({ name: 'ok', role_defaults: 'r-one' })).toEqual(['role_defaults']);
    expect(v({ name: 'ok', id: 'x' })).toEqual(['id']);
    expect(v({ name: 'ok', color: 'red' })).toEqual(['color']);
    expect(v({ name: 'ok', timeouts: { delete: 'soon' } })).toEqual(['timeouts.delete']);
    expect(v({ name: 'ok', description: 'fine', timeouts: { delete: '1m' } })).toEqual([]);
    const [d] = ns().validate({ name: '-bad-' });
    expect(d).toMatchObject({ severity: 'error', summary: 'Invalid value for "name"' });
    expect(d!.detail).toMatch(/DNS hostname label/);
  });

  test('a delete timeout that runs out is reported as a timeout', async () => {
    const state = await f.converge(
      'reg_namespace',
      null,
      { name: 'slow-delete', timeouts: { delete: '1ms' } },
      'create',
    );
    const err = await ns()
      .apply({ action: 'delete', prior: state, planned: null, diagnostics: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegApplyError);
    expect((err as Error).message).toMatch(/deleting namespace "slow-delete" timed out/);
    // Marked for deletion, it is gone as far as the resource is concerned.
    expect(await ns().read(state!)).toBeNull();
  });
});
