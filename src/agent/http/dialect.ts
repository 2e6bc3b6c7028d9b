/**
 * The wire dialect the agent serves: the neutral one of the specs (default), or Nomad's and Consul's
 * (`--dialect hashicorp`), so the client's nomad/consul flavor runs against a real server in tests.
 * Translation happens here, at the edge, with the very table the client uses in the other direction:
 * routes, store and scheduler only ever see neutral names.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { dialectFor } from '../../api/dialect';
import type { Flavor, ServiceKind } from '../../api/env';
import { headerPrefix } from '../../api/env';
import type { HttpError } from './errors';
import { withNomadServerDefaults } from './nomad-defaults';

export interface ServerDialect {
  /** Request body, as parsed JSON, from the wire's names to neutral ones. */
  inbound(body: unknown): unknown;
  /**
   * Response body from neutral names to the wire's. Reads of stored objects (GET) also carry what that
   * server adds on its own; a parse or plan answer is the job as given, as Nomad answers it.
   */
  outbound(body: unknown, method: string): unknown;
  /** Request headers with the wire's prefix renamed to the neutral one (`X-Nomad-Token` -> `X-Sched-Token`). */
  inboundHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders;
  /** A response header name from neutral to the wire's prefix. */
  outboundHeader(name: string): string;
  /** The status the wire's server answers an error with. */
  status(err: HttpError): number;
}

export type AgentDialect = 'neutral' | 'hashicorp';

/** Nomad reports a failed check-and-set register as an internal error, not a conflict. */
const NOMAD_CAS = /^Enforcing job modify index/;

export function serverDialect(service: ServiceKind, dialect: AgentDialect): ServerDialect | undefined {
  if (dialect === 'neutral') return undefined;
  const flavor: Flavor = service === 'scheduler' ? 'nomad' : 'consul';
  const wire = dialectFor(service, flavor);
  const neutralPrefix = headerPrefix(service, 'sched').toLowerCase();
  const wirePrefix = headerPrefix(service, flavor);
  const wireLower = wirePrefix.toLowerCase();
  return {
    inbound: (body) => wire.fromWire(body),
    outbound: (body, method) => {
      const translated = wire.toWire(body);
      return service === 'scheduler' && method === 'GET' ? withNomadServerDefaults(translated) : translated;
    },
    inboundHeaders: (headers) => {
      const out: IncomingHttpHeaders = {};
      for (const [k, v] of Object.entries(headers)) {
        out[k.startsWith(wireLower) ? neutralPrefix + k.slice(wireLower.length) : k] = v;
      }
      return out;
    },
    outboundHeader: (name) =>
      name.toLowerCase().startsWith(neutralPrefix) ? wirePrefix + name.slice(neutralPrefix.length) : name,
    status: (err) =>
      service === 'scheduler' && err.status === 409 && NOMAD_CAS.test(err.message) ? 500 : err.status,
  };
}
