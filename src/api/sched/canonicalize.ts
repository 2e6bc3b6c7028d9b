import { copyJson } from '../json-copy';
import type { Job } from './schemas';
import { dropServerOwned } from './server-owned';

/*
 * Job canonicalization, after Nomad's api package (Job.Canonicalize and the Canonicalize methods of
 * the structs under it): fills defaults, merges job-level update/reschedule/migrate policies into
 * groups and group restart policies into tasks. On top of that it makes the form unique, so two
 * jobs that mean the same thing compare deep-equal:
 *  - value fields of Nomad's Go structs (strings, numbers, bools that Go always sends) get their
 *    zero value when missing;
 *  - known pointer fields that are missing become null, and empty lists and maps become null
 *    (Go sends nil for both), except where Nomad itself fills an empty value;
 *  - defaults the server applies on registration are applied too (Datacenters ["*"], NodePool
 *    "default"), so a job read back compares equal to the canonical submitted one;
 *  - object keys are sorted, so the JSON text is deterministic.
 * The function is pure and idempotent: canonicalizeJob(canonicalizeJob(j)) deep-equals
 * canonicalizeJob(j).
 */

type Rec = Record<string, unknown>;

const SECOND = 1e9;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const missing = (v: unknown): boolean => v === undefined || v === null;

/** Sets value fields (Go non-pointer fields) and pointer defaults that are missing. */
function fill(o: Rec, defaults: Rec): void {
  for (const [k, v] of Object.entries(defaults)) if (missing(o[k])) o[k] = copyJson(v);
}

/** Known pointer fields: missing becomes null. */
function nullable(o: Rec, keys: string[]): void {
  for (const k of keys) if (o[k] === undefined) o[k] = null;
}

/** Lists Go sends as null when empty. */
function listOrNull(o: Rec, keys: string[]): void {
  for (const k of keys) {
    const v = o[k];
    if (missing(v) || (Array.isArray(v) && v.length === 0)) o[k] = null;
  }
}

/** Maps Go sends as null when empty. */
function mapOrNull(o: Rec, keys: string[]): void {
  for (const k of keys) {
    const v = o[k];
    if (missing(v) || (isRec(v) && Object.keys(v).length === 0)) o[k] = null;
  }
}

function recs(o: Rec, key: string): Rec[] {
  const v = o[key];
  return Array.isArray(v) ? v.filter(isRec) : [];
}

function rec(o: Rec, key: string): Rec | undefined {
  const v = o[key];
  return isRec(v) ? v : undefined;
}

/** Copies the set fields of `over` onto a copy of `base` (the Merge methods of Nomad's structs). */
function merged(base: Rec, over: Rec | undefined): Rec {
  const out = copyJson(base);
  if (over) for (const [k, v] of Object.entries(over)) if (!missing(v)) out[k] = copyJson(v);
  return out;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isRec(v)) return v;
  const out: Rec = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

const UPDATE_DEFAULTS: Rec = {
  Stagger: 30 * SECOND,
  MaxParallel: 1,
  HealthCheck: 'checks',
  MinHealthyTime: 10 * SECOND,
  HealthyDeadline: 5 * MINUTE,
  ProgressDeadline: 10 * MINUTE,
  AutoRevert: false,
  Canary: 0,
  AutoPromote: false,
};

const MIGRATE_DEFAULTS: Rec = {
  MaxParallel: 1,
  HealthCheck: 'checks',
  MinHealthyTime: 10 * SECOND,
  HealthyDeadline: 5 * MINUTE,
};

function restartDefaults(jobType: string): Rec {
  const service = jobType === 'service' || jobType === 'system';
  return {
    Delay: 15 * SECOND,
    Attempts: service ? 2 : 3,
    Interval: service ? 30 * MINUTE : 24 * HOUR,
    Mode: 'fail',
    RenderTemplates: false,
  };
}

function rescheduleDefaults(jobType: string): Rec {
  if (jobType === 'service') {
    return {
      Delay: 30 * SECOND,
      DelayFunction: 'exponential',
      MaxDelay: HOUR,
      Unlimited: true,
      Attempts: 0,
      Interval: 0,
    };
  }
  if (jobType === 'batch') {
    return {
      Attempts: 1,
      Interval: 24 * HOUR,
      Delay: 5 * SECOND,
      DelayFunction: 'constant',
      MaxDelay: 0,
      Unlimited: false,
    };
  }
  return { Attempts: 0, Interval: 0, Delay: 0, DelayFunction: '', MaxDelay: 0, Unlimited: false };
}

