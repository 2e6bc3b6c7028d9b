/**
 * The scheduler provider: its configuration (address, token, TLS, ... with SCHED_* or NOMAD_*
 * environment fallbacks) and, once configured, one client shared by every handler.
 */
import { SchedClient } from '../../api/sched/client';
import type { Config, Provider, ProviderFactory } from '../resource';
import { connectionShape, resolveConnection, validateConnection } from '../common/connection';
import { redactor } from '../common/errors';
import { knownString } from '../common/shape';
import { schedAllocationsDataShape } from '../data/sched-allocations';
import { schedDeploymentDataShape } from '../data/sched-deployment';
import { schedJobDataShape } from '../data/sched-job';
import type { SchedProviderContext } from './context';
import { schedHandlers } from './handlers';
import { JOB_DESCRIPTION } from './job';
import { jobShape } from './job/schema';
import { NAMESPACE_DESCRIPTION, namespaceShape } from './namespace';

export const schedProviderShape = connectionShape('scheduler');

export const schedProvider: ProviderFactory = {
  name: 'sched',
  shape: schedProviderShape,
  validate(config: Config) {
    return validateConnection('scheduler', config);
  },
  configure(config: Config, env = process.env): Provider {
    const conn = resolveConnection('scheduler', config, env);
    const client = new SchedClient(conn.transport);
    const ctx: SchedProviderContext = {
      client,
      defaults: { namespace: conn.namespace, region: conn.region },
      redact: redactor([conn.token, knownString(config['key_pem'])]),
    };
    return { name: 'sched', ...schedHandlers(ctx), close: () => client.close() };
  },
  resourceShapes: {
    sched_job: { description: JOB_DESCRIPTION, shape: jobShape, version: 0 },
    sched_namespace: { description: NAMESPACE_DESCRIPTION, shape: namespaceShape, version: 0 },
  },
  dataSourceShapes: {
    sched_job: {
      description: 'Reads a job, its latest deployment and its allocations.',
      shape: schedJobDataShape,
    },
    sched_allocations: {
      description: 'Lists allocations, optionally filtered.',
      shape: schedAllocationsDataShape,
    },
    sched_deployment: {
      description: 'Reads a deployment, by ID or as the latest of a job.',
      shape: schedDeploymentDataShape,
    },
  },
};
