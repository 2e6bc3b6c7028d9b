/**
 * Stopping an allocation's tasks as a Nomad client does: each live task is signalled ("Killing")
 * and is dead once it exits, which for the mock driver is after `kill_after`, cut short by the
 * task's kill_timeout (the client's force kill). The signal's time is recorded in the task's events,
 * so an agent restarted mid-stop waits only for what was left.
 */
import type { AllocRecord, Job, TaskStateRecord } from '../model';
import { findGroup } from '../scheduler/resources';
import { taskEvent, withEvent } from './events';
import type { MockBehaviour } from './mock-config';

/** Nomad's default kill_timeout. */
const DEFAULT_KILL_TIMEOUT_NS = 5e9;

export function killTimeoutNs(job: Job, group: string, task: string): number {
  const t = (findGroup(job, group)?.Tasks ?? []).find((x) => x.Name === task);
  return t?.KillTimeout ?? DEFAULT_KILL_TIMEOUT_NS;
}

/** How long (ns, unscaled) a task takes to die once signalled. */
export function killDelayNs(behaviour: MockBehaviour, killTimeoutNs: number): number {
  return Math.min(behaviour.killAfter, killTimeoutNs);
}

/** Names of the tasks not yet dead. */
export function liveTasks(a: AllocRecord): string[] {
  return Object.keys(a.TaskStates).filter((name) => a.TaskStates[name]!.State !== 'dead');
}

/** When (epoch ms) the task was signalled, if the last thing that happened to it was the signal. */
export function signalledAtMs(s: TaskStateRecord | undefined): number | undefined {
  const last = s?.Events[s.Events.length - 1];
  return last?.Type === 'Killing' ? last.Time / 1e6 : undefined;
}

export function withKilling(s: TaskStateRecord, nowNs: number, killTimeout: number): TaskStateRecord {
  return withEvent(s, taskEvent('Killing', nowNs, { KillTimeout: killTimeout }));
}

export function withKilled(s: TaskStateRecord, nowNs: number): TaskStateRecord {
  return withEvent(
    { ...s, State: 'dead', FinishedAt: new Date(nowNs / 1e6).toISOString() },
    taskEvent('Killed', nowNs),
  );
}
