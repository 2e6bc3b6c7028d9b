/**
 * The peering token: base64 of JSON carrying what the dialing side needs to reach the accepting registry
 * (its addresses and server name), which peering it answers for, and a one-time establishment secret.
 * Field names follow Consul's structs.PeeringToken.
 */
import { z } from 'zod';
import { invalidField } from '../../http/errors';

export const PeeringTokenDataSchema = z.object({
  CA: z.array(z.string()).nullable(),
  ServerAddresses: z.array(z.string().min(1)).min(1),
  ServerName: z.string().min(1),
  PeerID: z.string().min(1),
  EstablishmentSecret: z.string().min(1),
  Remote: z.object({ Partition: z.string(), Datacenter: z.string() }),
});
export type PeeringTokenData = z.infer<typeof PeeringTokenDataSchema>;

export function encodePeeringToken(data: PeeringTokenData): string {
  return Buffer.from(JSON.stringify(data), 'utf8').toString('base64');
}

/** A token that is not base64 JSON of the expected shape is a 400 naming PeeringToken. */
export function decodePeeringToken(token: string): PeeringTokenData {
  let json: unknown;
  try {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token.trim())) throw new Error('not base64');
    json = JSON.parse(Buffer.from(token.trim(), 'base64').toString('utf8'));
  } catch {
    throw invalidField(
      'PeeringToken',
      'is not a valid peering token: it must be the base64 text that /v1/peering/token returned (rule: peering-token)',
    );
  }
  const parsed = PeeringTokenDataSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidField(
      'PeeringToken',
      `is not a valid peering token: ${issue.path.join('.') || 'token'} ${issue.message} (rule: peering-token)`,
    );
  }
  return parsed.data;
}

/** Consul's peering server name: `server.<datacenter>.peering.<trust domain>`. */
export const peeringServerName = (datacenter: string, trustDomain: string): string =>
  `server.${datacenter}.peering.${trustDomain}`;

/** `host:port` of a base URL such as `http://127.0.0.1:8500`. */
export function hostPort(baseUrl: string): string {
  return new URL(baseUrl).host;
}
