import { z } from 'zod';
import { RequestValidationError } from '../errors';
import type { Transport } from '../transport';
import { execAllocation, type ExecOptions, type ExecSession } from './exec';
import {
  AckSchema,
  type PlainWriteOptions,
  type PrefixListOptions,
  type ReadOptions,
  type Result,
  omit,
  withParams,
} from './options';
import { seg } from './paths';
import {
  AllocStopResponseSchema,
  AllocationSchema,
  AllocationStubSchema,
  type AllocStopResponse,
  type Allocation,
  type AllocationStub,
} from './schemas';
import { prefixListQuery } from './list-query';
import { requireNonEmpty, requireUuid } from './validate';

export interface AllocationListOptions extends PrefixListOptions {
  /** Include AllocatedResources (`resources=true`). */
  resources?: boolean;
  /** Include TaskStates (`task_states`, default true); false shrinks the response a lot. */
  taskStates?: boolean;
}

export interface AllocStopOptions extends PlainWriteOptions {
  noShutdownDelay?: boolean;
}

export interface SignalInput {
  /** Signal name such as `SIGHUP`. */
  signal: string;
  /** Task to signal; all tasks of the allocation when omitted. */
  task?: string;
}

export interface RestartInput {
  /** Task to restart; all running tasks when omitted. */
  task?: string;
  /** Also restart tasks that are not running (prestart/poststart). */
  allTasks?: boolean;
}

const AllocStubListSchema = z.array(AllocationStubSchema);

function allocId(id: string): string {
  requireUuid('allocId', id);
  return seg(id);
}

/** `/v1/allocations`, `/v1/allocation/<id>` and the client-routed `/v1/client/allocation/<id>/...`. */
export class AllocationsApi {
  constructor(private readonly t: Transport) {}

  /** `GET /v1/allocations`: allocation stubs. */
  async list(opts: AllocationListOptions = {}): Promise<Result<AllocationStub[]>> {
    return this.t.get(
      '/v1/allocations',
      AllocStubListSchema,
      prefixListQuery(opts, {
        hexPrefix: true,
        keys: ['resources', 'taskStates'],
        params: {
          resources: opts.resources || undefined,
          // Only the non-default value is sent: the server includes task states unless told not to.
          task_states: opts.taskStates === false ? false : undefined,
        },
      }),
    );
  }

  /** `GET /v1/allocation/<id>`: the full record; the ID must be the full UUID. */
  async read(id: string, opts: ReadOptions = {}): Promise<Result<Allocation>> {
    return this.t.get(`/v1/allocation/${allocId(id)}`, AllocationSchema, opts);
  }

  /** `POST /v1/allocation/<id>/stop`: stops and reschedules the allocation. */
  async stop(id: string, opts: AllocStopOptions = {}): Promise<Result<AllocStopResponse>> {
    const path = `/v1/allocation/${allocId(id)}/stop`;
    return this.t.send(
      'POST',
      path,
      undefined,
      AllocStopResponseSchema,
      withParams(omit(opts, 'noShutdownDelay'), { no_shutdown_delay: opts.noShutdownDelay || undefined }),
    );
  }

  /** `POST /v1/client/allocation/<id>/signal`. */
  async signal(id: string, input: SignalInput, opts: PlainWriteOptions = {}): Promise<Result<void>> {
    const path = `/v1/client/allocation/${allocId(id)}/signal`;
    requireNonEmpty('Signal', input.signal);
    const body = input.task ? { Signal: input.signal, Task: input.task } : { Signal: input.signal };
    return this.t.send('POST', path, body, AckSchema, opts);
  }

  /** `POST /v1/client/allocation/<id>/restart`: in place, one task or all. */
  async restart(id: string, input: RestartInput = {}, opts: PlainWriteOptions = {}): Promise<Result<void>> {
    const path = `/v1/client/allocation/${allocId(id)}/restart`;
    if (input.task && input.allTasks) {
      throw new RequestValidationError('AllTasks', 'cannot be combined with TaskName');
    }
    const body: { TaskName?: string; AllTasks?: boolean } = {};
    if (input.task) body.TaskName = input.task;
    if (input.allTasks) body.AllTasks = true;
    return this.t.send('POST', path, body, AckSchema, opts);
  }

  /** WebSocket `/v1/client/allocation/<id>/exec`: runs a command in a task and streams its I/O. */
  async exec(id: string, opts: ExecOptions): Promise<ExecSession> {
    requireUuid('allocId', id);
    return execAllocation(this.t, id, opts);
  }
}
