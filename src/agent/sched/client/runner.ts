/**
 * The simulated clients: every allocation placed on a node runs here, task by task, through the
 * mock driver. Task states, restarts under the restart policy, failures and deployment health are
 * written back to the store just as a Nomad client reports them to its servers.
 */
import type { Commit } from '../../store';
import type { SchedContext } from '../context';
import { refreshJob } from '../derived';
import { newEval } from '../evaluator';
import type { AllocRecord, TaskStateRecord } from '../model';
import { restartPolicy } from '../scheduler/policies';
import { findGroup } from '../scheduler/resources';
import { isClientTerminal } from '../state';
import { T, childKey } from '../tables';
import { formatDuration } from '../../../api/duration';
import { newTaskState, taskEvent, withEvent } from './events';
import { mockBehaviour, type MockBehaviour } from './mock-config';
import { killDelayNs, killTimeoutNs, liveTasks, signalledAtMs, withKilled, withKilling } from './kill';

interface TaskSim {
  name: string;
  behaviour: MockBehaviour;
  /** Start times (ms) of restarts inside the current restart-policy interval. */
  restarts: number[];
  cancel: (() => void)[];
}

interface AllocSim {
  id: string;
  key: string;
  tasks: Map<string, TaskSim>;
  cancelHealth: (() => void)[];
  /** The deployment whose health is being tracked (an in-place update moves an allocation to a new one). */
  healthFor: string;
  killed: boolean;
}

export class ClientRunner {
  private readonly sims = new Map<string, AllocSim>();
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(private readonly ctx: SchedContext) {
    this.unsubscribe = ctx.store.onCommit((c) => this.onCommit(c));
  }

