import { JobspecError } from './errors';
import {
  attr,
  freeform,
  many,
  single,
  stringMap,
  take,
  type Decoded,
  type StructSchema,
} from './schema-types';

/*
 * Placement and lifecycle policy blocks shared by jobs, groups and tasks. Attribute names follow
 * the hcl tags of Nomad's api structs; field names follow the JSON API.
 */

/** Shorthand attributes that set the operand and the right-hand target at once. */
const RTARGET_SHORTHANDS = [
  'version',
  'semver',
  'regexp',
  'set_contains',
  'set_contains_all',
  'set_contains_any',
];

function placementFields(): StructSchema['fields'] {
  return [
    attr('attribute', 'LTarget', 'string'),
    attr('operator', 'Operand', 'string'),
    attr('value', 'RTarget', 'string'),
    ...RTARGET_SHORTHANDS.map((s) => attr(s, `_${s}`, 'string')),
  ];
}

function applyShorthands(out: Decoded): void {
  out.LTarget ??= '';
  out.RTarget ??= '';
  out.Operand ??= '';
  for (const s of RTARGET_SHORTHANDS) {
    const v = take(out, `_${s}`);
    if (typeof v === 'string' && v !== '') {
      out.Operand = s;
      out.RTarget = v;
    }
  }
}

export const constraintSchema: StructSchema = {
  fields: [
    ...placementFields(),
    attr('distinct_hosts', '_distinct_hosts', 'bool'),
    attr('distinct_property', '_distinct_property', 'string'),
  ],
  post: (out) => {
    applyShorthands(out);
    if (take(out, '_distinct_hosts') === true) out.Operand = 'distinct_hosts';
    const prop = take(out, '_distinct_property');
    if (typeof prop === 'string' && prop !== '') {
      out.Operand = 'distinct_property';
      out.LTarget = prop;
    }
    if (out.Operand === '') out.Operand = '=';
  },
};

export const affinitySchema: StructSchema = {
  fields: [...placementFields(), attr('weight', 'Weight', 'int')],
  post: (out) => {
    applyShorthands(out);
    if (out.Operand === '') out.Operand = '=';
  },
};

export const spreadSchema: StructSchema = {
  fields: [
    attr('attribute', 'Attribute', 'string'),
    attr('weight', 'Weight', 'int'),
    many('target', 'SpreadTarget', { labels: ['Value'], fields: [attr('percent', 'Percent', 'int')] }),
  ],
};

export const restartSchema: StructSchema = {
  fields: [
    attr('attempts', 'Attempts', 'int'),
    attr('interval', 'Interval', 'duration'),
    attr('delay', 'Delay', 'duration'),
    attr('mode', 'Mode', 'string'),
    attr('render_templates', 'RenderTemplates', 'bool'),
  ],
};

export const rescheduleSchema: StructSchema = {
  fields: [
    attr('attempts', 'Attempts', 'int'),
    attr('interval', 'Interval', 'duration'),
    attr('delay', 'Delay', 'duration'),
    attr('delay_function', 'DelayFunction', 'string'),
    attr('max_delay', 'MaxDelay', 'duration'),
    attr('unlimited', 'Unlimited', 'bool'),
  ],
};

export const migrateSchema: StructSchema = {
  fields: [
    attr('max_parallel', 'MaxParallel', 'int'),
    attr('health_check', 'HealthCheck', 'string'),
    attr('min_healthy_time', 'MinHealthyTime', 'duration'),
    attr('healthy_deadline', 'HealthyDeadline', 'duration'),
  ],
};

export const updateSchema: StructSchema = {
  fields: [
    attr('stagger', 'Stagger', 'duration'),
    attr('max_parallel', 'MaxParallel', 'int'),
    attr('health_check', 'HealthCheck', 'string'),
    attr('min_healthy_time', 'MinHealthyTime', 'duration'),
    attr('healthy_deadline', 'HealthyDeadline', 'duration'),
    attr('progress_deadline', 'ProgressDeadline', 'duration'),
    attr('canary', 'Canary', 'int'),
    attr('auto_revert', 'AutoRevert', 'bool'),
    attr('auto_promote', 'AutoPromote', 'bool'),
  ],
};

