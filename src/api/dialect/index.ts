/**
 * The wire dialect of a service: neutral (our specs), Nomad or Consul. The transport translates
 * request bodies to the wire and response bodies back; the dev agent's `--dialect` does the reverse.
 */
import type { Flavor, ServiceKind } from '../env';
import { CONSUL_TABLE, NOMAD_TABLE, type DialectTable } from './table';
import { translateBody } from './translate';

export interface Dialect {
  readonly name: Flavor;
  /** Neutral body -> the wire's names. */
  toWire(body: unknown): unknown;
  /** The wire's body -> neutral names. */
  fromWire(body: unknown): unknown;
}

const NEUTRAL: Dialect = { name: 'sched', toWire: (b) => b, fromWire: (b) => b };

function tableDialect(name: Flavor, table: DialectTable): Dialect {
  return {
    name,
    toWire: (b) => translateBody(b, table, 'toWire'),
    fromWire: (b) => translateBody(b, table, 'fromWire'),
  };
}

const NOMAD = tableDialect('nomad', NOMAD_TABLE);
const CONSUL = tableDialect('consul', CONSUL_TABLE);

/** The dialect a flavor speaks for a service (a scheduler client with flavor `nomad` speaks Nomad). */
export function dialectFor(service: ServiceKind, flavor: Flavor): Dialect {
  if (flavor === 'sched') return NEUTRAL;
  return service === 'scheduler' ? NOMAD : CONSUL;
}

export { NOMAD_TABLE, CONSUL_TABLE } from './table';
export type { DialectTable } from './table';