/** UpdateStrategy.Empty: every field unset or zero. */
function updateIsEmpty(u: Rec): boolean {
  return Object.keys(UPDATE_DEFAULTS).every((k) => {
    const v = u[k];
    return missing(v) || v === 0 || v === '' || v === false;
  });
}

function canonicalizeConstraints(o: Rec, key: string): void {
  for (const c of recs(o, key)) fill(c, { LTarget: '', RTarget: '', Operand: '' });
  listOrNull(o, [key]);
}

function canonicalizeAffinities(o: Rec, key: string): void {
  for (const a of recs(o, key)) fill(a, { LTarget: '', RTarget: '', Operand: '', Weight: 50 });
  listOrNull(o, [key]);
}

function canonicalizeSpreads(o: Rec): void {
  for (const s of recs(o, 'Spreads')) {
    fill(s, { Attribute: '', Weight: 50 });
    for (const t of recs(s, 'SpreadTarget')) fill(t, { Value: '', Percent: 0 });
    listOrNull(s, ['SpreadTarget']);
  }
  listOrNull(o, ['Spreads']);
}

function canonicalizePorts(n: Rec, key: string): void {
  for (const p of recs(n, key)) fill(p, { Label: '', Value: 0, To: 0, HostNetwork: '' });
  listOrNull(n, [key]);
}

function canonicalizeNetworks(o: Rec): void {
  for (const n of recs(o, 'Networks')) {
    fill(n, { Mode: '', Device: '', CIDR: '', IP: '', Hostname: '' });
    nullable(n, ['MBits', 'DNS']);
    canonicalizePorts(n, 'ReservedPorts');
    canonicalizePorts(n, 'DynamicPorts');
  }
  listOrNull(o, ['Networks']);
}

function canonicalizeResources(t: Rec): void {
  const r = rec(t, 'Resources') ?? {};
  t.Resources = r;
  // CPU defaults only when neither CPU nor Cores was asked for; with Cores, CPU is 0.
  if (missing(r.Cores)) {
    r.Cores = 0;
    if (missing(r.CPU)) r.CPU = 100;
  }
  fill(r, { CPU: 0, MemoryMB: 300 });
  nullable(r, ['MemoryMaxMB', 'DiskMB', 'IOPS']);
  canonicalizeNetworks(r);
  for (const d of recs(r, 'Devices')) {
    fill(d, { Name: '', Count: 1 });
    canonicalizeConstraints(d, 'Constraints');
    canonicalizeAffinities(d, 'Affinities');
  }
  listOrNull(r, ['Devices']);
}

function canonicalizeCheckRestart(c: Rec | undefined): Rec | null {
  if (!c) return null;
  fill(c, { Limit: 0, Grace: SECOND, IgnoreWarnings: false });
  return c;
}

/** CheckRestart.Merge: the check's own settings win over the service's where set. */
function mergeCheckRestart(service: Rec | undefined, check: Rec | undefined): Rec | undefined {
  if (!service) return check ? copyJson(check) : undefined;
  const out = copyJson(service);
  if (!check) return out;
  if (typeof check.Limit === 'number' && check.Limit > 0) out.Limit = check.Limit;
  if (!missing(check.Grace)) out.Grace = check.Grace;
  if (check.IgnoreWarnings === true) out.IgnoreWarnings = true;
  return out;
}

