import { mockJob } from '../../../helpers/jobs';
import type { State } from '../../../../src/provider/resource';
import { ResourceApplyError } from '../../../../src/provider/common/errors';
import { applyFailure, converge, startHarness, type Harness } from './harness';

describe('sched_namespace against the dev agent', () => {
  let h: Harness;
  let state: State;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('creates a namespace', async () => {
    const { change, state: s } = await converge(h.namespace, null, {
      name: 'team-a',
      description: 'Team A',
      meta: { owner: 'a' },
    });
    expect(change.action).toBe('create');
    expect(s).toEqual({ id: 'team-a', name: 'team-a', description: 'Team A', meta: { owner: 'a' } });
    const { value } = await h.f.sched.namespaces.read('team-a');
    expect(value).toMatchObject({ Name: 'team-a', Description: 'Team A', Meta: { owner: 'a' } });
    state = s!;
  });

  it('reads with no drift: same config plans nothing (unset and empty are the same)', async () => {
    const read = (await h.namespace.read(state))!;
    expect(read).toEqual(state);
    const change = await h.namespace.plan({
      prior: read,
      config: { name: 'team-a', description: 'Team A', meta: { owner: 'a' } },
    });
    expect(change.action).toBe('noop');
    const bare = await converge(h.namespace, null, { name: 'bare' });
    expect(bare.state).toEqual({ id: 'bare', name: 'bare', description: '', meta: null });
    const again = await h.namespace.plan({
      prior: (await h.namespace.read(bare.state!))!,
      config: { name: 'bare', meta: {}, description: '' },
    });
    expect(again.action).toBe('noop');
  });

  it('updates in place, keeping settings it does not manage', async () => {
    const { value: cur } = await h.f.sched.namespaces.read('team-a');
    await h.f.sched.namespaces.upsert({ ...cur, Capabilities: { EnabledTaskDrivers: ['mock'] } });
    const { change, state: s } = await converge(h.namespace, state, {
      name: 'team-a',
      description: 'Team A, v2',
    });
    expect(change.action).toBe('update');
    expect(s).toEqual({ id: 'team-a', name: 'team-a', description: 'Team A, v2', meta: null });
    const { value } = await h.f.sched.namespaces.read('team-a');
    expect(value.Capabilities?.EnabledTaskDrivers).toEqual(['mock']);
    expect(value.Meta ?? null).toBeNull();
    state = s!;
  });

  it('detects a change made out of band', async () => {
    await h.f.sched.namespaces.upsert({ Name: 'team-a', Description: 'edited by hand', Meta: { x: '1' } });
    const read = (await h.namespace.read(state))!;
    expect(read).toMatchObject({ description: 'edited by hand', meta: { x: '1' } });
    const change = await h.namespace.plan({
      prior: read,
      config: { name: 'team-a', description: 'Team A, v2' },
    });
    expect(change.action).toBe('update');
    state = (await h.namespace.apply(change))!;
    expect((await h.f.sched.namespaces.read('team-a')).value.Description).toBe('Team A, v2');
  });

  it('replaces the namespace when its name changes', async () => {
    const { change, state: s } = await converge(h.namespace, state, {
      name: 'team-b',
      description: 'Team A, v2',
    });
    expect(change.action).toBe('replace');
    expect(change.replacePaths).toEqual([['name']]);
    expect(s).toMatchObject({ name: 'team-b' });
    await expect(h.f.sched.namespaces.read('team-a')).rejects.toThrow('found nothing');
    state = s!;
  });

  it('imports by name, and plans an error for a create of an existing namespace', async () => {
    const imported = await h.namespace.import('team-b');
    expect(imported).toEqual(state);
    await expect(h.namespace.import('nope')).rejects.toThrow('namespace "nope" does not exist');
    const dup = await h.namespace.plan({ prior: null, config: { name: 'team-b' } });
    expect(dup.action).toBe('noop');
    expect(dup.diagnostics[0]).toMatchObject({
      severity: 'error',
      summary: 'Namespace "team-b" already exists',
    });
  });

  it('destroys a namespace; one still holding jobs fails with the reason and stays in state', async () => {
    await h.f.sched.jobs.register(mockJob('inside', { namespace: 'team-b', count: 1 }));
    const change = await h.namespace.plan({ prior: state, config: null });
    expect(change.action).toBe('delete');
    const err = await applyFailure(h.namespace, change);
    expect(err).toBeInstanceOf(ResourceApplyError);
    expect(err.message).toContain('namespace "team-b" has non-terminal jobs: inside');
    expect((err as ResourceApplyError).state).toEqual(state);
    await h.f.sched.jobs.deregister('inside', { namespace: 'team-b', purge: true });
    expect(await h.namespace.apply(change)).toBeNull();
    expect(await h.namespace.read(state)).toBeNull();
  });

  it('manages "default" by resetting it on destroy instead of deleting it', async () => {
    const { change, state: s } = await converge(h.namespace, null, {
      name: 'default',
      description: 'ours',
      meta: { a: 'b' },
    });
    expect(change.action).toBe('create');
    expect(s).toMatchObject({ description: 'ours', meta: { a: 'b' } });
    await converge(h.namespace, s, null);
    const { value } = await h.f.sched.namespaces.read('default');
    expect(value.Description).toBe('Default shared namespace');
    expect(value.Meta ?? null).toBeNull();
  });

  it('validates the name and the attributes', () => {
    const v = (c: Record<string, unknown>) => h.namespace.validate(c);
    expect(v({ name: 'ok-1' })).toEqual([]);
    expect(v({})).toEqual([expect.objectContaining({ summary: 'Missing required argument "name"' })]);
    expect(v({ name: 'no spaces' })).toEqual([
      expect.objectContaining({ path: ['name'], detail: 'must be 1-128 letters, digits or dashes' }),
    ]);
    expect(v({ name: 'x'.repeat(129) })[0]!.path).toEqual(['name']);
    expect(v({ name: 'a', meta: { k: 1 } })[0]!.path).toEqual(['meta', 'k']);
    expect(v({ name: 'a', description: 'd'.repeat(257) })[0]!.detail).toBe('must be at most 256 characters');
    expect(v({ name: 'a', id: 'a' })[0]!.summary).toBe(
      '"id" is set by the provider and cannot be configured',
    );
  });
});
