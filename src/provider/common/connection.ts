/**
 * Provider configuration shared by the scheduler and registry providers: where the service is, how to
 * authenticate, TLS, extra headers, retries. Every setting left unset falls back to the environment
 * (SCHED_ADDR, SCHED_TOKEN, ... or NOMAD_* / CONSUL_* under those flavors), as the CLIs do.
 */
import { z } from 'zod';
import {
  flavorFromEnv,
  settingsFromEnv,
  normalizeAddress,
  type Env,
  type Flavor,
  type ServiceKind,
} from '../../api/env';
import type { TransportOptions } from '../../api/transport';
import { attr } from '../schema';
import type { Diagnostic } from '../values';
import { durationString, durationMs } from './duration';
import { errorAt, known, knownBool, knownNumber, knownString, knownStringMap, validateShape } from './shape';

const FLAVORS: Record<ServiceKind, readonly [Flavor, Flavor]> = {
  scheduler: ['sched', 'nomad'],
  registry: ['sched', 'consul'],
};

/** The provider's configuration attributes for one service. */
export function connectionShape(service: ServiceKind): Record<string, z.ZodType> {
  const [native, hashicorp] = FLAVORS[service];
  const envHint = service === 'scheduler' ? 'SCHED_' : 'REG_HTTP_';
  const shape: Record<string, z.ZodType> = {
    address: attr(z.string().min(1).nullish(), {
      optional: true,
      description: `URL of the ${service} API (default from ${envHint}ADDR, then ${service === 'scheduler' ? 'http://127.0.0.1:4646' : 'http://127.0.0.1:8500'}).`,
    }),
    token: attr(z.string().nullish(), {
      optional: true,
      sensitive: true,
      description: `ACL token (default from ${envHint}TOKEN).`,
    }),
    namespace: attr(z.string().min(1).nullish(), {
      optional: true,
      description: 'Namespace used when a resource does not name one.',
    }),
    flavor: attr(z.enum([native, hashicorp]).nullish(), {
      optional: true,
      description: `"${native}" (default, or from ${service === 'scheduler' ? 'SCHED_FLAVOR' : 'REG_FLAVOR'}) or "${hashicorp}": the header, field and environment names of a real ${hashicorp === 'nomad' ? 'Nomad' : 'Consul'} cluster.`,
    }),
    headers: attr(z.record(z.string(), z.string()).nullish(), {
      optional: true,
      description: 'Extra HTTP headers sent with every request.',
    }),
    ca_file: attr(z.string().min(1).nullish(), { optional: true, description: 'Path to a PEM CA bundle.' }),
    cert_file: attr(z.string().min(1).nullish(), {
      optional: true,
      description: 'Path to a PEM client certificate.',
    }),
    key_file: attr(z.string().min(1).nullish(), { optional: true, description: 'Path to a PEM client key.' }),
    ca_pem: attr(z.string().min(1).nullish(), { optional: true, description: 'PEM CA bundle text.' }),
    cert_pem: attr(z.string().min(1).nullish(), {
      optional: true,
      description: 'PEM client certificate text.',
    }),
    key_pem: attr(z.string().min(1).nullish(), {
      optional: true,
      sensitive: true,
      description: 'PEM client key text.',
    }),
    skip_verify: attr(z.boolean().nullish(), {
      optional: true,
      description: 'Do not verify the server certificate (testing only).',
    }),
    retries: attr(z.number().int().min(0).max(20).nullish(), {
      optional: true,
      description: 'Retries of a failed idempotent request (default 3).',
    }),
    request_timeout: attr(durationString({ nonZero: true }).nullish(), {
      optional: true,
      description: 'Time limit of one non-blocking request (default "60s").',
    }),
  };
  if (service === 'scheduler') {
    shape['region'] = attr(z.string().min(1).nullish(), {
      optional: true,
      description: 'Region to send requests to (default from SCHED_REGION).',
    });
  }
  return shape;
}

const PAIRS: ReadonlyArray<[string, string]> = [
  ['ca_file', 'ca_pem'],
  ['cert_file', 'cert_pem'],
  ['key_file', 'key_pem'],
];

/** Static checks of the provider configuration, beyond the types of the shape. */
export function validateConnection(service: ServiceKind, config: Record<string, unknown>): Diagnostic[] {
  const out = validateShape(connectionShape(service), config);
  for (const [file, pem] of PAIRS) {
    if (known(config[file]) !== undefined && known(config[pem]) !== undefined) {
      out.push(errorAt([pem], `"${file}" and "${pem}" cannot both be set`));
    }
  }
  const hasCert = known(config['cert_file']) !== undefined || known(config['cert_pem']) !== undefined;
  const hasKey = known(config['key_file']) !== undefined || known(config['key_pem']) !== undefined;
  if (hasCert !== hasKey) {
    out.push(
      errorAt(
        [hasCert ? 'key_file' : 'cert_file'],
        'A client certificate and its key must be given together',
      ),
    );
  }
  const address = knownString(config['address']);
  if (address !== undefined) {
    try {
      normalizeAddress(address);
    } catch (e) {
      out.push(errorAt(['address'], 'Invalid address', (e as Error).message));
    }
  }
  return out;
}

export interface ResolvedConnection {
  /** Options for the api client of the service. */
  transport: Omit<TransportOptions, 'service'>;
  flavor: Flavor;
  /** The token actually in use (config, then environment), to redact from every message. */
  token: string | undefined;
  /** Namespace used when a resource does not name one. */
  namespace: string | undefined;
  region: string | undefined;
}

/** Client options from the provider configuration, with environment fallbacks. */
export function resolveConnection(
  service: ServiceKind,
  config: Record<string, unknown>,
  env: Env = process.env,
): ResolvedConnection {
  const flavor =
    (knownString(config['flavor']) as Flavor | undefined) ?? flavorFromEnv(service, env) ?? 'sched';
  const fromEnv = settingsFromEnv(service, flavor, env);
  const token = knownString(config['token']) || fromEnv.token;
  const namespace = knownString(config['namespace']) ?? fromEnv.namespace;
  const region = service === 'scheduler' ? (knownString(config['region']) ?? fromEnv.region) : undefined;
  const retries = knownNumber(config['retries']);
  const timeoutMs = durationMs(config['request_timeout']);
  const skip = config['skip_verify'];
  return {
    flavor,
    token,
    namespace,
    region,
    transport: {
      address: knownString(config['address']) ?? fromEnv.address,
      token,
      flavor,
      region,
      namespace,
      headers: knownStringMap(config['headers']),
      tls: {
        ca: knownString(config['ca_pem']) ?? knownString(config['ca_file']) ?? fromEnv.caCert,
        cert: knownString(config['cert_pem']) ?? knownString(config['cert_file']) ?? fromEnv.clientCert,
        key: knownString(config['key_pem']) ?? knownString(config['key_file']) ?? fromEnv.clientKey,
        insecureSkipVerify: typeof skip === 'boolean' ? knownBool(skip, false) : fromEnv.skipVerify,
      },
      ...(retries !== undefined ? { retries: { max: retries } } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      // Fallbacks are resolved here; the transport must not read the process environment again.
      env: {},
    },
  };
}