export const ephemeralDiskSchema: StructSchema = {
  fields: [
    attr('sticky', 'Sticky', 'bool'),
    attr('migrate', 'Migrate', 'bool'),
    attr('size', 'SizeMB', 'int'),
  ],
};

export const disconnectSchema: StructSchema = {
  fields: [
    attr('lost_after', 'LostAfter', 'duration'),
    attr('stop_on_client_after', 'StopOnClientAfter', 'duration'),
    attr('replace', 'Replace', 'bool'),
    attr('reconcile', 'Reconcile', 'string'),
  ],
};

export const groupScalingSchema: StructSchema = {
  fields: [
    attr('min', 'Min', 'int'),
    attr('max', 'Max', 'int'),
    attr('enabled', 'Enabled', 'bool'),
    attr('type', 'Type', 'string'),
    freeform('policy', 'Policy'),
  ],
  post: (out) => {
    out.Type ??= 'horizontal';
  },
};

/** `scaling "cpu"` / `scaling "mem"` inside a task: vertical policies named by their label. */
export const taskScalingSchema: StructSchema = {
  labels: ['_label'],
  fields: groupScalingSchema.fields,
  post: (out, { block }) => {
    const label = String(take(out, '_label')).toLowerCase();
    const range = block?.labelRanges[0];
    const want = label === 'cpu' ? 'vertical_cpu' : label === 'mem' ? 'vertical_mem' : undefined;
    if (!want)
      throw new JobspecError(
        'Invalid scaling policy name',
        'scaling policy name must be "cpu" or "mem"',
        range,
      );
    if (out.Type !== undefined && out.Type !== want) {
      throw new JobspecError(
        'Invalid scaling policy type',
        `Invalid policy type, expected "${want}" but found "${String(out.Type)}"`,
        block?.defRange,
      );
    }
    out.Type = want;
  },
};

/** Nomad's `vault` block; the API calls it `Secrets`. */
export const vaultSchema: StructSchema = {
  fields: [
    attr('policies', 'Policies', 'stringList'),
    attr('role', 'Role', 'string'),
    attr('namespace', 'Namespace', 'string'),
    attr('cluster', 'Cluster', 'string'),
    attr('env', 'Env', 'bool'),
    attr('disable_file', 'DisableFile', 'bool'),
    attr('change_mode', 'ChangeMode', 'string'),
    attr('change_signal', 'ChangeSignal', 'string'),
    attr('allow_token_expiration', 'AllowTokenExpiration', 'bool'),
  ],
  post: (out) => {
    out.Env ??= true;
    out.ChangeMode ??= 'restart';
  },
};

export const multiregionSchema: StructSchema = {
  fields: [
    single('strategy', 'Strategy', {
      fields: [attr('max_parallel', 'MaxParallel', 'int'), attr('on_failure', 'OnFailure', 'string')],
    }),
    many('region', 'Regions', {
      labels: ['Name'],
      fields: [
        attr('count', 'Count', 'int'),
        attr('datacenters', 'Datacenters', 'stringList'),
        attr('node_pool', 'NodePool', 'string'),
        stringMap('meta', 'Meta'),
      ],
    }),
  ],
};

export const periodicSchema: StructSchema = {
  fields: [
    attr('enabled', 'Enabled', 'bool'),
    attr('cron', 'Spec', 'string'),
    attr('crons', 'Specs', 'stringList'),
    attr('prohibit_overlap', 'ProhibitOverlap', 'bool'),
    attr('time_zone', 'TimeZone', 'string'),
  ],
  post: (out) => {
    if (out.Spec !== undefined) out.SpecType = 'cron';
  },
};

export const parameterizedSchema: StructSchema = {
  fields: [
    attr('payload', 'Payload', 'string'),
    attr('meta_required', 'MetaRequired', 'stringList'),
    attr('meta_optional', 'MetaOptional', 'stringList'),
  ],
};
