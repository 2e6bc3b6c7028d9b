/** Task events as the client records them, every field present as the API returns it. */
import type { TaskEventRecord, TaskStateRecord } from '../model';

export const MAX_TASK_EVENTS = 10;

export function taskEvent(
  type: string,
  nowNs: number,
  fields: Partial<TaskEventRecord> = {},
): TaskEventRecord {
  return {
    Type: type,
    Time: nowNs,
    DisplayMessage: fields.DisplayMessage ?? defaultMessage(type, fields),
    Message: fields.Message ?? '',
    Details: fields.Details ?? {},
    FailsTask: false,
    RestartReason: '',
    SetupError: '',
    DriverError: '',
    DriverMessage: '',
    ExitCode: 0,
    Signal: 0,
    KillTimeout: 0,
    KillError: '',
    KillReason: '',
    StartDelay: 0,
    DownloadError: '',
    ValidationError: '',
    DiskLimit: 0,
    FailedSibling: '',
    VaultError: '',
    TaskSignalReason: '',
    TaskSignal: '',
    GenericSource: '',
    ...fields,
  };
}

function defaultMessage(type: string, f: Partial<TaskEventRecord>): string {
  switch (type) {
    case 'Received':
      return 'Task received by client';
    case 'Task Setup':
      return 'Building Task Directory';
    case 'Started':
      return 'Task started by client';
    case 'Terminated':
      return `Exit Code: ${f.ExitCode ?? 0}${f.Signal ? `, Signal: ${f.Signal}` : ''}`;
    case 'Restarting':
      return `${f.RestartReason ?? 'Restart within policy'} - Task restarting in ${Math.round((f.StartDelay ?? 0) / 1e9)}s`;
    case 'Not Restarting':
      return f.RestartReason ?? 'Error was unrecoverable';
    case 'Driver Failure':
      return f.DriverError ?? 'driver failure';
    case 'Killing':
      return `Sent interrupt. Waiting ${Math.round((f.KillTimeout ?? 5e9) / 1e9)}s before force killing`;
    case 'Killed':
      return 'Task successfully killed';
    case 'Sibling Task Failed':
      return `Task's sibling "${f.FailedSibling ?? ''}" failed`;
    case 'Restart Signaled':
      return f.RestartReason ?? 'User requested restart';
    case 'Signaling':
      return `Task being sent signal ${f.TaskSignal ?? ''}`;
    default:
      return '';
  }
}

export function withEvent(state: TaskStateRecord, ev: TaskEventRecord): TaskStateRecord {
  const events = [...state.Events, ev];
  return { ...state, Events: events.slice(-MAX_TASK_EVENTS) };
}

export function newTaskState(): TaskStateRecord {
  return {
    State: 'pending',
    Failed: false,
    Restarts: 0,
    LastRestart: '0001-01-01T00:00:00Z',
    StartedAt: '0001-01-01T00:00:00Z',
    FinishedAt: '0001-01-01T00:00:00Z',
    Events: [],
    TaskHandle: null,
  };
}
