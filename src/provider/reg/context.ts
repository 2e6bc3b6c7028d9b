/** What every registry handler of one configured provider shares. */
import type { RegClient } from '../../api/reg/client';
import type { Redactor } from './redact';

export interface RegTimeouts {
  /** Longest wait for a created object to be ready (a peering to become ACTIVE). */
  createMs: number;
  /** Longest wait for a deleted object to disappear (a namespace's background deletion). */
  deleteMs: number;
}

export const DEFAULT_TIMEOUTS: RegTimeouts = { createMs: 5 * 60_000, deleteMs: 10 * 60_000 };

export interface RegContext {
  client: RegClient;
  /** Masks the provider's token and whatever secrets the handlers register. */
  redactor: Redactor;
  /** The provider's datacenter, the default of a peering's Datacenter and a chain's compile-dc. */
  datacenter?: string;
  timeouts: RegTimeouts;
}