function canonicalizeServices(o: Rec, job: Rec, group: Rec, task: Rec | undefined): void {
  for (const s of recs(o, 'Services')) {
    if (missing(s.Name) || s.Name === '') {
      s.Name = task
        ? `${String(job.Name)}-${String(group.Name)}-${String(task.Name)}`
        : `${String(job.Name)}-${String(group.Name)}`;
    }
    fill(s, {
      PortLabel: '',
      EnableTagOverride: false,
      AddressMode: 'auto',
      Address: '',
      TaskName: '',
      OnUpdate: 'require_healthy',
      // Nomad's default provider is Consul, the registry in this project's neutral names.
      Provider: 'registry',
      Cluster: 'default',
      Kind: '',
    });
    listOrNull(s, ['Tags', 'CanaryTags']);
    mapOrNull(s, ['Meta', 'CanaryMeta', 'TaggedAddresses']);
    nullable(s, ['CheckRestart', 'Connect', 'Identity', 'Weights']);
    const weights = rec(s, 'Weights');
    if (weights) {
      if (!(typeof weights.Passing === 'number' && weights.Passing > 0)) weights.Passing = 1;
      if (!(typeof weights.Warning === 'number' && weights.Warning > 0)) weights.Warning = 1;
    }
    for (const c of recs(s, 'Checks')) {
      c.CheckRestart = canonicalizeCheckRestart(
        mergeCheckRestart(rec(s, 'CheckRestart'), rec(c, 'CheckRestart')),
      );
      fill(c, {
        Name: '',
        Type: '',
        Command: '',
        Path: '',
        Protocol: '',
        PortLabel: '',
        Expose: false,
        AddressMode: '',
        Advertise: '',
        Interval: 0,
        Timeout: 0,
        InitialStatus: '',
        Notes: '',
        TLSServerName: '',
        TLSSkipVerify: false,
        Method: '',
        GRPCService: '',
        GRPCUseTLS: false,
        TaskName: '',
        SuccessBeforePassing: 0,
        FailuresBeforeCritical: 0,
        FailuresBeforeWarning: 0,
        Body: '',
        OnUpdate: s.OnUpdate,
      });
      for (const k of ['SuccessBeforePassing', 'FailuresBeforeCritical', 'FailuresBeforeWarning']) {
        if ((c[k] as number) < 0) c[k] = 0;
      }
      listOrNull(c, ['Args']);
      mapOrNull(c, ['Header']);
    }
    listOrNull(s, ['Checks']);
  }
  listOrNull(o, ['Services']);
}

function canonicalizeTemplate(t: Rec): void {
  fill(t, { SourcePath: '', DestPath: '', EmbeddedTmpl: '', ChangeMode: 'restart' });
  if (missing(t.ChangeSignal)) t.ChangeSignal = t.ChangeMode === 'signal' ? 'SIGHUP' : '';
  else t.ChangeSignal = String(t.ChangeSignal).toUpperCase();
  const script = rec(t, 'ChangeScript');
  if (script) fill(script, { Command: '', Args: [], Timeout: 5 * SECOND, FailOnError: false });
  fill(t, {
    Once: false,
    Splay: 5 * SECOND,
    Perms: '0644',
    LeftDelim: '{{',
    RightDelim: '}}',
    Envvars: false,
    ErrMissingKey: false,
    VaultGrace: 0,
  });
  nullable(t, ['ChangeScript', 'Uid', 'Gid', 'Wait']);
}

function canonicalizeArtifact(a: Rec): void {
  fill(a, { GetterMode: 'any', GetterInsecure: false, GetterSource: '', Chown: false });
  mapOrNull(a, ['GetterOptions', 'GetterHeaders']);
  if (missing(a.RelativeDest)) {
    if (a.GetterMode === 'file') {
      const src = String(a.GetterSource).replace(/\/+$/, '');
      a.RelativeDest = `local/${src.slice(src.lastIndexOf('/') + 1) || '.'}`;
    } else {
      a.RelativeDest = 'local/';
    }
  }
}

