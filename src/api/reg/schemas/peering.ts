import { z } from 'zod';
import { StringMapSchema, maybe } from './common';

/** States seen in the spec; others may exist (Consul adds PENDING, ESTABLISHING, FAILING, DELETING). */
export const PEERING_STATES = ['INITIAL', 'ACTIVE', 'TERMINATED'] as const;

export const PeeringSchema = z.looseObject({
  ID: z.string(),
  Name: z.string(),
  Partition: maybe(z.string()),
  State: z.string(),
  PeerID: maybe(z.string()),
  PeerServerName: maybe(z.string()),
  PeerServerAddresses: maybe(z.array(z.string())),
  PeerCAPems: maybe(z.array(z.string())),
  Meta: maybe(StringMapSchema),
  DeletedAt: maybe(z.string()),
  /** Health of the replication stream (Consul 1.14+): last heartbeat, send and receive times. */
  StreamStatus: maybe(
    z.looseObject({
      ImportedServices: maybe(z.array(z.string())),
      ExportedServices: maybe(z.array(z.string())),
      LastHeartbeat: maybe(z.string()),
      LastReceive: maybe(z.string()),
      LastSend: maybe(z.string()),
    }),
  ),
  /** What the peer told about itself at establishment (Consul 1.15+). */
  Remote: maybe(z.looseObject({ Partition: maybe(z.string()), Datacenter: maybe(z.string()) })),
  CreateIndex: z.number(),
  ModifyIndex: z.number(),
});
export type Peering = z.infer<typeof PeeringSchema>;

export const PeeringTokenResponseSchema = z.looseObject({ PeeringToken: z.string() });
export type PeeringTokenResponse = z.infer<typeof PeeringTokenResponseSchema>;

/** `Token` in the body beats every other token source (spec section 5). */
export const PeeringGenerateTokenRequestSchema = z.looseObject({
  PeerName: z.string(),
  Partition: z.string().optional(),
  Datacenter: z.string().optional(),
  Token: z.string().optional(),
  Meta: StringMapSchema.optional(),
});
export type PeeringGenerateTokenRequest = z.infer<typeof PeeringGenerateTokenRequestSchema>;

export const PeeringEstablishRequestSchema = PeeringGenerateTokenRequestSchema.extend({
  PeeringToken: z.string(),
});
export type PeeringEstablishRequest = z.infer<typeof PeeringEstablishRequestSchema>;
