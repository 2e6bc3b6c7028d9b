/** Plans for the renderer tests. SECRET must never appear in any rendering. */
import { UNKNOWN } from '../../../../src/provider/values';
import type { PlanModel, ResourceChange } from '../../../../src/engine/render/model';
import { StateFile } from '../../../../src/engine/state/state-file';

export const SECRET = 'hunter2-Sup3r-Secret';
export const SECRET_2 = 's.0ld-vault-token-xyz';

const webJobBefore = {
  ID: 'web',
  Name: 'web',
  Type: 'service',
  Datacenters: ['dc1'],
  Meta: { owner: 'team-a' },
  TaskGroups: [
    {
      Name: 'web',
      Count: 2,
      Tasks: [
        {
          Name: 'server',
          Driver: 'docker',
          Config: { image: 'nginx:1.25', ports: ['http'] },
          Env: { LOG_LEVEL: 'info' },
          Resources: { CPU: 100, MemoryMB: 128 },
        },
      ],
    },
  ],
};

const webJobAfter = {
  ...webJobBefore,
  Meta: { owner: 'team-a', release: '42' },
  TaskGroups: [
    {
      Name: 'web',
      Count: 3,
      Tasks: [
        {
          Name: 'server',
          Driver: 'docker',
          Config: { image: 'nginx:1.27', ports: ['http'] },
          Env: { LOG_LEVEL: 'info', API_TOKEN: SECRET },
          Resources: { CPU: 100, MemoryMB: 256 },
        },
      ],
    },
  ],
};

export const webUpdate: ResourceChange = {
  address: 'sched_job.web',
  mode: 'managed',
  type: 'sched_job',
  name: 'web',
  providerName: 'registry.terraform.io/cdktf-sched/sched',
  constructPath: 'app/web',
  action: 'update',
  before: {
    id: 'web',
    name: 'web',
    namespace: 'default',
    jobspec: JSON.stringify(webJobBefore),
    detach: false,
    vault_token: SECRET_2,
    modify_index: 10,
    datacenters: ['dc1', 'dc2', 'dc3'],
  },
  after: {
    id: 'web',
    name: 'web',
    namespace: 'default',
    jobspec: JSON.stringify(webJobAfter),
    detach: false,
    vault_token: SECRET,
    modify_index: UNKNOWN,
    datacenters: ['dc1', 'dc3', 'dc4'],
  },
  afterUnknown: [['modify_index']],
  beforeSensitive: [['vault_token']],
  afterSensitive: [['vault_token']],
  replacePaths: [],
  scheduler: {
    desiredTGUpdates: { web: { Place: 3, DestructiveUpdate: 2, Canary: 1, Stop: 1, Ignore: 0 } },
    failedTGAllocs: {
      web: {
        NodesEvaluated: 3,
        NodesFiltered: 0,
        NodesExhausted: 3,
        DimensionExhausted: { memory: 3 },
        CoalescedFailures: 1,
      },
    },
    jobDiff: {
      Type: 'Edited',
      ID: 'web',
      TaskGroups: [
        {
          Type: 'Edited',
          Name: 'web',
          Fields: [{ Type: 'Edited', Name: 'Count', Old: '2', New: '3', Annotations: null }],
          Tasks: [
            {
              Type: 'Edited',
              Name: 'server',
              Annotations: ['forces create/destroy update'],
              Objects: [
                {
                  Type: 'Edited',
                  Name: 'Env',
                  Fields: [{ Type: 'Added', Name: 'API_TOKEN', Old: '', New: SECRET, Annotations: null }],
                },
              ],
            },
          ],
        },
      ],
    },
    jobModifyIndex: 10,
  },
  diagnostics: [{ severity: 'warning', summary: 'Group "web" has no update stanza', path: ['jobspec'] }],
};

export const apiCreate: ResourceChange = {
  address: 'sched_job.api["eu"]',
  mode: 'managed',
  type: 'sched_job',
  name: 'api',
  index: 'eu',
  providerName: 'registry.terraform.io/cdktf-sched/sched',
  constructPath: 'app/api',
  action: 'create',
  before: null,
  after: {
    id: UNKNOWN,
    name: 'api',
    namespace: 'default',
    jobspec: JSON.stringify({ ID: 'api', TaskGroups: [{ Name: 'api', Count: 3 }] }),
    vault_token: SECRET,
    description: null,
    script: 'line one\nline two\n',
  },
  afterUnknown: [['id']],
  beforeSensitive: [],
  afterSensitive: [['vault_token']],
  replacePaths: [],
  scheduler: {
    desiredTGUpdates: { api: { Place: 3 } },
    failedTGAllocs: null,
    jobDiff: null,
    jobModifyIndex: 0,
  },
  diagnostics: [],
};