function canonicalizeTask(t: Rec, group: Rec, job: Rec): void {
  fill(t, {
    Name: '',
    Driver: '',
    User: '',
    Leader: false,
    ShutdownDelay: 0,
    KillSignal: '',
    Kind: '',
    KillTimeout: 5 * SECOND,
  });
  canonicalizeResources(t);
  const logs = rec(t, 'LogConfig') ?? {};
  t.LogConfig = logs;
  fill(logs, { MaxFiles: 10, MaxFileSizeMB: 10, Disabled: false });
  nullable(logs, ['Enabled']);
  for (const a of recs(t, 'Artifacts')) canonicalizeArtifact(a);
  const secrets = rec(t, 'Secrets');
  if (secrets) {
    fill(secrets, {
      Role: '',
      Env: true,
      DisableFile: false,
      Namespace: '',
      Cluster: 'default',
      ChangeMode: 'restart',
      ChangeSignal: 'SIGHUP',
      AllowTokenExpiration: false,
    });
    listOrNull(secrets, ['Policies']);
  }
  for (const tmpl of recs(t, 'Templates')) canonicalizeTemplate(tmpl);
  // Nomad 1.11's secret blocks (its task `Secrets` list; `SecretBlocks` in neutral names).
  for (const s of recs(t, 'SecretBlocks')) {
    fill(s, { Name: '', Provider: '', Path: '' });
    mapOrNull(s, ['Config', 'Env']);
  }
  canonicalizeServices(t, job, group, t);
  canonicalizeConstraints(t, 'Constraints');
  canonicalizeAffinities(t, 'Affinities');
  for (const vm of recs(t, 'VolumeMounts')) {
    fill(vm, { PropagationMode: 'private', ReadOnly: false, SELinuxLabel: '' });
    nullable(vm, ['Volume', 'Destination']);
  }
  const lifecycle = rec(t, 'Lifecycle');
  if (lifecycle) fill(lifecycle, { Hook: '', Sidecar: false });
  const csi = rec(t, 'CSIPluginConfig');
  if (csi) {
    fill(csi, { ID: '', Type: '', HealthTimeout: 30 * SECOND });
    if (missing(csi.MountDir) || csi.MountDir === '') csi.MountDir = '/csi';
    if (missing(csi.StagePublishBaseDir) || csi.StagePublishBaseDir === '')
      csi.StagePublishBaseDir = '/local/csi';
    if (csi.HealthTimeout === 0) csi.HealthTimeout = 30 * SECOND;
  }
  const dispatch = rec(t, 'DispatchPayload');
  if (dispatch) fill(dispatch, { File: '' });
  t.RestartPolicy = merged(rec(group, 'RestartPolicy') ?? {}, rec(t, 'RestartPolicy'));
  mapOrNull(t, ['Config', 'Env', 'Meta']);
  listOrNull(t, ['Templates', 'Artifacts', 'VolumeMounts', 'ScalingPolicies', 'Identities']);
  nullable(t, ['Lifecycle', 'Secrets', 'DispatchPayload', 'CSIPluginConfig']);
}

function canonicalizeGroup(g: Rec, job: Rec): void {
  const jobType = String(job.Type);
  fill(g, { Name: '' });
  const scaling = rec(g, 'Scaling');
  if (missing(g.Count)) g.Count = scaling && typeof scaling.Min === 'number' ? scaling.Min : 1;
  if (scaling) {
    fill(scaling, { Enabled: true, Min: g.Count, Type: 'horizontal' });
    mapOrNull(scaling, ['Policy']);
  }
  const disk = rec(g, 'EphemeralDisk') ?? {};
  g.EphemeralDisk = disk;
  fill(disk, { Sticky: false, Migrate: false, SizeMB: 300 });

  const jobUpdate = rec(job, 'Update');
  const groupUpdate = rec(g, 'Update');
  if (jobUpdate && groupUpdate) g.Update = merged(jobUpdate, groupUpdate);
  else if (jobUpdate && !updateIsEmpty(jobUpdate)) g.Update = copyJson(jobUpdate);
  const update = rec(g, 'Update');
  if (update) fill(update, UPDATE_DEFAULTS);

  const jobResched = rec(job, 'Reschedule');
  if (jobResched) g.ReschedulePolicy = merged(jobResched, rec(g, 'ReschedulePolicy'));
  if (!rec(g, 'ReschedulePolicy') && jobType !== 'system' && jobType !== 'sysbatch') {
    g.ReschedulePolicy = rescheduleDefaults(jobType);
  }
  const resched = rec(g, 'ReschedulePolicy');
  if (resched) fill(resched, rescheduleDefaults(jobType));

  const jobMigrate = rec(job, 'Migrate');
  if (jobMigrate) g.Migrate = merged(jobMigrate, rec(g, 'Migrate'));
  if (!rec(g, 'Migrate') && jobType === 'service') g.Migrate = {};
  const migrate = rec(g, 'Migrate');
  if (migrate) fill(migrate, MIGRATE_DEFAULTS);

  g.RestartPolicy = merged(restartDefaults(jobType), rec(g, 'RestartPolicy'));

  for (const t of recs(g, 'Tasks')) canonicalizeTask(t, g, job);
  canonicalizeSpreads(g);
  canonicalizeAffinities(g, 'Affinities');
  canonicalizeConstraints(g, 'Constraints');
  canonicalizeNetworks(g);
  canonicalizeServices(g, job, g, undefined);
  const disconnect = rec(g, 'Disconnect');
  if (disconnect) {
    fill(disconnect, { Replace: true, Reconcile: 'best_score' });
    nullable(disconnect, ['LostAfter', 'StopOnClientAfter']);
  }
  const volumes = rec(g, 'Volumes');
  for (const [name, v] of Object.entries(volumes ?? {})) {
    if (!isRec(v)) continue;
    fill(v, {
      Name: name,
      Type: '',
      Source: '',
      ReadOnly: false,
      Sticky: false,
      AccessMode: '',
      AttachmentMode: '',
      PerAlloc: false,
    });
    nullable(v, ['MountOptions']);
  }
  mapOrNull(g, ['Meta', 'Volumes']);
  listOrNull(g, ['Tasks']);
  nullable(g, [
    'Update',
    'Migrate',
    'ReschedulePolicy',
    'Scaling',
    'Disconnect',
    'ShutdownDelay',
    'StopAfterClientDisconnect',
    'MaxClientDisconnect',
    'PreventRescheduleOnLost',
  ]);
}

