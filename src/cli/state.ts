/** `cdktf-sched state list|show|rm|mv`, `output`, and `force-unlock`: the state, without touching the cluster. */
import { Command } from 'commander';
import path from 'node:path';
import { loadProject, loadStack, selectStack, stacksOf } from '../engine/project';
import { forceUnlock, type StateFile } from '../engine/state';
import { backendOf, openStackState, stateWriterFor, workspaceOf } from '../engine/stack-state';
import { maskSensitive, SENSITIVE_TEXT } from '../engine/render/sensitive';
import type { AttrPath } from '../provider/values';
import { formatValue } from './apply-flow';
import { ExitCode, type CliIO } from './io';
import { noteSecrets, secretsOfState } from './secrets';

interface Loc {
  app: string;
  stack?: string;
  workspace?: string;
}

async function stackOf(io: CliIO, o: Loc) {
  const project = loadProject(path.resolve(io.cwd, o.app));
  const stack = selectStack(await stacksOf(project), o.stack);
  const loaded = await loadStack(project, stack);
  const backend = backendOf(project, loaded, io.env);
  const workspace = await workspaceOf(project, io.env, o.workspace);
  return { loaded, backend, workspace };
}

/** The stack's state as recorded, read without a lock (as `terraform state list` and `output` do). */
async function readState(io: CliIO, o: Loc): Promise<StateFile> {
  const { backend, workspace } = await stackOf(io, o);
  const { store, state } = await openStackState(backend, workspace, false);
  await store.close();
  return state;
}

function withLoc(cmd: Command): Command {
  return cmd
    .option('--app <dir>', 'CDKTF project directory (with cdktf.json)', '.')
    .option('--stack <name>', 'the stack')
    .option('--workspace <name>', 'the workspace (default: TF_WORKSPACE, else the selected one)');
}

/** The attributes with every recorded sensitive path (nested ones too) shown as `(sensitive value)`. */
function masked(attrs: Record<string, unknown>, sensitive: AttrPath[] | undefined): unknown {
  return maskSensitive(attrs, sensitive ?? [], [], SENSITIVE_TEXT);
}

async function mutate(
  io: CliIO,
  o: Loc,
  operation: string,
  fn: (s: StateFile) => string[],
): Promise<string[]> {
  const { backend, workspace } = await stackOf(io, o);
  const opened = await openStackState(backend, workspace, { operation });
  try {
    const writer = stateWriterFor(opened);
    let changed: string[] = [];
    await writer.update((s) => {
      changed = fn(s);
    });
    await writer.settle();
    return changed;
  } finally {
    await opened.store.close();
  }
}

export function stateCommand(io: CliIO): Command {
  const cmd = new Command('state').description('inspect and edit the state');
  cmd.addCommand(
    withLoc(new Command('list'))
      .description('list the resource instances in the state')
      .argument('[addresses...]', 'only these (or instances of these resources)')
      .action(async (filter: string[], o: Loc) => {
        const state = await readState(io, o);
        for (const a of state.addresses()) {
          if (filter.length === 0 || filter.some((f) => a === f || a.startsWith(`${f}[`)))
            io.stdout.write(`${a}\n`);
        }
      }),
  );
  cmd.addCommand(
    withLoc(new Command('show'))
      .description('show one instance (sensitive values masked)')
      .argument('<address>')
      .action(async (address: string, o: Loc) => {
        const state = await readState(io, o);
        const obj = state.get(address);
        if (!obj) throw new ExitCode(1, `${address} is not in the state`);
        // A secret echoed into another attribute (or another instance) is masked too.
        noteSecrets(io, secretsOfState(state.entries().map((e) => e.object)));
        io.stdout.write(
          `# ${address}\n${JSON.stringify(masked(obj.attributes, obj.sensitiveAttributes), null, 2)}\n`,
        );
      }),
  );
  cmd.addCommand(
    withLoc(new Command('rm'))
      .description('forget instances (the objects keep running on the cluster)')
      .argument('<addresses...>')
      .action(async (addresses: string[], o: Loc) => {
        const removed = await mutate(io, o, 'OperationTypeStateRm', (s) =>
          addresses.flatMap((a) => s.remove(a)),
        );
        if (removed.length === 0)
          throw new ExitCode(1, `nothing in the state matches ${addresses.join(', ')}`);
        for (const a of removed) io.stdout.write(`Removed ${a}\n`);
        io.stdout.write(`Successfully removed ${removed.length} resource instance(s).\n`);
      }),
  );
  cmd.addCommand(
    withLoc(new Command('mv'))
      .description('rename an instance or resource in the state (after a rename in code)')
      .argument('<from>')
      .argument('<to>')
      .action(async (from: string, to: string, o: Loc) => {
        const moved = await mutate(io, o, 'OperationTypeStateMv', (s) => s.move(from, to));
        io.stdout.write(`Move "${from}" to "${to}"\nSuccessfully moved ${moved.length} object(s).\n`);
      }),
  );
  return cmd;
}

export function outputCommand(io: CliIO): Command {
  return withLoc(new Command('output'))
    .description('show the outputs recorded by the last deploy')
    .argument('[name]', 'one output (printed raw, sensitive or not)')
    .option('--json', 'machine-readable (sensitive values included, as Terraform does)')
    .action(async (name: string | undefined, o: Loc & { json?: boolean }) => {
      const state = await readState(io, o);
      const outputs = state.outputs();
      if (name) {
        const out = outputs[name];
        if (!out) throw new ExitCode(1, `no output "${name}"`);
        io.stdout.write(
          o.json
            ? `${JSON.stringify(out.value)}\n`
            : `${typeof out.value === 'string' ? out.value : formatValue(out.value)}\n`,
        );
        return;
      }
      if (o.json) {
        io.stdout.write(`${JSON.stringify(outputs, null, 2)}\n`);
        return;
      }
      for (const n of Object.keys(outputs).sort()) {
        io.stdout.write(`${n} = ${outputs[n]!.sensitive ? '<sensitive>' : formatValue(outputs[n]!.value)}\n`);
      }
    });
}

export function forceUnlockCommand(io: CliIO): Command {
  return withLoc(new Command('force-unlock'))
    .description('remove a state lock left behind (give the lock ID the error showed)')
    .argument('<lock-id>')
    .action(async (id: string, o: Loc) => {
      const { loaded, backend } = await stackOf(io, o);
      if (backend.type !== 'local')
        throw new ExitCode(
          1,
          `force-unlock: the ${backend.type} backend's lock goes away when its holder ends (nothing to remove by ID)`,
        );
      const { workspace } = await stackOf(io, o);
      const probe = await backend.open(workspace, { lock: false });
      await probe.close();
      const statePath = probe.localPath ?? loaded.statePath;
      const info = await forceUnlock(statePath, id);
      io.stdout.write(`Unlocked ${statePath} (held by ${info.Who} since ${info.Created}).\n`);
    });
}
