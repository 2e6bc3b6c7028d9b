/**
 * Data source reg_discovery_chain: the compiled discovery chain of a service (spec 4.4), optionally with the
 * overrides an upstream configuration applies (connect timeout, protocol, mesh gateway mode).
 */
import { z } from 'zod';
import { parseDurationMs } from '../../api/reg/rules';
import type { DiscoveryChainOverrides } from '../../api/reg/schemas';
import type { Config, DataSourceHandler, State } from '../resource';
import { attr } from '../schema';
import type { RegContext } from '../reg/context';
import { guarded } from '../reg/redact';
import { validateShape } from '../common/shape';

export const DISCOVERY_CHAIN_DATA_DESCRIPTION =
  'Reads the compiled discovery chain of a service: its routers, splitters, resolvers and targets.';

const meshGateway = z.object({
  mode: attr(z.enum(['none', 'local', 'remote']), {
    required: true,
    description: 'Mesh gateway mode: none, local or remote.',
  }),
});

export const discoveryChainDataShape = {
  service: attr(z.string().min(1, 'must not be empty'), {
    required: true,
    description: 'Service to compile.',
  }),
  namespace: attr(z.string(), { optional: true, description: 'Source namespace.' }),
  datacenter: attr(z.string(), {
    optional: true,
    description: "Datacenter the chain is compiled for (compile-dc); the provider's by default.",
  }),
  override_connect_timeout: attr(
    z.string().refine((s) => {
      const ms = parseDurationMs(s);
      return ms !== undefined && ms >= 0;
    }, 'must be a non-negative duration such as "5s" or "1m30s"'),
    { optional: true, description: 'Overrides the final connect timeout of every resolved service.' },
  ),
  override_protocol: attr(z.enum(['tcp', 'http', 'http2', 'grpc']), {
    optional: true,
    description: 'Overrides the final protocol: tcp drops routers and splitters.',
  }),
  override_mesh_gateway: attr(meshGateway, {
    optional: true,
    block: 'single',
    description: 'Overrides the final mesh gateway configuration.',
  }),
  id: attr(z.string(), { computed: true, description: 'Service and compile datacenter.' }),
  protocol: attr(z.string(), { computed: true, description: 'Protocol of the compiled chain.' }),
  start_node: attr(z.string(), { computed: true, description: 'Key of the first node.' }),
  customization_hash: attr(z.string(), {
    computed: true,
    description: 'Set when overrides changed the chain.',
  }),
  target_ids: attr(z.array(z.string()), { computed: true, description: 'IDs of every target, sorted.' }),
  chain: attr(z.unknown(), { computed: true, description: 'The whole compiled chain (JSON).' }),
};

function overrides(config: Config): DiscoveryChainOverrides | undefined {
  const out: DiscoveryChainOverrides = {};
  if (typeof config['override_connect_timeout'] === 'string') {
    out.OverrideConnectTimeout = config['override_connect_timeout'];
  }
  if (typeof config['override_protocol'] === 'string') out.OverrideProtocol = config['override_protocol'];
  const mg = config['override_mesh_gateway'] as { mode?: unknown } | null | undefined;
  if (mg && typeof mg.mode === 'string') out.OverrideMeshGateway = { Mode: mg.mode };
  return Object.keys(out).length > 0 ? out : undefined;
}

export function discoveryChainDataSource(rc: RegContext): DataSourceHandler {
  return {
    typeName: 'reg_discovery_chain',
    description: DISCOVERY_CHAIN_DATA_DESCRIPTION,
    shape: discoveryChainDataShape,
    validate: (config: Config) => validateShape(discoveryChainDataShape, config),
    async read(config: Config): Promise<State> {
      const service = String(config['service']);
      const namespace =
        typeof config['namespace'] === 'string' && config['namespace'] !== ''
          ? config['namespace']
          : undefined;
      const dc =
        typeof config['datacenter'] === 'string' && config['datacenter'] !== ''
          ? config['datacenter']
          : rc.datacenter;
      const chain = await guarded(`reading the discovery chain of "${service}"`, rc.redactor, async () => {
        const res = await rc.client.discoveryChain.read(service, {
          ...(namespace ? { namespace } : {}),
          ...(dc ? { compileDc: dc } : {}),
          overrides: overrides(config),
        });
        return res.value;
      });
      return {
        ...Object.fromEntries(Object.keys(discoveryChainDataShape).map((k) => [k, config[k] ?? null])),
        id: `${chain.ServiceName}.${chain.Namespace}.${chain.Datacenter}`,
        protocol: chain.Protocol,
        start_node: chain.StartNode,
        customization_hash: chain.CustomizationHash ?? null,
        target_ids: Object.keys(chain.Targets).sort(),
        chain,
      };
    },
  };
}
