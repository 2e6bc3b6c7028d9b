/** /v1/peering/token, /v1/peering/establish, /v1/peering/<name> and /v1/peerings (spec 4.3). */
import { PeeringEstablishRequestSchema, PeeringGenerateTokenRequestSchema } from '../../../api/reg/schemas';
import { validatePeeringEstablish, validatePeeringGenerateToken } from '../../../api/reg/validate';
import { invalidField, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { newId } from '../../ids';
import { BODY_TOKEN } from '../acl/gate';
import { authOf, type RegContext } from '../context';
import type { StoredPeering, StoredPeeringSecrets } from '../model';
import {
  applyFilter,
  bodyObject,
  checkTypes,
  nowIso,
  optString,
  optStringMap,
  refuse,
  type Body,
} from '../request';
import { DEFAULT_PARTITION, T, peeringKey } from '../tables';
import { addInternalPeeringRoutes, EXCHANGE_PATH, TERMINATE_PATH, type ExchangeResponse } from './internal';
import { callPeer, PeerRejected, unreachable, type PeerTarget } from './remote';
import { decodePeeringToken, encodePeeringToken, hostPort, peeringServerName } from './token';

/** Cluster time a deleted peering stays readable while its imported data is removed. */
export const PEERING_CLEANUP_DELAY_NS = 2e9;
const NOTIFY_RETRY_NS = 1e9;
const NOTIFY_ATTEMPTS = 5;

export function renderPeering(p: StoredPeering): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ID: p.ID,
    Name: p.Name,
    Partition: p.Partition,
    State: p.State,
    PeerID: p.PeerID,
    PeerServerName: p.PeerServerName,
    PeerServerAddresses: p.PeerServerAddresses,
    PeerCAPems: p.PeerCAPems ?? [],
    Meta: p.Meta,
  };
  if (p.DeletedAt) out['DeletedAt'] = p.DeletedAt;
  // Consul 1.14+ reports the replication stream; this agent replicates no services.
  out['StreamStatus'] = { ImportedServices: [], ExportedServices: [] };
  // What the other side said about itself at establishment (Consul 1.15+), once known.
  out['Remote'] = p.RemoteDatacenter ? { Partition: DEFAULT_PARTITION, Datacenter: p.RemoteDatacenter } : {};
  out['CreateIndex'] = p.CreateIndex;
  out['ModifyIndex'] = p.ModifyIndex;
  return out;
}

function partitionOf(field: string, value: string | null | undefined): string {
  const p = value || DEFAULT_PARTITION;
  if (p !== DEFAULT_PARTITION)
    throw invalidField(
      field,
      `only the "${DEFAULT_PARTITION}" partition exists here; got ${JSON.stringify(p)} (rule: partition)`,
    );
  return p;
}

function commonFields(
  rc: RegContext,
  body: Body,
): { partition: string; meta: Record<string, string> | undefined } {
  const partition = partitionOf('Partition', optString(body, 'Partition'));
  const dc = optString(body, 'Datacenter');
  if (dc && dc !== rc.datacenter)
    throw invalidField(
      'Datacenter',
      `this registry serves datacenter "${rc.datacenter}" only; got ${JSON.stringify(dc)} (rule: datacenter)`,
    );
  return { partition, meta: optStringMap(body, 'Meta') };
}

function scheduleCleanup(rc: RegContext, partition: string, name: string, id: string): void {
  rc.later(PEERING_CLEANUP_DELAY_NS, () => {
    rc.store.write((tx) => {
      const p = tx.get<StoredPeering>(T.peerings, peeringKey(partition, name));
      if (p?.ID === id && p.DeletedAt) tx.delete(T.peerings, peeringKey(partition, name));
      tx.delete(T.peeringSecrets, id);
    });
  });
}

/** Tells the other side, with retries, that this side deleted the peering; it then shows TERMINATED. */
function notifyPeer(
  rc: RegContext,
  peer: PeerTarget,
  remotePeeringId: string,
  streamSecret: string,
  attempt = 1,
): void {
  callPeer(peer, TERMINATE_PATH, { PeeringID: remotePeeringId, StreamSecret: streamSecret }, rc.tls).catch(
    (err: unknown) => {
      if (err instanceof PeerRejected) return; // the peer no longer knows this peering: nothing to tell
      if (attempt < NOTIFY_ATTEMPTS)
        rc.later(NOTIFY_RETRY_NS, () => notifyPeer(rc, peer, remotePeeringId, streamSecret, attempt + 1));
      else rc.log(`registry: could not tell peer at ${peer.addresses.join(', ')} about the deleted peering`);
    },
  );
}

