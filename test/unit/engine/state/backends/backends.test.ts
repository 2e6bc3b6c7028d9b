/**
 * The backend block checked before anything runs (settings, environment, refusals), the local
 * backend's layout of workspaces (terraform's), and workspace names and selection.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createBackend,
  currentWorkspace,
  parseBackend,
  readBackendState,
  recordSelection,
} from '../../../../../src/engine/state/backends';
import { StateFile } from '../../../../../src/engine/state';

describe('backend configuration', () => {
  it('pg takes conn_str, else PG_CONN_STR, and the PG_SKIP_* booleans as terraform spells them', () => {
    expect(
      parseBackend({ type: 'pg', config: {} }, { PG_CONN_STR: 'postgres://x', PG_SKIP_TABLE_CREATION: 't' }),
    ).toEqual({
      type: 'pg',
      config: {
        connStr: 'postgres://x',
        schemaName: 'terraform_remote_state',
        skipSchemaCreation: false,
        skipTableCreation: true,
        skipIndexCreation: false,
      },
    });
    expect(() => parseBackend({ type: 'pg', config: {} }, { PG_SKIP_SCHEMA_CREATION: 'maybe' })).toThrow(
      /PG_SKIP_SCHEMA_CREATION: expected a boolean/,
    );
    expect(() => parseBackend({ type: 'pg', config: { conn_str: 'x', schema: 'y' } }, {})).toThrow(
      /terraform\.backend\.pg: unknown setting\(s\) schema/,
    );
  });

  it('http needs an address, from the block or TF_HTTP_ADDRESS, and defaults its methods as terraform', () => {
    expect(() => parseBackend({ type: 'http', config: {} }, {})).toThrow(
      /terraform\.backend\.http\.address: required \(or set TF_HTTP_ADDRESS\)/,
    );
    expect(() => parseBackend({ type: 'http', config: { address: 'ftp://x' } }, {})).toThrow(
      /terraform\.backend\.http\.address: must be an http:\/\/ or https:\/\/ URL/,
    );
    const spec = parseBackend(
      { type: 'http', config: {} },
      { TF_HTTP_ADDRESS: 'https://s/state', TF_HTTP_USERNAME: 'u' },
    );
    expect(spec).toMatchObject({
      type: 'http',
      config: {
        address: 'https://s/state',
        updateMethod: 'POST',
        lockMethod: 'LOCK',
        unlockMethod: 'UNLOCK',
        username: 'u',
      },
    });
  });

  it.each([
    ['s3', /backend "s3" is not supported by cdktf-sched: state in Amazon S3 \("s3"\)/],
    ['cloud', /the terraform\.cloud block is not supported/],
    ['azurerm', /Azure Blob Storage/],
    ['something', /backend "something" is not supported/],
  ])('refuses %s, naming it and what to do', (type, message) => {
    expect(() => parseBackend({ type, config: {} }, {}, 'app')).toThrow(message);
    expect(() => createBackend({ type, config: {} }, { baseDir: '/' })).toThrow(
      /Use a supported backend \(local, pg or http/,
    );
  });
});

describe('local backend', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'backend-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('keeps workspaces where terraform does and creates missing directories', async () => {
    const block = { type: 'local', config: { path: 'nested/dir/terraform.app.tfstate' } };
    const backend = createBackend(block, { baseDir: dir });
    for (const ws of ['default', 'staging']) {
      const store = await backend.open(ws, { lock: { operation: 'OperationTypeApply' } });
      expect(await store.read()).toBeUndefined();
      const state = StateFile.empty();
      state.setOutput('ws', ws);
      state.serial = 1;
      await store.write(state.serialize(), { lineage: state.lineage, serial: 1 });
      await store.close();
    }
    const staging = await readFile(join(dir, 'terraform.tfstate.d', 'staging', 'terraform.tfstate'), 'utf8');
    expect(StateFile.parse(staging).getOutput('ws')?.value).toBe('staging');
    expect((await readBackendState(block, { baseDir: dir }))?.getOutput('ws')?.value).toBe('default');
    expect(
      (await readBackendState(block, { baseDir: dir, workspace: 'staging' }))?.getOutput('ws')?.value,
    ).toBe('staging');
    expect(await backend.workspaces()).toEqual(['default', 'staging']);
    await backend.deleteWorkspace('staging');
    expect(await backend.workspaces()).toEqual(['default']);
    await expect(backend.deleteWorkspace('default')).rejects.toThrow(/default workspace cannot be deleted/);
  });

  it('refuses to put another lineage or an older serial over the stored state', async () => {
    const backend = createBackend(undefined, {
      baseDir: dir,
      implicitPath: join(dir, 'terraform.app.tfstate'),
    });
    const store = await backend.open('default', { lock: { operation: 'x' } });
    const state = StateFile.empty();
    await store.write(state.serialize().replace('"serial": 0', '"serial": 3'), {
      lineage: state.lineage,
      serial: 3,
    });
    await store.close();
    const again = await backend.open('default', { lock: { operation: 'x' } });
    await again.read();
    await expect(again.write('{}', { lineage: 'other', serial: 4 })).rejects.toThrow(/different states/);
    await expect(again.write('{}', { lineage: state.lineage, serial: 2 })).rejects.toThrow(
      /older one \(serial 2\)/,
    );
    await again.close();
  });
});

describe('workspace choice', () => {
  it('--workspace, then TF_WORKSPACE, then the selection, then default; bad names refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ws-'));
    try {
      expect((await currentWorkspace({ env: {}, projectDir: dir })).name).toBe('default');
      await recordSelection(dir, 'picked');
      expect(await currentWorkspace({ env: {}, projectDir: dir })).toEqual({
        name: 'picked',
        source: 'workspace select',
      });
      expect((await currentWorkspace({ env: { TF_WORKSPACE: 'ci' }, projectDir: dir })).name).toBe('ci');
      expect(
        (await currentWorkspace({ flag: 'flag', env: { TF_WORKSPACE: 'ci' }, projectDir: dir })).name,
      ).toBe('flag');
      await expect(currentWorkspace({ flag: 'a/b', env: {}, projectDir: dir })).rejects.toThrow(
        /--workspace: invalid workspace name "a\/b"/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
