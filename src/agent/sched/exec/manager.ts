/**
 * Exec sessions of all allocations. What happens to an allocation's tasks happens to the processes
 * exec'd into them, read from the task events the simulated client commits: a `Signaling` event
 * delivers the signal, a restart (`Restart Signaled`, `Restarting`) or a stop kills them, and a
 * stopped allocation loses its working directory.
 */
import type WebSocket from 'ws';
import { badRequest } from '../../http/errors';
import type { Commit } from '../../store';
import type { SchedContext } from '../context';
import type { AllocRecord, TaskEventRecord } from '../model';
import { findGroup } from '../scheduler/resources';
import { isTerminalAlloc } from '../state';
import { T } from '../tables';
import { ExecSession } from './session';
import { WorkDirs } from './workdir';

const KILLING_EVENTS = new Set(['Restart Signaled', 'Restarting', 'Killing', 'Killed', 'Terminated']);

export interface ExecStart {
  alloc: AllocRecord;
  task: string;
  command: string[];
  tty: boolean;
}

export class ExecManager {
  private readonly sessions = new Map<string, Set<ExecSession>>();
  /** Last seen version of allocations with live sessions, to spot new task events. */
  private readonly seen = new Map<string, AllocRecord>();
  private readonly dirs: WorkDirs;
  private readonly unsubscribe: () => void;
  heartbeatMs: number;

  constructor(
    private readonly sc: SchedContext,
    dataDir: string | undefined,
  ) {
    this.dirs = new WorkDirs(dataDir);
    this.heartbeatMs = Math.max(50, sc.clock.scaledMs(10e9));
    this.unsubscribe = sc.store.onCommit((c) => this.onCommit(c));
  }

  start(): void {
    this.dirs.prune((id) => {
      const key = this.sc.state.keyOf(id);
      const a = key ? this.sc.store.get<AllocRecord>(T.allocs, key) : undefined;
      return !!a && !isTerminalAlloc(a);
    });
  }

  stop(): void {
    this.unsubscribe();
    for (const set of this.sessions.values()) for (const s of set) s.terminate();
    this.sessions.clear();
    this.dirs.close();
  }

  /** Sessions currently open for an allocation (tests and the signal path use it). */
  sessionsOf(allocId: string): ExecSession[] {
    return [...(this.sessions.get(allocId) ?? [])];
  }

  open(ws: WebSocket, req: ExecStart): ExecSession {
    const { alloc, task } = req;
    const { taskDir, allocDir } = this.dirs.ensure(alloc.ID, task);
    const session = new ExecSession(
      ws,
      {
        allocId: alloc.ID,
        task,
        command: req.command,
        tty: req.tty,
        cwd: taskDir,
        env: this.environment(alloc, task, taskDir, allocDir),
        heartbeatMs: this.heartbeatMs,
      },
      (s) => this.forget(s),
    );
    let set = this.sessions.get(alloc.ID);
    if (!set) this.sessions.set(alloc.ID, (set = new Set()));
    set.add(session);
    this.seen.set(alloc.ID, alloc);
    try {
      session.start();
    } catch (err) {
      // spawn refuses some arguments outright (a NUL byte in the command): that is the request's fault.
      this.forget(session);
      throw badRequest(`command: ${(err as Error).message}`);
    }
    return session;
  }

  private forget(s: ExecSession): void {
    const set = this.sessions.get(s.spec.allocId);
    if (!set) return;
    set.delete(s);
    if (set.size === 0) {
      this.sessions.delete(s.spec.allocId);
      this.seen.delete(s.spec.allocId);
    }
  }

  /** What a Nomad task sees: its NOMAD_* variables and the job's `env`, over a minimal PATH and HOME. */
  private environment(
    a: AllocRecord,
    task: string,
    taskDir: string,
    allocDir: string,
  ): Record<string, string> {
    const group = findGroup(a.Job, a.TaskGroup);
    const t = (group?.Tasks ?? []).find((x) => x.Name === task);
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: taskDir,
      NOMAD_ALLOC_ID: a.ID,
      NOMAD_ALLOC_NAME: a.Name,
      NOMAD_ALLOC_DIR: allocDir,
      NOMAD_TASK_DIR: `${taskDir}/local`,
      NOMAD_TASK_NAME: task,
      NOMAD_GROUP_NAME: a.TaskGroup,
      NOMAD_JOB_ID: a.JobID,
      NOMAD_JOB_NAME: a.Job.Name ?? a.JobID,
      NOMAD_NAMESPACE: a.Namespace,
      NOMAD_REGION: this.sc.settings.region,
      NOMAD_DC: this.sc.settings.datacenter,
    };
    for (const [k, v] of Object.entries((t?.Env ?? {}) as Record<string, unknown>)) {
      if (typeof v === 'string') env[k] = v;
    }
    return env;
  }

  private onCommit(c: Commit): void {
    for (const ch of c.changes) {
      if (ch.table !== T.allocs) continue;
      const a = ch.value as AllocRecord;
      if (ch.op === 'delete' || isTerminalAlloc(a)) {
        this.stopAlloc(a.ID);
        continue;
      }
      const prev = this.seen.get(a.ID);
      if (!prev) continue;
      this.seen.set(a.ID, a);
      for (const s of this.sessionsOf(a.ID)) {
        for (const e of newEvents(prev, a, s.spec.task)) {
          if (e.Type === 'Signaling' && e.TaskSignal) s.signal(e.TaskSignal);
          else if (KILLING_EVENTS.has(e.Type)) s.kill('SIGKILL');
        }
      }
    }
  }

  private stopAlloc(allocId: string): void {
    for (const s of this.sessionsOf(allocId)) s.kill('SIGKILL');
    this.seen.delete(allocId);
    // Sessions end (and report their exit) asynchronously; the directory can go at once.
    if (this.dirs.has(allocId)) this.dirs.remove(allocId);
  }
}

function signature(e: TaskEventRecord): string {
  return `${e.Time}|${e.Type}|${e.TaskSignal}|${e.RestartReason}`;
}

function newEvents(prev: AllocRecord, next: AllocRecord, task: string): TaskEventRecord[] {
  const before = new Set((prev.TaskStates[task]?.Events ?? []).map(signature));
  return (next.TaskStates[task]?.Events ?? []).filter((e) => !before.has(signature(e)));
}