/** Deletions a previous run of this data dir left half done: the peer may not have heard yet. */
export function resumePeeringWork(rc: RegContext): void {
  for (const p of rc.store.list<StoredPeering>(T.peerings)) {
    if (!p.DeletedAt) continue;
    const stream = rc.store.get<StoredPeeringSecrets>(T.peeringSecrets, p.ID)?.Stream;
    if (p.NotifyPeer && stream) notifyPeer(rc, peerOf(p), p.PeerID, stream);
    scheduleCleanup(rc, p.Partition, p.Name, p.ID);
  }
}

function peerOf(p: StoredPeering): PeerTarget {
  return { addresses: [...p.RemoteAddresses], caPems: p.PeerCAPems };
}

export function addPeeringRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  addInternalPeeringRoutes(router, rc);

  router.add(
    'POST',
    '/v1/peering/token',
    async (ctx) => {
      const body = await bodyObject(ctx);
      refuse(validatePeeringGenerateToken(body));
      checkTypes(PeeringGenerateTokenRequestSchema, body);
      const name = body['PeerName'] as string;
      const { partition, meta } = commonFields(rc, body);
      const secret = newId();
      const { result: peering } = store.write((tx) => {
        const key = peeringKey(partition, name);
        const existing = tx.get<StoredPeering>(T.peerings, key);
        if (existing?.DeletedAt)
          throw invalidField(
            'PeerName',
            `peering "${name}" is being deleted; try again when it is gone (rule: peering-not-deleting)`,
          );
        if (existing && existing.Role === 'dialer')
          throw invalidField(
            'PeerName',
            `peering "${name}" was established from the peer's token; a token cannot be generated for it (rule: acceptor-only)`,
          );
        const p: StoredPeering = existing
          ? { ...existing, Meta: meta ?? existing.Meta }
          : {
              ID: newId(),
              Name: name,
              Partition: partition,
              State: 'INITIAL',
              PeerID: '',
              PeerServerName: '',
              PeerServerAddresses: [],
              Meta: meta ?? {},
              Role: 'acceptor',
              RemoteAddresses: [],
              RemoteDatacenter: '',
            };
        const prior = tx.get<StoredPeeringSecrets>(T.peeringSecrets, p.ID);
        tx.put(T.peeringSecrets, p.ID, {
          ...prior,
          PeeringID: p.ID,
          Establishment: secret,
        } satisfies StoredPeeringSecrets);
        return tx.put(T.peerings, key, p);
      });
      const token = encodePeeringToken({
        CA: rc.tls ? rc.tls.caPems : null,
        ServerAddresses: [hostPort(rc.selfAddress())],
        ServerName: peeringServerName(rc.datacenter, rc.trustDomain),
        PeerID: peering.ID,
        EstablishmentSecret: secret,
        Remote: { Partition: partition, Datacenter: rc.datacenter },
      });
      return { body: { PeeringToken: token } };
    },
    { acl: BODY_TOKEN },
  );

  router.add(
    'POST',
    '/v1/peering/establish',
    async (ctx) => {
      const body = await bodyObject(ctx);
      refuse(validatePeeringEstablish(body));
      checkTypes(PeeringEstablishRequestSchema, body);
      const name = body['PeerName'] as string;
      const { partition, meta } = commonFields(rc, body);
      const token = decodePeeringToken(body['PeeringToken'] as string);
      if (token.ServerName.endsWith(`.${rc.trustDomain}`))
        throw invalidField(
          'PeeringToken',
          'was generated by this registry; a registry cannot peer with itself (rule: other-cluster)',
        );
      const key = peeringKey(partition, name);
      const checkName = (existing: StoredPeering | undefined): void => {
        if (!existing) return;
        if (existing.DeletedAt)
          throw invalidField(
            'PeerName',
            `peering "${name}" is being deleted; try again when it is gone (rule: peering-not-deleting)`,
          );
        if (existing.Role === 'acceptor')
          throw invalidField(
            'PeerName',
            `a peering named "${name}" already exists here and accepts a token of its own (rule: unique)`,
          );
        if (existing.State !== 'TERMINATED')
          throw invalidField('PeerName', `peering "${name}" is already established (rule: unique)`);
      };
      checkName(store.get<StoredPeering>(T.peerings, key));
      const id = store.get<StoredPeering>(T.peerings, key)?.ID ?? newId();

      let answer: ExchangeResponse;
      try {
        answer = await callPeer<ExchangeResponse>(
          { addresses: token.ServerAddresses, caPems: token.CA },
          EXCHANGE_PATH,
          {
            PeerID: token.PeerID,
            EstablishmentSecret: token.EstablishmentSecret,
            Dialer: {
              PeeringID: id,
              ServerName: peeringServerName(rc.datacenter, rc.trustDomain),
              ServerAddresses: [hostPort(rc.selfAddress())],
              Datacenter: rc.datacenter,
              CA: rc.tls ? rc.tls.caPems : null,
            },
          },
          rc.tls,
        );
      } catch (err) {
        if (err instanceof PeerRejected)
          throw invalidField('PeeringToken', `was rejected by the peer: ${err.message}`);
        throw unreachable(token.ServerAddresses, err);
      }
      store.write((tx) => {
        checkName(tx.get<StoredPeering>(T.peerings, key));
        tx.put(T.peeringSecrets, id, {
          PeeringID: id,
          Stream: answer.StreamSecret,
        } satisfies StoredPeeringSecrets);
        tx.put(T.peerings, key, {
          ID: id,
          Name: name,
          Partition: partition,
          State: 'ACTIVE',
          PeerID: answer.PeeringID,
          PeerServerName: answer.ServerName,
          PeerServerAddresses: token.ServerAddresses,
          Meta: meta ?? {},
          Role: 'dialer',
          RemoteAddresses: token.ServerAddresses,
          RemoteDatacenter: answer.Datacenter,
          ...(token.CA?.length ? { PeerCAPems: token.CA } : {}),
        } satisfies StoredPeering);
      });
      return { body: {} };
    },
    { acl: BODY_TOKEN },
  );

  const keyOf = (ctx: RequestContext): string =>
    peeringKey(partitionOf('partition', ctx.query.get('partition')), ctx.params['name']!);

  router.add('GET', '/v1/peering/:name', (ctx) => {
    const p = store.get<StoredPeering>(T.peerings, keyOf(ctx));
    if (!p) throw notFound(`Peering not found for "${ctx.params['name']!}"`);
    return { body: renderPeering(p), index: store.keyIndex(T.peerings, keyOf(ctx)) };
  });

  router.add('DELETE', '/v1/peering/:name', (ctx) => {
    const key = keyOf(ctx);
    const { result: deleted } = store.write((tx) => {
      const p = tx.get<StoredPeering>(T.peerings, key);
      if (!p || p.DeletedAt) return undefined;
      const stream = tx.get<StoredPeeringSecrets>(T.peeringSecrets, p.ID)?.Stream;
      const notify = !!stream && !!p.PeerID && p.RemoteAddresses.length > 0 && p.State !== 'TERMINATED';
      const updated = tx.put(T.peerings, key, {
        ...p,
        State: 'TERMINATED',
        DeletedAt: nowIso(),
        ...(notify ? { NotifyPeer: true } : {}),
      } satisfies StoredPeering);
      return { peering: updated, stream: notify ? stream : undefined };
    });
    if (deleted) {
      const { peering, stream } = deleted;
      if (stream) notifyPeer(rc, peerOf(peering), peering.PeerID, stream);
      scheduleCleanup(rc, peering.Partition, peering.Name, peering.ID);
    }
    return { rawBody: '', contentType: 'application/json' };
  });

  router.add('GET', '/v1/peerings', (ctx) => {
    partitionOf('partition', ctx.query.get('partition'));
    const all = store.list<StoredPeering>(T.peerings);
    const visible = authOf(rc, ctx).can('peering:read', 'default') ? all : [];
    const headers: Record<string, string> =
      visible.length < all.length ? { 'X-Reg-Results-Filtered-By-ACLs': 'true' } : {};
    return {
      body: applyFilter(ctx, visible.map(renderPeering)),
      index: store.tableIndex(T.peerings),
      headers,
    };
  });
}