export const teamReplace: ResourceChange = {
  address: 'reg_namespace.team',
  mode: 'managed',
  type: 'reg_namespace',
  name: 'team',
  providerName: 'registry.terraform.io/cdktf-sched/reg',
  constructPath: 'app/team',
  action: 'replace',
  actionReason: 'replace_because_cannot_update',
  before: { id: 'team-a', name: 'team-a', description: 'Team A', meta: { cost: '1', tier: 'gold' } },
  after: { id: UNKNOWN, name: 'team-b', description: 'Team A', meta: { cost: '2', tier: 'gold' } },
  afterUnknown: [['id']],
  beforeSensitive: [],
  afterSensitive: [],
  replacePaths: [['name']],
  diagnostics: [],
};

export const oldDelete: ResourceChange = {
  address: 'sched_namespace.old',
  mode: 'managed',
  type: 'sched_namespace',
  name: 'old',
  providerName: 'registry.terraform.io/cdktf-sched/sched',
  action: 'delete',
  actionReason: 'delete_because_no_resource_config',
  before: { id: 'old', name: 'old', description: 'legacy', quota: null },
  after: null,
  afterUnknown: [],
  beforeSensitive: [],
  afterSensitive: [],
  replacePaths: [],
  diagnostics: [],
};

export const allocsRead: ResourceChange = {
  address: 'data.sched_allocations.all',
  mode: 'data',
  type: 'sched_allocations',
  name: 'all',
  providerName: 'registry.terraform.io/cdktf-sched/sched',
  action: 'read',
  actionReason: 'read_because_config_unknown',
  before: null,
  after: { job_id: UNKNOWN, allocations: UNKNOWN },
  afterUnknown: [['job_id'], ['allocations']],
  beforeSensitive: [],
  afterSensitive: [],
  replacePaths: [],
  diagnostics: [],
};

export const sameNoop: ResourceChange = {
  address: 'sched_job.same',
  mode: 'managed',
  type: 'sched_job',
  name: 'same',
  providerName: 'registry.terraform.io/cdktf-sched/sched',
  action: 'noop',
  before: { id: 'same', name: 'same' },
  after: { id: 'same', name: 'same' },
  afterUnknown: [],
  beforeSensitive: [],
  afterSensitive: [],
  replacePaths: [],
  diagnostics: [],
};

export function fullPlan(): PlanModel {
  return {
    terraformVersion: '1.5.0',
    resourceChanges: [allocsRead, teamReplace, apiCreate, sameNoop, webUpdate, oldDelete],
    outputChanges: [
      { name: 'url', action: 'create', before: null, after: null, afterUnknown: true, sensitive: false },
      {
        name: 'token',
        action: 'update',
        before: SECRET_2,
        after: SECRET,
        afterUnknown: false,
        sensitive: true,
      },
      { name: 'legacy', action: 'delete', before: 'x', after: null, afterUnknown: false, sensitive: false },
      { name: 'same', action: 'noop', before: 1, after: 1, afterUnknown: false, sensitive: false },
    ],
    diagnostics: [
      { severity: 'warning', summary: 'Provider sched: SCHED_TOKEN not set, using anonymous access' },
    ],
  };
}

/** The state the full plan was made against (for prior_state). */
export function priorState(): StateFile {
  const s = StateFile.empty({ lineage: '0b5c7f0e-8d0a-4a57-9d55-7b0f2ad1c0de' });
  s.serial = 4;
  s.set('sched_job.web', {
    schemaVersion: 0,
    attributes: { ...webUpdate.before, modify_index: 10 },
    sensitiveAttributes: [['vault_token']],
  });
  s.set('reg_namespace.team', { schemaVersion: 1, attributes: teamReplace.before! });
  s.set('sched_namespace.old', { schemaVersion: 0, attributes: oldDelete.before! });
  s.setOutput('token', SECRET_2, { sensitive: true });
  s.setOutput('legacy', 'x');
  return s;
}
