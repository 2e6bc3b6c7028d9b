/**
 * moved, import and removed blocks (cdktf `moveTo()`/`moveFromId()`, `importFrom(id)`, Terraform's
 * `removed`), each through plan (text and JSON), a saved plan applied, the state and cluster after,
 * and a re-plan that finds nothing left to do. Namespaces keep it fast (no deployments to wait for).
 */
import path from 'node:path';
import { createProject, stackJson, stateAddresses, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

interface JsonChange {
  address: string;
  previous_address?: string;
  change: { actions: string[]; importing?: { id: string } };
}

function namespaces(
  blocks: Record<string, string>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const ns: Record<string, unknown> = {};
  for (const [name, nsName] of Object.entries(blocks))
    ns[name] = withPath('app', name, { name: nsName, description: `${nsName} team` });
  // stackJson takes the usual blocks only; moved/import/removed go beside them.
  return { ...stackJson({ resource: { sched_namespace: ns } }), ...extra };
}

async function planJson(): Promise<{ resource_changes: JsonChange[] }> {
  const r = await p.cli(['plan', '--no-synth', '--format', 'json']);
  expect(r.stderr).not.toMatch(/Error/);
  return JSON.parse(r.stdout) as { resource_changes: JsonChange[] };
}

/** plan --out, then deploy that file: the saved plan carries the block's effect to the apply. */
async function applySaved(name: string): Promise<string> {
  const file = path.join(p.dir, `${name}.plan`);
  const planned = await p.cli(['plan', '--no-synth', '--out', file]);
  expect(planned.code).toBe(0);
  const applied = await p.cli(['deploy', file, '--auto-approve']);
  expect(applied.stderr).not.toMatch(/Error/);
  expect(applied.code).toBe(0);
  return applied.stdout;
}

async function expectNoChanges(): Promise<void> {
  const again = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);
}

async function namespaceExists(name: string): Promise<boolean> {
  try {
    await p.agent.sched.namespaces.read(name);
    return true;
  } catch {
    return false;
  }
}

test('a moved block renames the object in the state instead of destroying and creating it', async () => {
  p.writeStack('app', namespaces({ old: 'mv-team' }));
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);

  p.writeStack(
    'app',
    namespaces(
      { renamed: 'mv-team' },
      { moved: [{ from: 'sched_namespace.old', to: 'sched_namespace.renamed' }] },
    ),
  );
  const text = await p.cli(['plan', '--no-synth']);
  expect(text.stdout).toContain('# sched_namespace.old has moved to sched_namespace.renamed');
  expect(text.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
  expect(text.stdout).not.toContain('Resource actions are indicated');
  const json = await planJson();
  const moved = json.resource_changes.find((rc) => rc.address === 'sched_namespace.renamed');
  expect(moved?.previous_address).toBe('sched_namespace.old');
  expect(moved?.change.actions).toEqual(['no-op']);

  await applySaved('moved');
  expect(stateAddresses(p.readState('app'))).toContain('sched_namespace.renamed');
  expect(stateAddresses(p.readState('app'))).not.toContain('sched_namespace.old');
  expect(await namespaceExists('mv-team')).toBe(true);
  await expectNoChanges();
});

test('a moved block from a resource still declared is refused by name', async () => {
  p.writeStack(
    'app',
    namespaces(
      { renamed: 'mv-team', other: 'mv-other' },
      { moved: [{ from: 'sched_namespace.other', to: 'sched_namespace.renamed' }] },
    ),
  );
  const r = await p.cli(['plan', '--no-synth']);
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toContain('Moved object still exists');
  p.writeStack('app', namespaces({ renamed: 'mv-team' }));
});

