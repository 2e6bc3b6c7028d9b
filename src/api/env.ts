/**
 * Where each service's connection settings come from when the caller does not give them: the
 * environment names of our neutral flavor, or of Nomad/Consul so the same code drives a real cluster.
 */
export type ServiceKind = 'scheduler' | 'registry';
export type Flavor = 'sched' | 'nomad' | 'consul';

export interface EnvNames {
  address: string;
  token: string;
  region?: string;
  namespace: string;
  caCert: string;
  clientCert: string;
  clientKey: string;
  skipVerify: string;
}

const NAMES: Record<ServiceKind, Record<'native' | 'hashicorp', EnvNames>> = {
  scheduler: {
    native: {
      address: 'SCHED_ADDR',
      token: 'SCHED_TOKEN',
      region: 'SCHED_REGION',
      namespace: 'SCHED_NAMESPACE',
      caCert: 'SCHED_CACERT',
      clientCert: 'SCHED_CLIENT_CERT',
      clientKey: 'SCHED_CLIENT_KEY',
      skipVerify: 'SCHED_SKIP_VERIFY',
    },
    hashicorp: {
      address: 'NOMAD_ADDR',
      token: 'NOMAD_TOKEN',
      region: 'NOMAD_REGION',
      namespace: 'NOMAD_NAMESPACE',
      caCert: 'NOMAD_CACERT',
      clientCert: 'NOMAD_CLIENT_CERT',
      clientKey: 'NOMAD_CLIENT_KEY',
      skipVerify: 'NOMAD_SKIP_VERIFY',
    },
  },
  registry: {
    native: {
      address: 'REG_HTTP_ADDR',
      token: 'REG_HTTP_TOKEN',
      namespace: 'REG_NAMESPACE',
      caCert: 'REG_CACERT',
      clientCert: 'REG_CLIENT_CERT',
      clientKey: 'REG_CLIENT_KEY',
      skipVerify: 'REG_HTTP_SKIP_VERIFY',
    },
    hashicorp: {
      address: 'CONSUL_HTTP_ADDR',
      token: 'CONSUL_HTTP_TOKEN',
      namespace: 'CONSUL_NAMESPACE',
      caCert: 'CONSUL_CACERT',
      clientCert: 'CONSUL_CLIENT_CERT',
      clientKey: 'CONSUL_CLIENT_KEY',
      skipVerify: 'CONSUL_HTTP_SKIP_VERIFY',
    },
  },
};

export const DEFAULT_ADDRESS: Record<ServiceKind, string> = {
  scheduler: 'http://127.0.0.1:4646',
  registry: 'http://127.0.0.1:8500',
};

export function envNames(service: ServiceKind, flavor: Flavor): EnvNames {
  return NAMES[service][flavor === 'sched' ? 'native' : 'hashicorp'];
}

/** Header prefix: X-Sched- / X-Reg- for our services, X-Nomad- / X-Consul- for real clusters. */
export function headerPrefix(service: ServiceKind, flavor: Flavor): string {
  if (flavor === 'sched') return service === 'scheduler' ? 'X-Sched-' : 'X-Reg-';
  return service === 'scheduler' ? 'X-Nomad-' : 'X-Consul-';
}

/** Where a provider's `flavor` falls back to: a pipeline can switch a stack to a real cluster without code. */
export const FLAVOR_ENV: Record<ServiceKind, string> = { scheduler: 'SCHED_FLAVOR', registry: 'REG_FLAVOR' };

const FLAVORS_OF: Record<ServiceKind, readonly Flavor[]> = {
  scheduler: ['sched', 'nomad'],
  registry: ['sched', 'consul'],
};

/** The flavor the environment names for a service, if any; a value the service has no use for is an error. */
export function flavorFromEnv(service: ServiceKind, env: Env = process.env): Flavor | undefined {
  const name = FLAVOR_ENV[service];
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const allowed = FLAVORS_OF[service];
  if (!(allowed as readonly string[]).includes(v)) {
    throw new Error(
      `${name}="${v}" is not a flavor of the ${service}: use ${allowed.map((f) => `"${f}"`).join(' or ')}`,
    );
  }
  return v as Flavor;
}

export interface EnvSettings {
  address?: string;
  token?: string;
  region?: string;
  namespace?: string;
  caCert?: string;
  clientCert?: string;
  clientKey?: string;
  skipVerify?: boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Reads the settings of one service from the environment (empty strings count as unset). */
export function settingsFromEnv(service: ServiceKind, flavor: Flavor, env: Env = process.env): EnvSettings {
  const names = envNames(service, flavor);
  const get = (name: string | undefined): string | undefined => {
    if (!name) return undefined;
    const v = env[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const skip = get(names.skipVerify);
  return {
    address: get(names.address),
    token: get(names.token),
    region: get(names.region),
    namespace: get(names.namespace),
    caCert: get(names.caCert),
    clientCert: get(names.clientCert),
    clientKey: get(names.clientKey),
    skipVerify: skip === undefined ? undefined : /^(1|true|yes)$/i.test(skip),
  };
}

/** Consul accepts "host:port" without a scheme; so do we. */
export function normalizeAddress(address: string, defaultScheme = 'http'): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `${defaultScheme}://${address}`;
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'unix:') {
    throw new Error(`address ${url.protocol}// is not supported: use http:// or https://`);
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
