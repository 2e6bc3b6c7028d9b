/** Reads and waits shared by reg_peering_token, reg_peering and the reg_peering data source. */
import { z } from 'zod';
import { NotFoundError } from '../../api/errors';
import { orNull as orNullOnMissing } from '../../api/reg/client';
import { DNS_LABEL_RE } from '../../api/reg/rules';
import type { Peering } from '../../api/reg/schemas';
import { operationTimeoutMs } from '../common/timeouts';
import type { ApplyContext, State } from '../resource';
import type { RegContext } from './context';
import { poll } from './wait';

export const peerName = z
  .string()
  .regex(
    DNS_LABEL_RE,
    'must be a valid DNS hostname label: 1-63 letters, digits or dashes, not starting or ending with a dash',
  );

export const partitionOpts = (partition: unknown): { partition?: string } =>
  typeof partition === 'string' && partition !== '' ? { partition } : {};

export async function readPeering(
  rc: RegContext,
  name: string,
  partition: unknown,
  signal?: AbortSignal,
): Promise<Peering | null> {
  return orNullOnMissing(
    rc.client.peering.read(name, { ...partitionOpts(partition), signal }).then((r) => r.value),
  );
}

/** A terminated peering, or one marked for deletion, no longer connects anything: it counts as gone. */
export const isLive = (p: Peering | null): p is Peering =>
  p !== null && p.State !== 'TERMINATED' && !p.DeletedAt;

/**
 * Waits until a peering marked for deletion has left the registry, so its name can be used again. Peering reads
 * are not blocking queries (spec 4.3), so this polls with a bounded backoff.
 */
export async function waitPeeringGone(
  rc: RegContext,
  operation: string,
  planned: State,
  ctx: ApplyContext | undefined,
): Promise<void> {
  const name = String(planned['peer_name']);
  const found = await readPeering(rc, name, planned['partition']);
  if (!found?.DeletedAt) return;
  ctx?.onProgress?.({ message: `waiting for the deleted peering "${name}" to be removed` });
  await poll(
    (signal) => readPeering(rc, name, planned['partition'], signal),
    (p) => p === null || !p.DeletedAt,
    {
      operation,
      what: `the deleted peering "${name}" is still being removed`,
      timeoutMs: createTimeoutMs(rc, planned),
      signal: ctx?.signal,
    },
  );
}

export const createTimeoutMs = (rc: RegContext, planned: State): number =>
  operationTimeoutMs(planned['timeouts'], 'create', rc.timeouts.createMs);

/** Deletes the peering a state names; one already gone counts as deleted. */
export async function deletePeering(rc: RegContext, prior: State): Promise<void> {
  try {
    await rc.client.peering.delete(String(prior['peer_name']), partitionOpts(prior['partition']));
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
