import { networkSchema, resourcesSchema, serviceSchema } from './schema-network';
import {
  affinitySchema,
  constraintSchema,
  restartSchema,
  taskScalingSchema,
  vaultSchema,
} from './schema-policies';
import { attr, freeform, many, single, stringMap, type Decoded, type StructSchema } from './schema-types';

const FIVE_SECONDS = 5e9;

const templateSchema: StructSchema = {
  fields: [
    attr('source', 'SourcePath', 'string'),
    attr('destination', 'DestPath', 'string'),
    attr('data', 'EmbeddedTmpl', 'string'),
    attr('change_mode', 'ChangeMode', 'string'),
    attr('change_signal', 'ChangeSignal', 'string'),
    single('change_script', 'ChangeScript', {
      fields: [
        attr('command', 'Command', 'string', true),
        attr('args', 'Args', 'stringList'),
        attr('timeout', 'Timeout', 'duration'),
        attr('fail_on_error', 'FailOnError', 'bool'),
      ],
      post: (out) => {
        out.Args ??= [];
        out.Timeout ??= FIVE_SECONDS;
        out.FailOnError ??= false;
      },
    }),
    attr('once', 'Once', 'bool'),
    attr('splay', 'Splay', 'duration'),
    attr('perms', 'Perms', 'string'),
    attr('uid', 'Uid', 'int'),
    attr('gid', 'Gid', 'int'),
    attr('left_delimiter', 'LeftDelim', 'string'),
    attr('right_delimiter', 'RightDelim', 'string'),
    attr('env', 'Envvars', 'bool'),
    attr('vault_grace', 'VaultGrace', 'duration'),
    single('wait', 'Wait', { fields: [attr('min', 'Min', 'duration'), attr('max', 'Max', 'duration')] }),
    attr('error_on_missing_key', 'ErrMissingKey', 'bool'),
  ],
  // Defaults jobspec2 fills while parsing (normalizeTemplates).
  post: (out) => {
    out.ChangeMode ??= 'restart';
    out.Perms ??= '0644';
    out.Splay ??= FIVE_SECONDS;
    out.ErrMissingKey ??= false;
  },
};

const artifactSchema: StructSchema = {
  fields: [
    attr('source', 'GetterSource', 'string'),
    stringMap('options', 'GetterOptions'),
    stringMap('headers', 'GetterHeaders'),
    attr('mode', 'GetterMode', 'string'),
    attr('insecure', 'GetterInsecure', 'bool'),
    attr('destination', 'RelativeDest', 'string'),
    attr('chown', 'Chown', 'bool'),
  ],
};

const logsSchema: StructSchema = {
  fields: [
    attr('max_files', 'MaxFiles', 'int'),
    attr('max_file_size', 'MaxFileSizeMB', 'int'),
    attr('enabled', 'Enabled', 'bool'),
    attr('disabled', 'Disabled', 'bool'),
  ],
};

const lifecycleSchema: StructSchema = {
  fields: [attr('hook', 'Hook', 'string', true), attr('sidecar', 'Sidecar', 'bool')],
  post: (out) => {
    out.Sidecar ??= false;
  },
};

const volumeMountSchema: StructSchema = {
  fields: [
    attr('volume', 'Volume', 'string'),
    attr('destination', 'Destination', 'string'),
    attr('read_only', 'ReadOnly', 'bool'),
    attr('propagation_mode', 'PropagationMode', 'string'),
    attr('selinux_label', 'SELinuxLabel', 'string'),
  ],
};

const csiPluginSchema: StructSchema = {
  fields: [
    attr('id', 'ID', 'string'),
    attr('type', 'Type', 'string'),
    attr('mount_dir', 'MountDir', 'string'),
    attr('stage_publish_base_dir', 'StagePublishBaseDir', 'string'),
    attr('health_timeout', 'HealthTimeout', 'duration'),
  ],
};

const identitySchema: StructSchema = {
  fields: [
    attr('name', 'Name', 'string'),
    attr('aud', 'Audience', 'stringList'),
    attr('change_mode', 'ChangeMode', 'string'),
    attr('change_signal', 'ChangeSignal', 'string'),
    attr('env', 'Env', 'bool'),
    attr('file', 'File', 'bool'),
    attr('filepath', 'Filepath', 'string'),
    attr('service_name', 'ServiceName', 'string'),
    attr('ttl', 'TTL', 'duration'),
  ],
};

/** Attributes shared by tasks and sidecar tasks. */
const taskCommon = [
  attr('driver', 'Driver', 'string'),
  attr('user', 'User', 'string'),
  freeform('config', 'Config'),
  stringMap('env', 'Env'),
  stringMap('meta', 'Meta'),
  attr('kill_timeout', 'KillTimeout', 'duration'),
  attr('kill_signal', 'KillSignal', 'string'),
  attr('shutdown_delay', 'ShutdownDelay', 'duration'),
  single('resources', 'Resources', resourcesSchema),
  single('logs', 'LogConfig', logsSchema),
];

const sidecarTaskSchema: StructSchema = {
  fields: [attr('name', 'Name', 'string'), ...taskCommon],
};

export const groupServiceSchema = serviceSchema(sidecarTaskSchema);

export const taskSchema: StructSchema = {
  labels: ['Name'],
  fields: [
    ...taskCommon,
    attr('leader', 'Leader', 'bool'),
    attr('kind', 'Kind', 'string'),
    many('template', 'Templates', templateSchema),
    many('artifact', 'Artifacts', artifactSchema),
    single('dispatch_payload', 'DispatchPayload', { fields: [attr('file', 'File', 'string')] }),
    single('lifecycle', 'Lifecycle', lifecycleSchema),
    single('restart', 'RestartPolicy', restartSchema),
    many('constraint', 'Constraints', constraintSchema),
    many('affinity', 'Affinities', affinitySchema),
    many('service', 'Services', groupServiceSchema),
    many('volume_mount', 'VolumeMounts', volumeMountSchema),
    single('csi_plugin', 'CSIPluginConfig', csiPluginSchema),
    many('scaling', 'ScalingPolicies', taskScalingSchema),
    many('identity', 'Identities', identitySchema),
    single('vault', 'Secrets', vaultSchema),
  ],
};

/** Group-level `network` blocks use the same schema as task resources. */
export { networkSchema };

/** Sets `Secrets` on tasks that have none, as a group or job `vault` block is inherited. */
export function inheritSecrets(tasks: Decoded[] | undefined, secrets: unknown): void {
  if (secrets === undefined) return;
  for (const t of tasks ?? []) t.Secrets ??= structuredClone(secrets);
}
