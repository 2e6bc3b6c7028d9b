/**
 * The `reg` provider: registry resources (namespaces, ACL auth methods, cluster peering) and data sources
 * (namespace, peering, discovery chain), all bound to one RegClient built from the provider configuration,
 * with REG_HTTP_* (or CONSUL_HTTP_* under flavor "consul") environment fallbacks.
 */
import { z } from 'zod';
import { RegClient } from '../../api/reg/client';
import { connectionShape, resolveConnection, validateConnection } from '../common/connection';
import { hasErrors, knownString, validateShape } from '../common/shape';
import {
  discoveryChainDataSource,
  discoveryChainDataShape,
  DISCOVERY_CHAIN_DATA_DESCRIPTION,
} from '../data/reg-discovery-chain';
import { namespaceDataShape, namespaceDataSource, NAMESPACE_DATA_DESCRIPTION } from '../data/reg-namespace';
import { peeringDataShape, peeringDataSource, PEERING_DATA_DESCRIPTION } from '../data/reg-peering';
import type { Config, Provider, ProviderFactory } from '../resource';
import { attr } from '../schema';
import { DiagnosticsError, type Diagnostic } from '../values';
import { AUTH_METHOD_DESCRIPTION, authMethodResource, authMethodShape } from './auth-method';
import { DEFAULT_TIMEOUTS, type RegContext, type RegTimeouts } from './context';
import { NAMESPACE_DESCRIPTION, namespaceResource, namespaceShape } from './namespace';
import { PEERING_DESCRIPTION, peeringResource, peeringShape } from './peering';
import { PEERING_TOKEN_DESCRIPTION, peeringTokenResource, peeringTokenShape } from './peering-token';
import { Redactor } from './redact';

const ownShape = {
  datacenter: attr(z.string().min(1).nullish(), {
    optional: true,
    description:
      "Datacenter of the registry: default of peering requests and of a discovery chain's compile datacenter.",
  }),
};

export const regProviderShape: Record<string, z.ZodType> = { ...connectionShape('registry'), ...ownShape };

function split(config: Config): { connection: Config; own: Config } {
  const { datacenter, ...connection } = config;
  return { connection, own: datacenter === undefined ? {} : { datacenter } };
}

function validate(config: Config): Diagnostic[] {
  const { connection, own } = split(config);
  return [...validateConnection('registry', connection), ...validateShape(ownShape, own)];
}

export interface RegProviderOptions {
  /** Waits of the handlers when a resource sets no `timeouts`; tests shorten them. */
  timeouts?: Partial<RegTimeouts>;
}

/** The provider bound to a client; `options` is for embedding (tests, the engine), not the user configuration. */
export function configureRegProvider(
  config: Config,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: RegProviderOptions = {},
): Provider {
  const diagnostics = validate(config);
  if (hasErrors(diagnostics)) throw new DiagnosticsError(diagnostics);
  const { connection } = split(config);
  const resolved = resolveConnection('registry', connection, env);
  const client = new RegClient(resolved.transport);
  const datacenter = knownString(config['datacenter']);
  const rc: RegContext = {
    client,
    redactor: new Redactor([resolved.token, knownString(config['key_pem'])]),
    ...(datacenter ? { datacenter } : {}),
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
  };
  const resources = [
    namespaceResource(rc),
    authMethodResource(rc),
    peeringTokenResource(rc),
    peeringResource(rc),
  ];
  const dataSources = [namespaceDataSource(rc), peeringDataSource(rc), discoveryChainDataSource(rc)];
  return {
    name: 'reg',
    resources: Object.fromEntries(resources.map((r) => [r.typeName, r])),
    dataSources: Object.fromEntries(dataSources.map((d) => [d.typeName, d])),
    close: () => client.close(),
  };
}

export const regProvider: ProviderFactory = {
  name: 'reg',
  shape: regProviderShape,
  validate,
  configure: (config, env) => configureRegProvider(config, env),
  resourceShapes: {
    reg_namespace: { description: NAMESPACE_DESCRIPTION, shape: namespaceShape, version: 0 },
    reg_acl_auth_method: { description: AUTH_METHOD_DESCRIPTION, shape: authMethodShape, version: 0 },
    reg_peering_token: { description: PEERING_TOKEN_DESCRIPTION, shape: peeringTokenShape, version: 0 },
    reg_peering: { description: PEERING_DESCRIPTION, shape: peeringShape, version: 0 },
  },
  dataSourceShapes: {
    reg_namespace: { description: NAMESPACE_DATA_DESCRIPTION, shape: namespaceDataShape },
    reg_peering: { description: PEERING_DATA_DESCRIPTION, shape: peeringDataShape },
    reg_discovery_chain: { description: DISCOVERY_CHAIN_DATA_DESCRIPTION, shape: discoveryChainDataShape },
  },
};
