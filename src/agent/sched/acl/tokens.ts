/** Creating and validating ACL tokens, with Nomad's rules. */
import { createHash } from 'node:crypto';
import { badRequest } from '../../http/errors';
import { newId } from '../../ids';
import type { Txn } from '../../store';
import type { AclTokenRecord, BootstrapState } from './model';
import { ACL_T, BOOTSTRAP_KEY } from './tables';

export const MIN_TTL_NS = 60e9;
export const MAX_TTL_NS = 24 * 3600e9;

export interface TokenInput {
  AccessorID?: string;
  SecretID?: string;
  Name?: string;
  Type?: string;
  Policies?: string[] | null;
  Global?: boolean;
  ExpirationTTL?: number;
  ExpirationTime?: string | null;
}

function hashOf(t: Pick<AclTokenRecord, 'Name' | 'Type' | 'Policies' | 'Global'>): string {
  const h = createHash('sha256');
  h.update(t.Name).update('\0').update(t.Type).update('\0');
  for (const p of t.Policies ?? []) h.update(p).update('\0');
  h.update(t.Global ? 'global' : 'local');
  return h.digest('base64');
}

/** Builds the stored token from a request, checking what Nomad's ACLToken.Validate checks. */
export function buildToken(
  input: TokenInput,
  prev: AclTokenRecord | undefined,
  nowMs: number,
): AclTokenRecord {
  const type = input.Type ?? prev?.Type ?? 'client';
  if (type !== 'client' && type !== 'management')
    throw badRequest(`Type: token type must be "client" or "management", got "${type}"`);
  const name = input.Name ?? prev?.Name ?? '';
  if (name.length > 256) throw badRequest('Name: token name too long (at most 256 characters)');
  const policies = input.Policies === undefined ? (prev?.Policies ?? null) : input.Policies;
  const list = [...new Set(policies ?? [])];
  if (type === 'client' && list.length === 0)
    throw badRequest('Policies: client token missing policies or roles');
  if (type === 'management' && list.length > 0)
    throw badRequest('Policies: management token cannot be associated with policies');
  let expiration = prev?.ExpirationTime ?? null;
  let ttl = prev?.ExpirationTTL ?? 0;
  if (!prev) {
    if (input.ExpirationTTL) {
      if (input.ExpirationTTL < MIN_TTL_NS)
        throw badRequest('ExpirationTTL: expiration time cannot be less than 1m0s in the future');
      if (input.ExpirationTTL > MAX_TTL_NS)
        throw badRequest('ExpirationTTL: expiration time cannot be more than 24h0m0s in the future');
      ttl = input.ExpirationTTL;
      expiration = new Date(nowMs + ttl / 1e6).toISOString();
    } else if (input.ExpirationTime) {
      const at = Date.parse(input.ExpirationTime);
      if (Number.isNaN(at)) throw badRequest('ExpirationTime: must be an RFC 3339 time');
      if (at - nowMs < MIN_TTL_NS / 1e6)
        throw badRequest('ExpirationTime: expiration time cannot be less than 1m0s in the future');
      expiration = new Date(at).toISOString();
    }
  }
  const base = {
    Name: name,
    Type: type as AclTokenRecord['Type'],
    Policies: list.length > 0 ? list : null,
    Global: input.Global ?? prev?.Global ?? false,
  };
  return {
    AccessorID: prev?.AccessorID ?? newId(),
    SecretID: prev?.SecretID ?? input.SecretID ?? newId(),
    ...base,
    Roles: null,
    Hash: hashOf(base),
    CreateTime: prev?.CreateTime ?? new Date(nowMs).toISOString(),
    ExpirationTime: expiration,
    ExpirationTTL: ttl,
    CreateIndex: prev?.CreateIndex ?? 0,
    ModifyIndex: 0,
  };
}

/** Creates the first management token; refused once the cluster is bootstrapped. */
export function bootstrapToken(tx: Txn, secret: string | undefined, nowMs: number): AclTokenRecord {
  const done = tx.get<BootstrapState>(ACL_T.bootstrap, BOOTSTRAP_KEY);
  if (done) throw badRequest(`ACL bootstrap already done (reset index: ${done.ResetIndex})`);
  const token = buildToken(
    { Name: 'Bootstrap Token', Type: 'management', Global: true, SecretID: secret },
    undefined,
    nowMs,
  );
  const stored = tx.put(ACL_T.tokens, token.AccessorID, token);
  tx.put(ACL_T.bootstrap, BOOTSTRAP_KEY, { ResetIndex: tx.index });
  return stored;
}
