import { z } from 'zod';
import type { Transport } from '../transport';
import { type PrefixListOptions, type ReadOptions, type Result } from './options';
import { seg } from './paths';
import {
  AllocationStubSchema,
  EvaluationOutcomeSchema,
  EvaluationSchema,
  type AllocationStub,
  type Evaluation,
  type EvaluationOutcome,
} from './schemas';
import { prefixListQuery } from './list-query';
import { requireNonEmpty } from './validate';

export interface EvaluationListOptions extends PrefixListOptions {
  /** Only evaluations of this job (`job`). */
  job?: string;
  /** Only evaluations in this status (`status`), e.g. `blocked`. */
  status?: string;
}

const EvaluationListSchema = z.array(EvaluationSchema);
const AllocStubListSchema = z.array(AllocationStubSchema);

function evalId(id: string): string {
  requireNonEmpty('evalId', id);
  return seg(id);
}

/** `/v1/evaluations` and `/v1/evaluation/<id>` (as Nomad has them). */
export class EvaluationsApi {
  constructor(private readonly t: Transport) {}

  /** `GET /v1/evaluations`. */
  async list(opts: EvaluationListOptions = {}): Promise<Result<Evaluation[]>> {
    return this.t.get(
      '/v1/evaluations',
      EvaluationListSchema,
      prefixListQuery(opts, {
        hexPrefix: true,
        keys: ['job', 'status'],
        filters: { job: opts.job || undefined, status: opts.status || undefined },
      }),
    );
  }

  /** `GET /v1/evaluation/<id>`. */
  async read(id: string, opts: ReadOptions = {}): Promise<Result<Evaluation>> {
    return this.t.get(`/v1/evaluation/${evalId(id)}`, EvaluationSchema, opts);
  }

  /** {@link read}, decoded only for its outcome and successor (EvaluationOutcomeSchema). */
  async readOutcome(id: string, opts: ReadOptions = {}): Promise<Result<EvaluationOutcome>> {
    return this.t.get(`/v1/evaluation/${evalId(id)}`, EvaluationOutcomeSchema, opts);
  }

  /** `GET /v1/evaluation/<id>/allocations`. */
  async allocations(id: string, opts: ReadOptions = {}): Promise<Result<AllocationStub[]>> {
    return this.t.get(`/v1/evaluation/${evalId(id)}/allocations`, AllocStubListSchema, opts);
  }
}
