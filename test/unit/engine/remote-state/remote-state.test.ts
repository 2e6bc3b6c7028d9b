/**
 * terraform_remote_state over the local backend, on real files: where each workspace's state is (as
 * terraform's local backend puts it), outputs over defaults, the errors terraform gives, a backend
 * nobody serves refused by name, and outputs a pending plan changes read as unknown.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isUnknown } from '../../../../src/provider/values';
import { sensitiveAttributes } from '../../../../src/provider/schema';
import {
  localStateFile,
  PendingOutputs,
  readRemoteState,
  RemoteStateDataSource,
  stateLocation,
} from '../../../../src/engine/remote-state';
import { StateFile } from '../../../../src/engine/state';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'remote-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeState(file: string, outputs: Record<string, { value: unknown; sensitive?: boolean }>): void {
  const s = StateFile.empty();
  for (const [k, o] of Object.entries(outputs)) s.setOutput(k, o.value, { sensitive: o.sensitive ?? false });
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, s.serialize());
}

describe('local backend paths', () => {
  it('default workspace: path, relative to the stack directory, else terraform.tfstate', () => {
    expect(localStateFile({ path: '../a.tfstate' }, 'default', '/p/stacks/x')).toBe('/p/stacks/a.tfstate');
    expect(localStateFile({ path: '/abs/a.tfstate' }, 'default', '/p')).toBe('/abs/a.tfstate');
    expect(localStateFile({}, 'default', '/p')).toBe('/p/terraform.tfstate');
  });

  it('other workspaces: <workspace_dir>/<name>/terraform.tfstate, whatever path says', () => {
    expect(localStateFile({ path: 'a.tfstate' }, 'staging', '/p')).toBe(
      '/p/terraform.tfstate.d/staging/terraform.tfstate',
    );
    expect(localStateFile({ workspace_dir: 'ws' }, 'staging', '/p')).toBe('/p/ws/staging/terraform.tfstate');
  });

  it('a path that is not a string is refused naming the setting', () => {
    expect(() => localStateFile({ path: 3 }, 'default', '/p')).toThrow(/config\.path .* non-empty string/);
  });
});

describe('terraform_remote_state', () => {
  const ds = (): RemoteStateDataSource => new RemoteStateDataSource(readRemoteState, dir);

  it('reads the outputs of the workspace, over the defaults', async () => {
    writeState(path.join(dir, 'a.tfstate'), { x: { value: 'one' }, s: { value: 'pw', sensitive: true } });
    writeState(path.join(dir, 'terraform.tfstate.d', 'staging', 'terraform.tfstate'), {
      x: { value: 'two' },
    });
    const read = await ds().read({
      backend: 'local',
      config: { path: 'a.tfstate' },
      defaults: { x: 'default-x', y: 'default-y' },
    });
    expect(read).toEqual({
      backend: 'local',
      config: { path: 'a.tfstate' },
      defaults: { x: 'default-x', y: 'default-y' },
      workspace: null,
      outputs: { x: 'one', s: 'pw', y: 'default-y' },
    });
    const staging = await ds().read({
      backend: 'local',
      config: { path: 'a.tfstate' },
      workspace: 'staging',
    });
    expect(staging['outputs']).toEqual({ x: 'two' });
  });

  it('a workspace with no stored state is an error naming the workspace and the file', async () => {
    await expect(ds().read({ backend: 'local', config: { path: 'none.tfstate' } })).rejects.toThrow(
      `Unable to find remote state: no stored state was found for workspace "default" in the "local" backend (${path.join(dir, 'none.tfstate')})`,
    );
  });

  it('a backend it cannot read is refused by name, not read as empty', async () => {
    await expect(ds().read({ backend: 's3', config: { bucket: 'b' } })).rejects.toThrow(
      'terraform_remote_state: backend "s3" is not supported by cdktf-sched',
    );
  });

  it('validates backend, config and defaults', () => {
    expect(
      ds()
        .validate({ config: {} })
        .map((d) => d.summary),
    ).toEqual(['Missing required argument "backend"']);
    expect(
      ds()
        .validate({ backend: 'local', defaults: 'x' })
        .map((d) => d.path),
    ).toContainEqual(['defaults']);
  });

  it('masks config (it may hold credentials) and outputs (they may be sensitive)', () => {
    expect(sensitiveAttributes(ds().shape)).toEqual(['config', 'outputs']);
  });
});

describe('outputs a pending plan changes', () => {
  it('are unknown to a stack planned after it; the others are as recorded', async () => {
    writeState(path.join(dir, 'a.tfstate'), { kept: { value: 1 }, changed: { value: 2, sensitive: true } });
    const pending = new PendingOutputs();
    pending.record(
      stateLocation({
        backend: 'local',
        config: { path: path.join(dir, 'a.tfstate') },
        workspace: 'default',
        baseDir: '/elsewhere',
      }),
      ['changed', 'added'],
    );
    const read = pending.reader(readRemoteState);
    const out = await read({
      backend: 'local',
      config: { path: 'a.tfstate' },
      workspace: 'default',
      baseDir: dir,
    });
    expect(out!['kept']).toEqual({ value: 1, sensitive: false });
    expect(isUnknown(out!['changed']!.value)).toBe(true);
    expect(out!['changed']!.sensitive).toBe(true);
    expect(isUnknown(out!['added']!.value)).toBe(true);
    // Another state is not affected.
    writeState(path.join(dir, 'b.tfstate'), { changed: { value: 3 } });
    expect(
      await read({ backend: 'local', config: { path: 'b.tfstate' }, workspace: 'default', baseDir: dir }),
    ).toEqual({
      changed: { value: 3, sensitive: false },
    });
  });
});
