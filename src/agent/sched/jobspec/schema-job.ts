import {
  affinitySchema,
  constraintSchema,
  disconnectSchema,
  ephemeralDiskSchema,
  groupScalingSchema,
  migrateSchema,
  multiregionSchema,
  parameterizedSchema,
  periodicSchema,
  rescheduleSchema,
  restartSchema,
  spreadSchema,
  updateSchema,
  vaultSchema,
} from './schema-policies';
import { groupServiceSchema, inheritSecrets, networkSchema, taskSchema } from './schema-task';
import { attr, keyed, many, single, stringMap, take, type Decoded, type StructSchema } from './schema-types';

const volumeSchema: StructSchema = {
  labels: ['Name'],
  fields: [
    attr('type', 'Type', 'string'),
    attr('source', 'Source', 'string'),
    attr('read_only', 'ReadOnly', 'bool'),
    attr('sticky', 'Sticky', 'bool'),
    attr('access_mode', 'AccessMode', 'string'),
    attr('attachment_mode', 'AttachmentMode', 'string'),
    attr('per_alloc', 'PerAlloc', 'bool'),
    single('mount_options', 'MountOptions', {
      fields: [attr('fs_type', 'FSType', 'string'), attr('mount_flags', 'MountFlags', 'stringList')],
    }),
  ],
};

export const groupSchema: StructSchema = {
  labels: ['Name'],
  fields: [
    attr('count', 'Count', 'int'),
    many('constraint', 'Constraints', constraintSchema),
    many('affinity', 'Affinities', affinitySchema),
    many('spread', 'Spreads', spreadSchema),
    many('task', 'Tasks', taskSchema),
    keyed('volume', 'Volumes', volumeSchema),
    single('restart', 'RestartPolicy', restartSchema),
    single('disconnect', 'Disconnect', disconnectSchema),
    single('reschedule', 'ReschedulePolicy', rescheduleSchema),
    single('ephemeral_disk', 'EphemeralDisk', ephemeralDiskSchema),
    single('update', 'Update', updateSchema),
    single('migrate', 'Migrate', migrateSchema),
    many('network', 'Networks', networkSchema),
    stringMap('meta', 'Meta'),
    many('service', 'Services', groupServiceSchema),
    attr('shutdown_delay', 'ShutdownDelay', 'duration'),
    attr('stop_after_client_disconnect', 'StopAfterClientDisconnect', 'duration'),
    attr('max_client_disconnect', 'MaxClientDisconnect', 'duration'),
    attr('prevent_reschedule_on_lost', 'PreventRescheduleOnLost', 'bool'),
    single('scaling', 'Scaling', groupScalingSchema),
    single('vault', '_vault', vaultSchema),
  ],
  post: (out) => {
    inheritSecrets(out.Tasks as Decoded[] | undefined, take(out, '_vault'));
  },
};

export const jobSchema: StructSchema = {
  labels: ['_label'],
  fields: [
    attr('region', 'Region', 'string'),
    attr('namespace', 'Namespace', 'string'),
    attr('id', 'ID', 'string'),
    attr('name', 'Name', 'string'),
    attr('type', 'Type', 'string'),
    attr('priority', 'Priority', 'int'),
    attr('all_at_once', 'AllAtOnce', 'bool'),
    attr('datacenters', 'Datacenters', 'stringList'),
    attr('node_pool', 'NodePool', 'string'),
    attr('vault_token', 'SecretsToken', 'string'),
    attr('consul_token', 'RegistryToken', 'string'),
    many('constraint', 'Constraints', constraintSchema),
    many('affinity', 'Affinities', affinitySchema),
    many('spread', 'Spreads', spreadSchema),
    many('group', 'TaskGroups', groupSchema),
    many('task', '_tasks', taskSchema),
    single('update', 'Update', updateSchema),
    single('multiregion', 'Multiregion', multiregionSchema),
    single('periodic', 'Periodic', periodicSchema),
    single('parameterized', 'ParameterizedJob', parameterizedSchema),
    single('reschedule', 'Reschedule', rescheduleSchema),
    single('migrate', 'Migrate', migrateSchema),
    stringMap('meta', 'Meta'),
    single('vault', '_vault', vaultSchema),
  ],
  // normalizeJob: the label is the ID and default name; a task outside any group gets its own group.
  post: (out) => {
    const label = take(out, '_label') as string;
    out.ID ??= label;
    out.Name ??= label;
    const loose = (take(out, '_tasks') ?? []) as Decoded[];
    if (loose.length) {
      const alone = loose.map((t) => ({ Name: t.Name, Tasks: [t] }));
      out.TaskGroups = [...alone, ...((out.TaskGroups ?? []) as Decoded[])];
    }
    const vault = take(out, '_vault');
    for (const g of (out.TaskGroups ?? []) as Decoded[])
      inheritSecrets(g.Tasks as Decoded[] | undefined, vault);
  },
};
