import { NotFoundError } from '../errors';
import { Transport, type TransportOptions } from '../transport';
import { Acl } from './acl';
import { AuthMethods } from './auth-methods';
import { ConfigEntries } from './config-entries';
import { DiscoveryChains } from './discovery-chain';
import { Namespaces } from './namespaces';
import { Peerings } from './peering';

export interface RegClientOptions extends Omit<TransportOptions, 'service'> {
  /** Share an existing registry transport (its pool, token and namespace); the client will not close it. */
  transport?: Transport;
}

/**
 * Typed client of the registry. Reads return `{ value, meta }` (meta.index from X-Reg-Index for blocking
 * queries, meta.filteredByAcls from X-Reg-Results-Filtered-By-ACLs); writes return the value. Every rule the
 * spec states about a request is checked before it is sent (RequestValidationError).
 */
export class RegClient {
  readonly transport: Transport;
  readonly authMethods: AuthMethods;
  readonly namespaces: Namespaces;
  readonly peering: Peerings;
  readonly discoveryChain: DiscoveryChains;
  readonly configEntries: ConfigEntries;
  readonly acl: Acl;
  private readonly ownsTransport: boolean;

  constructor(opts: RegClientOptions = {}) {
    const { transport, ...rest } = opts;
    if (transport && transport.service !== 'registry') {
      throw new Error(`RegClient needs a registry transport, got a ${transport.service} one`);
    }
    this.transport = transport ?? new Transport({ ...rest, service: 'registry' });
    this.ownsTransport = transport === undefined;
    this.authMethods = new AuthMethods(this.transport);
    this.namespaces = new Namespaces(this.transport);
    this.peering = new Peerings(this.transport);
    this.discoveryChain = new DiscoveryChains(this.transport);
    this.configEntries = new ConfigEntries(this.transport);
    this.acl = new Acl(this.transport);
  }

  async close(): Promise<void> {
    if (this.ownsTransport) await this.transport.close();
  }
}

/**
 * Consul's Go client answers a missing auth method, namespace, peering, policy or role with nil instead of an
 * error; this gives the same shape to callers that want it (provider `read` deciding a resource is gone).
 */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}
