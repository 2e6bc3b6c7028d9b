/**
 * `cdktf-sched workspace list|show|new|select|delete`, as terraform's. A workspace is the project's:
 * `new` and `delete` act on every stack's backend (or `--stack`), `select` records the choice in
 * `.cdktf-sched/environment` (see engine/state/backends/workspace.ts).
 */
import { Command } from 'commander';
import path from 'node:path';
import { loadProject, loadStack, selectStack, stacksOf, type Project } from '../engine/project';
import { backendOf, openStackState, workspaceOf } from '../engine/stack-state';
import {
  checkWorkspaceName,
  DEFAULT_WORKSPACE,
  recordSelection,
  type StateBackend,
} from '../engine/state/backends';
import { ExitCode, type CliIO } from './io';

interface Loc {
  app: string;
  stack?: string;
}

async function backendsOf(
  io: CliIO,
  o: Loc,
): Promise<{ project: Project; backends: { stack: string; backend: StateBackend }[] }> {
  const project = loadProject(path.resolve(io.cwd, o.app));
  const all = await stacksOf(project);
  const stacks = o.stack ? [selectStack(all, o.stack)] : all;
  const backends = [];
  for (const s of stacks) {
    const loaded = await loadStack(project, s);
    backends.push({ stack: s.name, backend: backendOf(project, loaded, io.env) });
  }
  return { project, backends };
}

async function allWorkspaces(backends: { backend: StateBackend }[]): Promise<string[]> {
  const names = new Set<string>([DEFAULT_WORKSPACE]);
  for (const b of backends) for (const n of await b.backend.workspaces()) names.add(n);
  return [DEFAULT_WORKSPACE, ...[...names].filter((n) => n !== DEFAULT_WORKSPACE).sort()];
}

function withLoc(cmd: Command): Command {
  return cmd
    .option('--app <dir>', 'CDKTF project directory (with cdktf.json)', '.')
    .option('--stack <name>', 'only this stack (default: every stack of the project)');
}

/** Terraform refuses `select` while TF_WORKSPACE overrides it; so do we. */
function refuseOverride(io: CliIO, what: string): void {
  if (io.env['TF_WORKSPACE'])
    throw new ExitCode(
      1,
      `workspace ${what}: the workspace is set by TF_WORKSPACE=${io.env['TF_WORKSPACE']}; unset it to change the selected workspace`,
    );
}

async function deleteWorkspace(io: CliIO, name: string, o: Loc & { force?: boolean }): Promise<void> {
  checkWorkspaceName(name, 'workspace delete');
  if (name === DEFAULT_WORKSPACE)
    throw new ExitCode(1, 'workspace delete: the default workspace cannot be deleted');
  const { project, backends } = await backendsOf(io, o);
  if ((await workspaceOf(project, io.env)) === name)
    throw new ExitCode(1, `workspace delete: "${name}" is the current workspace; select another one first`);
  if (!(await allWorkspaces(backends)).includes(name))
    throw new ExitCode(1, `workspace "${name}" does not exist`);
  for (const { stack, backend } of backends) {
    if (!(await backend.workspaces()).includes(name)) continue;
    // Locked while checked and deleted, so a run in that workspace cannot start meanwhile.
    const opened = await openStackState(backend, name, { operation: 'OperationTypeWorkspaceDelete' });
    try {
      const count = opened.state.addresses().length;
      if (count > 0 && !o.force)
        throw new ExitCode(
          1,
          `workspace delete: stack ${stack} still tracks ${count} resource instance(s) in "${name}"; destroy them first, or pass --force to forget them`,
        );
    } finally {
      await opened.store.close();
    }
    await backend.deleteWorkspace(name);
  }
  io.stdout.write(`Deleted workspace "${name}"!\n`);
}

export function workspaceCommand(io: CliIO): Command {
  const cmd = new Command('workspace').description('list, create, select and delete workspaces');
  cmd.addCommand(
    withLoc(new Command('list'))
      .description('list the workspaces (* marks the current one)')
      .action(async (o: Loc) => {
        const { project, backends } = await backendsOf(io, o);
        const current = await workspaceOf(project, io.env);
        for (const n of await allWorkspaces(backends)) io.stdout.write(`${n === current ? '*' : ' '} ${n}\n`);
      }),
  );
  cmd.addCommand(
    withLoc(new Command('show'))
      .description('print the current workspace')
      .action(async (o: Loc) => {
        const project = loadProject(path.resolve(io.cwd, o.app));
        io.stdout.write(`${await workspaceOf(project, io.env)}\n`);
      }),
  );
  cmd.addCommand(
    withLoc(new Command('new'))
      .description("create a workspace in every stack's backend and select it")
      .argument('<name>')
      .action(async (name: string, o: Loc) => {
        checkWorkspaceName(name, 'workspace new');
        const { project, backends } = await backendsOf(io, o);
        if ((await allWorkspaces(backends)).includes(name))
          throw new ExitCode(1, `workspace "${name}" already exists`);
        for (const { backend } of backends) await backend.createWorkspace(name);
        if (!io.env['TF_WORKSPACE']) await recordSelection(project.dir, name);
        io.stdout.write(`Created and switched to workspace "${name}"!\n`);
      }),
  );
  cmd.addCommand(
    withLoc(new Command('select'))
      .description('choose the workspace later commands use (kept in .cdktf-sched/environment)')
      .argument('<name>')
      .option('--or-create', 'create the workspace if it does not exist')
      .action(async (name: string, o: Loc & { orCreate?: boolean }) => {
        checkWorkspaceName(name, 'workspace select');
        refuseOverride(io, 'select');
        const { project, backends } = await backendsOf(io, o);
        if (!(await allWorkspaces(backends)).includes(name)) {
          if (!o.orCreate)
            throw new ExitCode(
              1,
              `workspace "${name}" does not exist; create it with "cdktf-sched workspace new ${name}" or pass --or-create`,
            );
          for (const { backend } of backends) await backend.createWorkspace(name);
        }
        await recordSelection(project.dir, name);
        io.stdout.write(`Switched to workspace "${name}".\n`);
      }),
  );
  cmd.addCommand(
    withLoc(new Command('delete'))
      .description("delete a workspace's state in every stack's backend")
      .argument('<name>')
      .option('--force', 'delete even if the workspace still tracks resources (they keep running)')
      .action((name: string, o: Loc & { force?: boolean }) => deleteWorkspace(io, name, o)),
  );
  return cmd;
}