test('an import block adopts an existing object: "will be imported", 1 to import, then no changes', async () => {
  await p.agent.sched.namespaces.upsert({ Name: 'imp-team', Description: 'imp-team team' });
  p.writeStack(
    'app',
    namespaces(
      { renamed: 'mv-team', adopted: 'imp-team' },
      { import: [{ to: 'sched_namespace.adopted', id: 'imp-team' }] },
    ),
  );
  const text = await p.cli(['plan', '--no-synth']);
  expect(text.stdout).toContain('# sched_namespace.adopted will be imported');
  expect(text.stdout).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.');
  const json = await planJson();
  const imported = json.resource_changes.find((rc) => rc.address === 'sched_namespace.adopted');
  expect(imported?.change.importing).toEqual({ id: 'imp-team' });
  expect(imported?.change.actions).toEqual(['no-op']);
  const md = await p.cli(['plan', '--no-synth', '--format', 'markdown']);
  expect(md.stdout).toContain('**Plan:** 1 to import, 0 to add, 0 to change, 0 to destroy');
  expect(md.stdout).toMatch(/\| 📥 import \| `sched_namespace\.adopted` \(imported from "imp-team"\) \|/);

  const out = await applySaved('import');
  expect(out).toContain('Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
  expect(stateAddresses(p.readState('app'))).toContain('sched_namespace.adopted');
  // The import block stays in the configuration: with the object in the state, it does nothing.
  await expectNoChanges();
});

test('an import block with for_each imports one instance per element, with an update where the configuration differs', async () => {
  for (const n of ['fe-a', 'fe-b'])
    await p.agent.sched.namespaces.upsert({ Name: n, Description: 'made by hand' });
  const forEach = {
    ...stackJson({
      resource: {
        sched_namespace: {
          renamed: withPath('app', 'renamed', { name: 'mv-team', description: 'mv-team team' }),
          adopted: withPath('app', 'adopted', { name: 'imp-team', description: 'imp-team team' }),
          each: withPath('app', 'each', {
            for_each: '${toset(["fe-a", "fe-b"])}',
            name: '${each.key}',
            description: '${each.key} team',
          }),
        },
      },
    }),
    import: [
      { to: 'sched_namespace.adopted', id: 'imp-team' },
      { for_each: '${toset(["fe-a", "fe-b"])}', to: 'sched_namespace.each[each.key]', id: '${each.value}' },
    ],
  };
  p.writeStack('app', forEach);
  const text = await p.cli(['plan', '--no-synth']);
  expect(text.stdout).toContain('# sched_namespace.each["fe-a"] will be updated in-place');
  expect(text.stdout).toContain('# (imported from "fe-a")');
  expect(text.stdout).toContain('Plan: 2 to import, 0 to add, 2 to change, 0 to destroy.');

  const out = await applySaved('import-each');
  expect(out).toContain('Apply complete! Resources: 2 imported, 0 added, 2 changed, 0 destroyed.');
  const { value } = await p.agent.sched.namespaces.read('fe-b');
  expect(value.Description).toBe('fe-b team');
  await expectNoChanges();
});

test("an import target the configuration does not declare is refused with Terraform's message", async () => {
  p.writeStack(
    'app',
    namespaces({ renamed: 'mv-team' }, { import: [{ to: 'sched_namespace.nowhere', id: 'imp-team' }] }),
  );
  const r = await p.cli(['plan', '--no-synth']);
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toContain('Configuration for import target does not exist');
});

test('a removed block with destroy = false forgets the object and leaves it on the cluster', async () => {
  const removed = { removed: [{ from: 'sched_namespace.adopted', lifecycle: { destroy: false } }] };
  p.writeStack('app', namespaces({ renamed: 'mv-team' }, removed));
  const text = await p.cli(['plan', '--no-synth']);
  expect(text.stdout).toContain(
    '# sched_namespace.adopted will no longer be managed by Terraform, but will not be destroyed',
  );
  expect(text.stdout).toContain('# (destroy = false is set in the configuration)');
  expect(text.stdout).toContain('Some objects will no longer be managed by Terraform');
  expect(text.stdout).not.toMatch(/sched_namespace\.adopted will be destroyed/);
  const json = await planJson();
  const forgotten = json.resource_changes.find((rc) => rc.address === 'sched_namespace.adopted');
  expect(forgotten?.change.actions).toEqual(['forget']);

  // Without the removed block the same configuration would destroy it (the fe-* ones, orphaned too, do go).
  const out = await applySaved('removed');
  expect(out).toMatch(/Apply complete! Resources: 0 added, 0 changed, 2 destroyed, 1 forgotten\./);
  expect(stateAddresses(p.readState('app'))).not.toContain('sched_namespace.adopted');
  expect(await namespaceExists('imp-team')).toBe(true);
  expect(await namespaceExists('fe-a')).toBe(false);
  await expectNoChanges();
});

test('a removed block for a resource still declared is refused by name', async () => {
  p.writeStack(
    'app',
    namespaces(
      { renamed: 'mv-team' },
      { removed: [{ from: 'sched_namespace.renamed', lifecycle: { destroy: false } }] },
    ),
  );
  const r = await p.cli(['plan', '--no-synth']);
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toContain('Removed resource still exists');
});

/** A namespace on the aliased `sched.west` provider (cdktf `provider: westProvider`), or on the default one. */
function aliased(importProvider: string, resourceProvider?: string): Record<string, unknown> {
  const ns = withPath('app', 'west', {
    name: 'west-team',
    description: 'west-team team',
    ...(resourceProvider ? { provider: resourceProvider } : {}),
  });
  return {
    ...stackJson({
      resource: { sched_namespace: { west: ns } },
      provider: { sched: [{}, { alias: 'west' }] },
    }),
    import: [{ to: 'sched_namespace.west', id: 'west-team', provider: importProvider }],
  };
}

test("an import block's provider (importFrom(id, provider)) imports through that aliased provider", async () => {
  await p.agent.sched.namespaces.upsert({ Name: 'west-team', Description: 'west-team team' });
  p.writeStack('app', aliased('sched.west', 'sched.west'));
  const text = await p.cli(['plan', '--no-synth']);
  expect(text.stdout).toContain('# sched_namespace.west will be imported');
  // (the earlier tests' namespaces leave this configuration, so they are destroyed beside it)
  expect(text.stdout).toMatch(/Plan: 1 to import, 0 to add, 0 to change, \d+ to destroy\./);
  const out = await applySaved('import-aliased');
  expect(out).toMatch(/Apply complete! Resources: 1 imported, 0 added, 0 changed, \d+ destroyed\./);
  const west = p.readState('app').resources.find((r) => r.name === 'west');
  expect(west?.provider).toMatch(/\.west$/);
  await expectNoChanges();
});

test("an import block's provider that the resource block does not name is refused before anything changes", async () => {
  await p.agent.sched.namespaces.upsert({ Name: 'west-other', Description: 'x' });
  const stack = aliased('sched.west');
  (stack['import'] as Record<string, unknown>[])[0]!['id'] = 'west-other';
  p.writeStack('app', stack);
  const r = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toContain('Invalid import provider argument');
  expect(r.stdout + r.stderr).toContain('Use the provider argument in the target resource block');

  p.writeStack('app', aliased('sched', 'sched.west'));
  const mismatch = await p.cli(['plan', '--no-synth']);
  expect(mismatch.code).toBe(1);
  expect(mismatch.stdout + mismatch.stderr).toContain('must match the import block');
});