function canonicalizeMultiregion(m: Rec): void {
  const strategy = rec(m, 'Strategy') ?? {};
  m.Strategy = strategy;
  fill(strategy, { MaxParallel: 0, OnFailure: '' });
  if (!Array.isArray(m.Regions)) m.Regions = [];
  for (const r of recs(m, 'Regions'))
    fill(r, { Name: '', Count: 1, Datacenters: [], NodePool: '', Meta: {} });
}

function canonicalizePeriodic(p: Rec): void {
  fill(p, { Enabled: true, Spec: '', SpecType: 'cron', ProhibitOverlap: false });
  if (missing(p.TimeZone) || p.TimeZone === '') p.TimeZone = 'UTC';
  listOrNull(p, ['Specs']);
}

/** Returns the canonical form of `job`; the argument is not modified. */
export function canonicalizeJob(job: Job): Job {
  const j = copyJson(job) as Rec;
  fill(j, { ID: '' });
  fill(j, {
    Name: j.ID,
    ParentID: '',
    Namespace: 'default',
    Priority: 50,
    Stop: false,
    Region: 'global',
    // The api package leaves NodePool empty and Datacenters unset; the server fills these on
    // registration, and a job read back carries them.
    NodePool: 'default',
    Type: 'service',
    AllAtOnce: false,
    Dispatched: false,
    RegistryToken: '',
    SecretsToken: '',
    SecretsNamespace: '',
    SchedTokenID: '',
    Status: '',
    StatusDescription: '',
    Stable: false,
    Version: 0,
    CreateIndex: 0,
    ModifyIndex: 0,
    JobModifyIndex: 0,
  });
  if (j.NodePool === '') j.NodePool = 'default';
  if (!Array.isArray(j.Datacenters) || j.Datacenters.length === 0) j.Datacenters = ['*'];

  const periodic = rec(j, 'Periodic');
  if (periodic) canonicalizePeriodic(periodic);
  const update = rec(j, 'Update');
  if (update) fill(update, UPDATE_DEFAULTS);
  else if (j.Type === 'service') j.Update = copyJson(UPDATE_DEFAULTS);
  const multiregion = rec(j, 'Multiregion');
  if (multiregion) canonicalizeMultiregion(multiregion);
  const param = rec(j, 'ParameterizedJob');
  if (param) {
    fill(param, { Payload: '' });
    listOrNull(param, ['MetaRequired', 'MetaOptional']);
  }

  for (const g of recs(j, 'TaskGroups')) canonicalizeGroup(g, j);
  canonicalizeSpreads(j);
  canonicalizeAffinities(j, 'Affinities');
  canonicalizeConstraints(j, 'Constraints');
  listOrNull(j, ['TaskGroups']);
  mapOrNull(j, ['Meta']);
  nullable(j, ['Update', 'Multiregion', 'Periodic', 'ParameterizedJob', 'Payload', 'Reschedule', 'Migrate']);
  return sortKeys(j) as Job;
}

/** Fields the server sets on a stored job; they say nothing about what the user asked for. */
export const SERVER_MANAGED_JOB_FIELDS = [
  'Status',
  'StatusDescription',
  'Stable',
  'Version',
  'VersionTag',
  'SubmitTime',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'SchedTokenID',
  'SecretsToken',
  'RegistryToken',
] as const;

/**
 * The canonical job without server-managed fields: compare a desired job with one read back
 * (drift detection) by comparing their comparable forms.
 */
export function comparableJob(job: Job): Job {
  const c = canonicalizeJob(job) as Rec;
  for (const k of SERVER_MANAGED_JOB_FIELDS) delete c[k];
  dropServerOwned(c);
  return c as Job;
}
