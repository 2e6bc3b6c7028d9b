import { affinitySchema, constraintSchema } from './schema-policies';
import {
  attr,
  freeform,
  listMap,
  many,
  single,
  stringMap,
  type Decoded,
  type StructSchema,
} from './schema-types';

const portSchema: StructSchema = {
  labels: ['Label'],
  fields: [
    attr('static', 'Value', 'int'),
    attr('to', 'To', 'int'),
    attr('host_network', 'HostNetwork', 'string'),
  ],
  post: (out) => {
    // Port is a value struct in Nomad's API: its fields are always present.
    out.Value ??= 0;
    out.To ??= 0;
    out.HostNetwork ??= '';
  },
};

export const networkSchema: StructSchema = {
  fields: [
    attr('mode', 'Mode', 'string'),
    attr('device', 'Device', 'string'),
    attr('cidr', 'CIDR', 'string'),
    attr('ip', 'IP', 'string'),
    attr('hostname', 'Hostname', 'string'),
    attr('mbits', 'MBits', 'int'),
    single('dns', 'DNS', {
      fields: [
        attr('servers', 'Servers', 'stringList'),
        attr('searches', 'Searches', 'stringList'),
        attr('options', 'Options', 'stringList'),
      ],
    }),
    many('port', 'DynamicPorts', portSchema),
    many('reserved_ports', 'ReservedPorts', portSchema),
  ],
  post: (out) => {
    // jobspec2 moves ports with a static value to ReservedPorts.
    const ports = (out.DynamicPorts ?? []) as Decoded[];
    if (ports.length === 0) return;
    const reserved = [
      ...((out.ReservedPorts ?? []) as Decoded[]),
      ...ports.filter((p) => (p.Value as number) > 0),
    ];
    const dynamic = ports.filter((p) => !((p.Value as number) > 0));
    if (dynamic.length) out.DynamicPorts = dynamic;
    else delete out.DynamicPorts;
    if (reserved.length) out.ReservedPorts = reserved;
  },
};

export const deviceSchema: StructSchema = {
  labels: ['Name'],
  fields: [
    attr('count', 'Count', 'int'),
    many('constraint', 'Constraints', constraintSchema),
    many('affinity', 'Affinities', affinitySchema),
  ],
};

export const resourcesSchema: StructSchema = {
  fields: [
    attr('cpu', 'CPU', 'int'),
    attr('cores', 'Cores', 'int'),
    attr('memory', 'MemoryMB', 'int'),
    attr('memory_max', 'MemoryMaxMB', 'int'),
    attr('disk', 'DiskMB', 'int'),
    attr('iops', 'IOPS', 'int'),
    many('network', 'Networks', networkSchema),
    many('device', 'Devices', deviceSchema),
  ],
};

const checkRestartSchema: StructSchema = {
  fields: [
    attr('limit', 'Limit', 'int'),
    attr('grace', 'Grace', 'duration'),
    attr('ignore_warnings', 'IgnoreWarnings', 'bool'),
  ],
};

const checkSchema: StructSchema = {
  fields: [
    attr('name', 'Name', 'string'),
    attr('type', 'Type', 'string'),
    attr('command', 'Command', 'string'),
    attr('args', 'Args', 'stringList'),
    attr('path', 'Path', 'string'),
    attr('protocol', 'Protocol', 'string'),
    attr('port', 'PortLabel', 'string'),
    attr('expose', 'Expose', 'bool'),
    attr('address_mode', 'AddressMode', 'string'),
    attr('advertise', 'Advertise', 'string'),
    attr('interval', 'Interval', 'duration'),
    attr('timeout', 'Timeout', 'duration'),
    attr('initial_status', 'InitialStatus', 'string'),
    attr('notes', 'Notes', 'string'),
    attr('tls_server_name', 'TLSServerName', 'string'),
    attr('tls_skip_verify', 'TLSSkipVerify', 'bool'),
    listMap('header', 'Header'),
    attr('method', 'Method', 'string'),
    single('check_restart', 'CheckRestart', checkRestartSchema),
    attr('grpc_service', 'GRPCService', 'string'),
    attr('grpc_use_tls', 'GRPCUseTLS', 'bool'),
    attr('task', 'TaskName', 'string'),
    attr('success_before_passing', 'SuccessBeforePassing', 'int'),
    attr('failures_before_critical', 'FailuresBeforeCritical', 'int'),
    attr('failures_before_warning', 'FailuresBeforeWarning', 'int'),
    attr('body', 'Body', 'string'),
    attr('on_update', 'OnUpdate', 'string'),
  ],
};

const upstreamSchema: StructSchema = {
  fields: [
    attr('destination_name', 'DestinationName', 'string'),
    attr('destination_namespace', 'DestinationNamespace', 'string'),
    attr('destination_peer', 'DestinationPeer', 'string'),
    attr('destination_type', 'DestinationType', 'string'),
    attr('local_bind_port', 'LocalBindPort', 'int'),
    attr('local_bind_address', 'LocalBindAddress', 'string'),
    attr('local_bind_socket_path', 'LocalBindSocketPath', 'string'),
    attr('local_bind_socket_mode', 'LocalBindSocketMode', 'string'),
    attr('datacenter', 'Datacenter', 'string'),
    single('mesh_gateway', 'MeshGateway', { fields: [attr('mode', 'Mode', 'string')] }),
    freeform('config', 'Config'),
  ],
};

const proxySchema: StructSchema = {
  fields: [
    attr('local_service_address', 'LocalServiceAddress', 'string'),
    attr('local_service_port', 'LocalServicePort', 'int'),
    many('upstreams', 'Upstreams', upstreamSchema),
    freeform('config', 'Config'),
  ],
};

/** The service-mesh block, covering sidecar services and their upstreams. */
export function connectSchema(sidecarTask: StructSchema): StructSchema {
  return {
    fields: [
      attr('native', 'Native', 'bool'),
      single('sidecar_service', 'SidecarService', {
        fields: [
          attr('tags', 'Tags', 'stringList'),
          attr('port', 'Port', 'string'),
          attr('disable_default_tcp_check', 'DisableDefaultTCPCheck', 'bool'),
          stringMap('meta', 'Meta'),
          single('proxy', 'Proxy', proxySchema),
        ],
      }),
      single('sidecar_task', 'SidecarTask', sidecarTask),
    ],
  };
}

export function serviceSchema(sidecarTask: StructSchema): StructSchema {
  return {
    fields: [
      attr('name', 'Name', 'string'),
      attr('tags', 'Tags', 'stringList'),
      attr('canary_tags', 'CanaryTags', 'stringList'),
      attr('enable_tag_override', 'EnableTagOverride', 'bool'),
      attr('port', 'PortLabel', 'string'),
      attr('address_mode', 'AddressMode', 'string'),
      attr('address', 'Address', 'string'),
      many('check', 'Checks', checkSchema),
      single('check_restart', 'CheckRestart', checkRestartSchema),
      single('connect', 'Connect', connectSchema(sidecarTask)),
      stringMap('meta', 'Meta'),
      stringMap('canary_meta', 'CanaryMeta'),
      stringMap('tagged_addresses', 'TaggedAddresses'),
      attr('task', 'TaskName', 'string'),
      attr('on_update', 'OnUpdate', 'string'),
      attr('provider', 'Provider', 'string'),
      attr('cluster', 'Cluster', 'string'),
      attr('kind', 'Kind', 'string'),
      single('weights', 'Weights', {
        fields: [attr('passing', 'Passing', 'int'), attr('warning', 'Warning', 'int')],
      }),
    ],
  };
}
