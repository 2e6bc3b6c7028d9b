/**
 * Server-to-server peering endpoints. The exchange consumes the one-time secret of a token and makes
 * both sides ACTIVE; terminate tells a peer that this side deleted the peering. They carry no ACL token:
 * the establishment secret, then the shared stream secret, are what authenticate the caller.
 */
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { HttpError, invalidField, notFound } from '../../http/errors';
import type { Router } from '../../http/router';
import { newId } from '../../ids';
import type { Store, Txn } from '../../store';
import { INTERNAL } from '../acl/gate';
import type { RegContext } from '../context';
import type { StoredPeering, StoredPeeringSecrets } from '../model';
import { bodyObject, checkTypes } from '../request';
import { T, peeringKey } from '../tables';
import { hostPort, peeringServerName } from './token';

export const EXCHANGE_PATH = '/v1/internal/peering/exchange';
export const TERMINATE_PATH = '/v1/internal/peering/terminate';

const ExchangeRequestSchema = z.object({
  PeerID: z.string().min(1),
  EstablishmentSecret: z.string().min(1),
  Dialer: z.object({
    PeeringID: z.string().min(1),
    ServerName: z.string(),
    ServerAddresses: z.array(z.string()),
    Datacenter: z.string(),
    /** The dialer's CAs when it serves TLS, so this side can reach it to tell it of a deletion. */
    CA: z.array(z.string()).nullish(),
  }),
});

export interface ExchangeResponse {
  PeeringID: string;
  ServerName: string;
  Datacenter: string;
  StreamSecret: string;
}

const TerminateRequestSchema = z.object({ PeeringID: z.string().min(1), StreamSecret: z.string().min(1) });

export function findPeeringById(
  reader: Pick<Store, 'list'> | Pick<Txn, 'list'>,
  id: string,
): StoredPeering | undefined {
  return reader.list<StoredPeering>(T.peerings).find((p) => p.ID === id);
}

function sameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function addInternalPeeringRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;

  router.add(
    'POST',
    EXCHANGE_PATH,
    async (ctx) => {
      const req = checkTypes(ExchangeRequestSchema, await bodyObject(ctx));
      const { result } = store.write((tx): ExchangeResponse => {
        const p = findPeeringById(tx, req.PeerID);
        if (!p || p.Role !== 'acceptor')
          throw invalidField(
            'PeerID',
            'no peering accepts this token; it may have been deleted (rule: peering-exists)',
          );
        if (p.DeletedAt)
          throw invalidField('PeerID', `peering "${p.Name}" is being deleted (rule: peering-not-deleting)`);
        const secrets = tx.get<StoredPeeringSecrets>(T.peeringSecrets, p.ID);
        if (!sameSecret(secrets?.Establishment, req.EstablishmentSecret)) {
          throw invalidField(
            'EstablishmentSecret',
            'is not valid: the token was already used or replaced by a newer one (rule: one-time-secret)',
          );
        }
        const stream = newId();
        tx.put(T.peeringSecrets, p.ID, { PeeringID: p.ID, Stream: stream } satisfies StoredPeeringSecrets);
        tx.put(T.peerings, peeringKey(p.Partition, p.Name), {
          ...p,
          State: 'ACTIVE',
          PeerID: req.Dialer.PeeringID,
          PeerServerName: req.Dialer.ServerName,
          RemoteAddresses: req.Dialer.ServerAddresses,
          RemoteDatacenter: req.Dialer.Datacenter,
          ...(req.Dialer.CA?.length ? { PeerCAPems: req.Dialer.CA } : {}),
        } satisfies StoredPeering);
        return {
          PeeringID: p.ID,
          ServerName: peeringServerName(rc.datacenter, rc.trustDomain),
          Datacenter: rc.datacenter,
          StreamSecret: stream,
        };
      });
      rc.log(
        `registry: peering accepted from ${req.Dialer.ServerName} (${req.Dialer.ServerAddresses.join(', ') || hostPort(rc.selfAddress())})`,
      );
      return { body: result };
    },
    { acl: INTERNAL },
  );

  router.add(
    'POST',
    TERMINATE_PATH,
    async (ctx) => {
      const req = checkTypes(TerminateRequestSchema, await bodyObject(ctx));
      store.write((tx) => {
        const p = findPeeringById(tx, req.PeeringID);
        if (!p) throw notFound(`Peering not found: "${req.PeeringID}"`);
        const secrets = tx.get<StoredPeeringSecrets>(T.peeringSecrets, p.ID);
        if (!sameSecret(secrets?.Stream, req.StreamSecret))
          throw new HttpError(403, 'StreamSecret: does not match this peering');
        if (p.State !== 'TERMINATED')
          tx.put(T.peerings, peeringKey(p.Partition, p.Name), {
            ...p,
            State: 'TERMINATED',
          } satisfies StoredPeering);
      });
      return { body: {} };
    },
    { acl: INTERNAL },
  );
}
