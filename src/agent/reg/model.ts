/** Shapes of the registry's stored records. Durations are kept as milliseconds and rendered as Go strings. */

export interface Link {
  ID: string;
}

export interface StoredNamespace {
  Name: string;
  Description: string;
  ACLs?: { PolicyDefaults: Link[]; RoleDefaults: Link[] };
  Meta?: Record<string, string>;
  DeletedAt?: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface NamespaceRule {
  Selector: string;
  BindNamespace: string;
}

export interface StoredAuthMethod {
  Name: string;
  Type: string;
  DisplayName: string;
  Description: string;
  MaxTokenTTLMs: number;
  TokenLocality: string;
  Config: Record<string, unknown>;
  Namespace: string;
  NamespaceRules: NamespaceRule[];
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface StoredPolicy {
  ID: string;
  Name: string;
  Description: string;
  Rules: string;
  Datacenters: string[];
  Namespace: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface ServiceIdentity {
  ServiceName: string;
  Datacenters?: string[];
}

export interface NodeIdentity {
  NodeName: string;
  Datacenter: string;
}

export interface StoredRole {
  ID: string;
  Name: string;
  Description: string;
  Policies: Link[];
  ServiceIdentities: ServiceIdentity[];
  NodeIdentities: NodeIdentity[];
  Namespace: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface StoredToken {
  AccessorID: string;
  SecretID: string;
  Description: string;
  Policies: Link[];
  Roles: Link[];
  ServiceIdentities: ServiceIdentity[];
  NodeIdentities: NodeIdentity[];
  Local: boolean;
  AuthMethod?: string;
  AuthMethodNamespace?: string;
  /** Unix ms; absent means the token never expires. */
  ExpirationTimeMs?: number;
  CreateTimeMs: number;
  Namespace: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface StoredBindingRule {
  ID: string;
  Description: string;
  AuthMethod: string;
  Selector: string;
  BindType: string;
  BindName: string;
  Namespace: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export type PeeringState = 'INITIAL' | 'ESTABLISHING' | 'ACTIVE' | 'TERMINATED';

export interface StoredPeering {
  ID: string;
  Name: string;
  Partition: string;
  State: PeeringState;
  PeerID: string;
  PeerServerName: string;
  PeerServerAddresses: string[];
  /** CA certificates of a peer that serves TLS (from its token, or from the dialer at exchange). */
  PeerCAPems?: string[];
  Meta: Record<string, string>;
  DeletedAt?: string;
  /** Set with DeletedAt when the peer is to be told; a restarted agent tells it again. */
  NotifyPeer?: boolean;
  /** Which side made the connection; decides who learns of a deletion and how. */
  Role: 'acceptor' | 'dialer';
  /** Where the other side's registry answers internal calls (the acceptor learns it at exchange). */
  RemoteAddresses: string[];
  RemoteDatacenter: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface StoredPeeringSecrets {
  PeeringID: string;
  /** One-time secret carried by the latest token; consumed by the exchange. */
  Establishment?: string;
  /** Shared by both sides after the exchange; authenticates internal calls between them. */
  Stream?: string;
}

/** A config entry as stored: the request body normalized, plus Kind, Name and Namespace. */
export type StoredConfigEntry = {
  Kind: string;
  Name: string;
  Namespace: string;
  CreateIndex?: number;
  ModifyIndex?: number;
} & Record<string, unknown>;