  /**
   * Picks up where the agent left off, as a restarted Nomad client restores its allocations: tasks
   * that were running are re-attached (their run_for counts from when they started), those between
   * starts start again, and allocations the servers had asked to stop are stopped now.
   */
  start(): void {
    for (const a of this.ctx.store.list<AllocRecord>(T.allocs)) {
      if (isClientTerminal(a)) continue;
      if (a.DesiredStatus === 'run') this.launch(a, Object.keys(a.TaskStates).length > 0);
      else this.stopUnattended(a);
    }
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const sim of this.sims.values()) this.cancelAll(sim);
    this.sims.clear();
  }

  /** Restarts one task or all tasks of an allocation (the restart endpoint). */
  restart(allocId: string, taskName?: string): void {
    const sim = this.sims.get(allocId);
    if (!sim || sim.killed) return;
    for (const t of sim.tasks.values()) {
      if (taskName && t.name !== taskName) continue;
      t.cancel.forEach((c) => c());
      t.cancel = [];
      this.mutate(sim, (a) =>
        setTask(a, t.name, (s) =>
          withEvent(
            { ...s, State: 'pending' },
            taskEvent('Restart Signaled', this.ctx.clock.nowNs(), {
              RestartReason: 'User requested restart',
            }),
          ),
        ),
      );
      this.schedule(t, 0, () => this.startTask(sim, t, true));
    }
  }

  /** Records a signal sent to one task or all (the signal endpoint). */
  signal(allocId: string, signal: string, taskName?: string): void {
    const sim = this.sims.get(allocId);
    if (!sim || sim.killed) return;
    this.mutate(sim, (a) => {
      let next = a;
      for (const t of sim.tasks.values()) {
        if (taskName && t.name !== taskName) continue;
        next = setTask(next, t.name, (s) =>
          withEvent(
            s,
            taskEvent('Signaling', this.ctx.clock.nowNs(), {
              TaskSignal: signal,
              TaskSignalReason: 'User requested signal',
            }),
          ),
        );
      }
      return next;
    });
  }

  isRunning(allocId: string): boolean {
    const sim = this.sims.get(allocId);
    return sim !== undefined && !sim.killed;
  }

  private onCommit(c: Commit): void {
    if (this.stopped) return;
    for (const ch of c.changes) {
      if (ch.table !== T.allocs || ch.op !== 'put') continue;
      const a = ch.value as AllocRecord;
      const sim = this.sims.get(a.ID);
      if (
        a.DesiredStatus === 'run' &&
        a.ClientStatus === 'pending' &&
        !sim &&
        Object.keys(a.TaskStates).length === 0
      ) {
        // Start once the commit that placed it has been delivered (a microtask: a turn of the event
        // loop would first wait for all the I/O it polled, a few ms per placement under load).
        queueMicrotask(() => this.launchCurrent(a));
      } else if (a.DesiredStatus !== 'run' && sim && !sim.killed) {
        setImmediate(() => this.kill(sim));
      } else if (a.DesiredStatus !== 'run' && !sim && !isClientTerminal(a)) {
        // Stopped before its tasks were set up (or while no runner held it).
        setImmediate(() => this.stopUnattended(a));
      } else if (
        sim &&
        !sim.killed &&
        a.DeploymentID &&
        a.DeploymentID !== sim.healthFor &&
        a.DeploymentStatus?.Healthy == null
      ) {
        setImmediate(() => this.watchHealth(sim, a));
      }
    }
  }

  /** Launches a newly placed allocation unless it was stopped before its turn came. */
  private launchCurrent(placed: AllocRecord): void {
    const cur = this.ctx.store.get<AllocRecord>(
      T.allocs,
      childKey(placed.Namespace, placed.JobID, placed.ID),
    );
    if (!cur || isClientTerminal(cur)) return;
    if (cur.DesiredStatus === 'run') this.launch(cur, false);
    else this.stopUnattended(cur);
  }

  /** Stops an allocation no simulation holds: one stopped before it started, or before a restart. */
  private stopUnattended(a: AllocRecord): void {
    if (this.stopped || this.sims.has(a.ID)) return;
    const sim = this.newSim(a);
    if (!sim) return;
    this.sims.set(a.ID, sim);
    setImmediate(() => this.kill(sim));
  }

  private newSim(a: AllocRecord): AllocSim | undefined {
    const group = findGroup(a.Job, a.TaskGroup);
    if (!group) return undefined;
    const sim: AllocSim = {
      id: a.ID,
      key: childKey(a.Namespace, a.JobID, a.ID),
      tasks: new Map(),
      cancelHealth: [],
      healthFor: '',
      killed: false,
    };
    for (const t of group.Tasks ?? []) {
      sim.tasks.set(t.Name!, {
        name: t.Name!,
        behaviour: mockBehaviour(
          t.Config as Record<string, unknown> | null | undefined,
          a.Job.Type ?? 'service',
        ),
        restarts: [],
        cancel: [],
      });
    }
    return sim;
  }

  private launch(a: AllocRecord, resumed: boolean): void {
    if (this.stopped || this.sims.has(a.ID)) return;
    const sim = this.newSim(a);
    if (!sim) return;
    this.sims.set(a.ID, sim);
    const now = this.ctx.clock.nowNs();
    if (!resumed) {
      this.mutate(sim, (cur) => {
        const states: Record<string, TaskStateRecord> = {};
        for (const name of sim.tasks.keys()) {
          let s = withEvent(newTaskState(), taskEvent('Received', now));
          s = withEvent(s, taskEvent('Task Setup', now, { Message: 'Building Task Directory' }));
          states[name] = s;
        }
        return { ...cur, TaskStates: states };
      });
    }
    this.watchHealth(sim, a, resumed);
    for (const t of sim.tasks.values()) {
      if (resumed) this.resumeTask(sim, t, a.TaskStates[t.name]);
      else this.schedule(t, t.behaviour.startBlockFor, () => this.startTask(sim, t, false));
    }
  }

  /** A task as the agent left it: finished, running (re-attached), or between starts (started again). */
  private resumeTask(sim: AllocSim, t: TaskSim, state: TaskStateRecord | undefined): void {
    if (state?.State === 'dead') return;
    const startedMs = state?.State === 'running' ? Date.parse(state.StartedAt) : NaN;
    if (Number.isFinite(startedMs)) return this.armExit(sim, t, startedMs);
    // Waiting out a restart delay: only what is left of it.
    const last = state?.Events[state.Events.length - 1];
    const restartAt =
      last?.Type === 'Restarting' ? last.Time / 1e6 + this.ctx.clock.scaledMs(last.StartDelay) : Date.now();
    t.cancel.push(this.ctx.clock.at(restartAt, () => this.startTask(sim, t, last?.Type === 'Restarting')));
  }

  private startTask(sim: AllocSim, t: TaskSim, afterRestart: boolean): void {
    if (sim.killed) return;
    const now = this.ctx.clock.nowNs();
    if (t.behaviour.startError) {
      this.mutate(sim, (a) =>
        setTask(a, t.name, (s) =>
          withEvent(
            s,
            taskEvent('Driver Failure', now, {
              DriverError: t.behaviour.startError!,
              FailsTask: !t.behaviour.startErrorRecoverable,
            }),
          ),
        ),
      );
      this.onTaskExit(sim, t, `failed to start task "${t.name}": ${t.behaviour.startError}`, true);
      return;
    }
    this.mutate(sim, (a) =>
      setTask(a, t.name, (s) => {
        const next: TaskStateRecord = {
          ...s,
          State: 'running',
          StartedAt: new Date(now / 1e6).toISOString(),
          LastRestart: afterRestart ? new Date(now / 1e6).toISOString() : s.LastRestart,
        };
        return withEvent(next, taskEvent('Started', now));
      }),
    );
    this.armExit(sim, t, now / 1e6);
  }

  /** The mock task exits run_for after it started (scaled), wherever that start falls. */
  private armExit(sim: AllocSim, t: TaskSim, startedMs: number): void {
    if (t.behaviour.runFor !== undefined) {
      const exitAt = startedMs + this.ctx.clock.scaledMs(t.behaviour.runFor);
      t.cancel.push(
        this.ctx.clock.at(exitAt, () => {
          const code = t.behaviour.exitCode;
          this.mutate(sim, (a) =>
            setTask(a, t.name, (s) =>
              withEvent(
                s,
                taskEvent('Terminated', this.ctx.clock.nowNs(), {
                  ExitCode: code,
                  Details: { exit_code: String(code) },
                }),
              ),
            ),
          );
          this.onTaskExit(sim, t, `task "${t.name}" exited with code ${code}`, code !== 0);
        }),
      );
    }
  }

  /** A task stopped on its own: finish it, or restart it as the restart policy says. */
  private onTaskExit(sim: AllocSim, t: TaskSim, _reason: string, failed: boolean): void {
    const cur = this.ctx.store.get<AllocRecord>(T.allocs, sim.key);
    if (!cur || sim.killed) return;
    const batch = cur.Job.Type === 'batch' || cur.Job.Type === 'sysbatch';
    const now = this.ctx.clock.nowNs();
    if (batch && !failed) {
      this.mutate(sim, (a) =>
        setTask(a, t.name, (s) => ({ ...s, State: 'dead', FinishedAt: new Date(now / 1e6).toISOString() })),
      );
      return;
    }
    const group = findGroup(cur.Job, cur.TaskGroup)!;
    const task = (group.Tasks ?? []).find((x) => x.Name === t.name);
    const policy = restartPolicy(cur.Job, group, task?.RestartPolicy ?? null);
    const nowMs = Date.now();
    const intervalMs = this.ctx.clock.scaledMs(policy.Interval);
    t.restarts = t.restarts.filter((at) => nowMs - at < intervalMs);
    const unrecoverable = t.behaviour.startError !== undefined && !t.behaviour.startErrorRecoverable;
    if (!unrecoverable && t.restarts.length < policy.Attempts) {
      t.restarts.push(nowMs);
      this.mutate(sim, (a) =>
        setTask(a, t.name, (s) =>
          withEvent(
            { ...s, State: 'pending', Restarts: s.Restarts + 1, LastRestart: new Date(nowMs).toISOString() },
            taskEvent('Restarting', now, {
              RestartReason: 'Restart within policy',
              StartDelay: policy.Delay,
            }),
          ),
        ),
      );
      this.schedule(t, policy.Delay, () => this.startTask(sim, t, true));
      return;
    }
    if (!unrecoverable && policy.Mode === 'delay') {
      this.mutate(sim, (a) =>
        setTask(a, t.name, (s) =>
          withEvent(
            { ...s, State: 'pending' },
            taskEvent('Restarting', now, {
              RestartReason: 'Exceeded allowed attempts, applying a delay',
              StartDelay: policy.Interval,
            }),
          ),
        ),
      );
      t.restarts = [];
      this.schedule(t, policy.Interval, () => this.startTask(sim, t, true));
      return;
    }
    const reason = unrecoverable
      ? 'Error was unrecoverable'
      : `Exceeded allowed attempts ${policy.Attempts} in interval ${formatDuration(policy.Interval / 1e6)} and mode is "${policy.Mode}"`;
    this.failAlloc(sim, t.name, reason);
  }

  private failAlloc(sim: AllocSim, failedTask: string, reason: string): void {
    this.cancelAll(sim);
    const now = this.ctx.clock.nowNs();
    const finished = new Date(now / 1e6).toISOString();
    this.mutate(sim, (a) => {
      let next = setTask(a, failedTask, (s) =>
        withEvent(
          { ...s, State: 'dead', Failed: true, FinishedAt: finished },
          taskEvent('Not Restarting', now, { RestartReason: reason, FailsTask: true }),
        ),
      );
      for (const name of sim.tasks.keys()) {
        if (name === failedTask || next.TaskStates[name]?.State === 'dead') continue;
        next = setTask(next, name, (s) =>
          withEvent(
            withEvent(
              { ...s, State: 'dead', FinishedAt: finished },
              taskEvent('Sibling Task Failed', now, { FailedSibling: failedTask }),
            ),
            taskEvent('Killed', now),
          ),
        );
      }
      return next;
    });
    this.sims.delete(sim.id);
  }

  /** Signals every live task to stop; each is dead once its kill delay has passed. */
  private kill(sim: AllocSim): void {
    if (sim.killed) return;
    sim.killed = true;
    this.cancelAll(sim);
    const cur = this.ctx.store.get<AllocRecord>(T.allocs, sim.key);
    const live = cur ? liveTasks(cur) : [];
    const delays = new Map(live.map((name) => [name, this.killDelayMs(sim, cur!, name)]));
    if ([...delays.values()].every((ms) => ms === 0)) {
      this.sims.delete(sim.id);
      this.mutate(
        sim,
        (a) => this.markSignalled(a, live, (s) => withKilled(s, this.ctx.clock.nowNs())),
        true,
      );
      return;
    }
    const now = this.ctx.clock.nowNs();
    const unsignalled = live.filter((name) => signalledAtMs(cur!.TaskStates[name]) === undefined);
    this.mutate(sim, (a) => this.markSignalled(a, unsignalled, (s) => s), true);
    const after = this.ctx.store.get<AllocRecord>(T.allocs, sim.key) ?? cur!;
    for (const name of live) {
      const from = signalledAtMs(after.TaskStates[name]) ?? now / 1e6;
      const t = sim.tasks.get(name);
      const cancel = this.ctx.clock.at(from + delays.get(name)!, () => this.taskKilled(sim, name));
      if (t) t.cancel.push(cancel);
    }
  }

  /** Records the stop signal ('Killing') on tasks, then whatever `then` adds. */
  private markSignalled(
    a: AllocRecord,
    names: string[],
    then: (s: TaskStateRecord) => TaskStateRecord,
  ): AllocRecord {
    const now = this.ctx.clock.nowNs();
    let next = a;
    for (const name of names) {
      const timeout = killTimeoutNs(a.Job, a.TaskGroup, name);
      next = setTask(next, name, (s) => then(withKilling(s, now, timeout)));
    }
    return next;
  }

  private killDelayMs(sim: AllocSim, a: AllocRecord, name: string): number {
    const behaviour = sim.tasks.get(name)?.behaviour;
    if (!behaviour) return 0;
    return this.ctx.clock.scaledMs(killDelayNs(behaviour, killTimeoutNs(a.Job, a.TaskGroup, name)));
  }

  private taskKilled(sim: AllocSim, name: string): void {
    this.mutate(sim, (a) => setTask(a, name, (s) => withKilled(s, this.ctx.clock.nowNs())), true);
  }

  /** Deployment health, as the client's health tracker decides it: running for min_healthy_time before the deadline. */
  private watchHealth(sim: AllocSim, a: AllocRecord, resumed = false): void {
    if (!a.DeploymentID || a.DeploymentStatus?.Healthy != null || sim.healthFor === a.DeploymentID) return;
    sim.cancelHealth.forEach((c) => c());
    sim.cancelHealth = [];
    sim.healthFor = a.DeploymentID;
    const group = findGroup(a.Job, a.TaskGroup);
    const update = group?.Update ?? a.Job.Update;
    if (!update) return;
    const mode = update.HealthCheck ?? 'checks';
    if (mode === 'manual') return;
    const minHealthy = update.MinHealthyTime ?? 10e9;
    const deadline = update.HealthyDeadline ?? 5 * 60e9;
    const checksPass = mode === 'task_states' || [...sim.tasks.values()].every((t) => t.behaviour.healthy);
    const check = (): void => {
      const cur = this.ctx.store.get<AllocRecord>(T.allocs, sim.key);
      if (!cur || cur.DeploymentStatus?.Healthy != null || sim.killed) return;
      const states = Object.values(cur.TaskStates);
      const running = states.length > 0 && states.every((s) => s.State === 'running');
      if (!running || !checksPass) {
        sim.cancelHealth.push(this.ctx.clock.after(Math.max(minHealthy / 10, 1e6), check));
        return;
      }
      const lastStart = Math.max(...states.map((s) => Date.parse(s.StartedAt)));
      const healthyAt = lastStart + this.ctx.clock.scaledMs(minHealthy);
      if (Date.now() + 1 >= healthyAt) this.setHealth(sim, true);
      else sim.cancelHealth.push(this.ctx.clock.at(healthyAt, check));
    };
    // A resumed allocation's tasks may have been running for a while: judge them at once.
    sim.cancelHealth.push(this.ctx.clock.after(resumed ? 0 : minHealthy, check));
    sim.cancelHealth.push(
      this.ctx.clock.after(deadline, () => {
        const cur = this.ctx.store.get<AllocRecord>(T.allocs, sim.key);
        if (cur && cur.DeploymentStatus?.Healthy == null && !sim.killed) this.setHealth(sim, false);
      }),
    );
  }

  private setHealth(sim: AllocSim, healthy: boolean): void {
    sim.cancelHealth.forEach((c) => c());
    sim.cancelHealth = [];
    this.mutate(sim, (a) => ({
      ...a,
      DeploymentStatus: {
        Canary: a.DeploymentStatus?.Canary ?? false,
        Healthy: healthy,
        Timestamp: new Date().toISOString(),
        ModifyIndex: 0,
      },
    }));
  }

  private schedule(t: TaskSim, ns: number, fn: () => void): void {
    if (ns > 0) {
      t.cancel.push(this.ctx.clock.after(ns, fn));
      return;
    }
    // No delay (start_block_for unset, a restart without delay): right after the change that led to
    // it, as its own commit. A zero timer fires a loop turn and at least 1 ms later.
    let cancelled = false;
    queueMicrotask(() => {
      if (!cancelled && !this.stopped) fn();
    });
    t.cancel.push(() => {
      cancelled = true;
    });
  }

  private cancelAll(sim: AllocSim): void {
    for (const t of sim.tasks.values()) {
      t.cancel.forEach((c) => c());
      t.cancel = [];
    }
    sim.cancelHealth.forEach((c) => c());
    sim.cancelHealth = [];
  }

  /** Applies a change to the allocation, recomputes its client status, and keeps job status and summary in step. */
  private mutate(sim: AllocSim, fn: (a: AllocRecord) => AllocRecord, stopping = false): void {
    if (this.stopped) return;
    this.ctx.store.write((tx) => {
      const cur = tx.get<AllocRecord>(T.allocs, sim.key);
      if (!cur) return;
      if (isClientTerminal(cur) && !stopping) return;
      let next = fn(cur);
      const status = clientStatus(next, stopping);
      const healthFailed = status === 'failed' && next.DeploymentID && next.DeploymentStatus?.Healthy == null;
      next = {
        ...next,
        ClientStatus: status,
        ClientDescription: describe(status),
        ModifyTime: this.ctx.clock.nowNs(),
        DeploymentStatus: healthFailed
          ? {
              Canary: next.DeploymentStatus?.Canary ?? false,
              Healthy: false,
              Timestamp: new Date().toISOString(),
              ModifyIndex: 0,
            }
          : next.DeploymentStatus,
      };
      // Compare only what the client changes: the embedded job makes whole-record comparisons costly.
      if (
        next.ClientStatus === cur.ClientStatus &&
        next.TaskStates === cur.TaskStates &&
        JSON.stringify(next.DeploymentStatus) === JSON.stringify(cur.DeploymentStatus)
      ) {
        return;
      }
      tx.put(T.allocs, sim.key, next);
      if (status === 'failed' && cur.ClientStatus !== 'failed' && next.DesiredStatus === 'run') {
        // As a Nomad client's failure report does: the scheduler decides whether to reschedule.
        const ev = newEval(
          {
            Namespace: cur.Namespace,
            JobID: cur.JobID,
            Priority: cur.Job.Priority ?? 50,
            Type: cur.Job.Type ?? 'service',
            TriggeredBy: 'alloc-failure',
            JobModifyIndex: cur.Job.JobModifyIndex ?? 0,
          },
          this.ctx.clock.nowNs(),
        );
        tx.put(T.evals, childKey(cur.Namespace, cur.JobID, ev.ID), ev);
      }
      refreshJob(tx, cur.Namespace, cur.JobID);
    });
    if (this.ctx.store.get<AllocRecord>(T.allocs, sim.key)?.ClientStatus === 'complete') {
      this.cancelAll(sim);
      this.sims.delete(sim.id);
    }
  }
}

function setTask(a: AllocRecord, name: string, fn: (s: TaskStateRecord) => TaskStateRecord): AllocRecord {
  const cur = a.TaskStates[name] ?? newTaskState();
  return { ...a, TaskStates: { ...a.TaskStates, [name]: fn(cur) } };
}

function clientStatus(a: AllocRecord, stopping: boolean): AllocRecord['ClientStatus'] {
  const states = Object.values(a.TaskStates);
  // Stopped before any task was set up: nothing is left to run.
  if (states.length === 0) return stopping ? 'complete' : a.ClientStatus;
  if (states.some((s) => s.Failed)) return 'failed';
  if (states.every((s) => s.State === 'dead')) return 'complete';
  if (stopping) return a.ClientStatus;
  if (states.some((s) => s.State === 'running')) return 'running';
  return 'pending';
}

function describe(status: AllocRecord['ClientStatus']): string {
  switch (status) {
    case 'running':
      return 'Tasks are running';
    case 'complete':
      return 'All tasks have completed';
    case 'failed':
      return 'Failed tasks';
    case 'pending':
      return 'No tasks have started';
    default:
      return '';
  }
}
