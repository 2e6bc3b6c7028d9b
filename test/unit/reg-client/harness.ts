/** A registry client pointed at a node:http server that records requests and answers as each test says. */
import { RegClient, type RegClientOptions } from '../../../src/api/reg';
import { json, startTestServer, type Recorded, type TestServer } from '../../helpers/http-server';

export interface Harness {
  srv: TestServer;
  client(opts?: RegClientOptions): RegClient;
  /** Answer every request with this JSON body, status and headers. */
  answer(body: unknown, headers?: Record<string, string>, status?: number): void;
  last(): Recorded;
  close(): Promise<void>;
}

export async function harness(): Promise<Harness> {
  const srv = await startTestServer();
  const clients: RegClient[] = [];
  return {
    srv,
    client(opts = {}) {
      const c = new RegClient({ address: srv.url, env: {}, retries: { max: 0 }, ...opts });
      clients.push(c);
      return c;
    },
    answer(body, headers = {}, status = 200) {
      srv.handle((_req, res) => json(res, status, body, headers));
    },
    last() {
      const r = srv.requests[srv.requests.length - 1];
      if (!r) throw new Error('no request reached the server');
      return r;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await srv.close();
    },
  };
}

export function bodyOf(r: Recorded): unknown {
  return r.body === '' ? undefined : JSON.parse(r.body);
}

export const authMethod = {
  Name: 'minikube',
  Type: 'kubernetes',
  Description: 'dev cluster',
  Config: {
    Host: 'https://192.0.2.42:8443',
    CACert: '-----BEGIN CERTIFICATE-----',
    ServiceAccountJWT: 'eyJhbGciOi',
  },
  CreateIndex: 15,
  ModifyIndex: 15,
};

export const namespace = {
  Name: 'team-1',
  Description: 'Namespace for Team 1',
  ACLs: {
    PolicyDefaults: [{ ID: '77117cf6-d976-79b0-d63b-5a36ac69c8f1', Name: 'pol-a' }],
    RoleDefaults: [{ ID: '39d7e8e6-68d5-4e4b-8a3b-1c1c9a1ad8f1', Name: 'role-a' }],
  },
  Meta: { foo: 'bar' },
  CreateIndex: 55,
  ModifyIndex: 55,
};

export const peering = {
  ID: '462c45e8-018e-f19d-85eb-1fc1bcc2ef12',
  Name: 'cluster-02',
  State: 'ACTIVE',
  PeerID: 'e83a315c-027e-bcb1-7c0c-a46650904a05',
  PeerServerName: 'server.dc1.consul',
  PeerServerAddresses: ['10.0.0.1:8300'],
  Meta: { env: 'production' },
  CreateIndex: 89,
  ModifyIndex: 89,
};

/** A router in front of a splitter in front of two subset resolvers, with a failover; shaped like Consul's. */
export const chain = {
  ServiceName: 'web',
  Namespace: 'default',
  Datacenter: 'dc1',
  Protocol: 'http',
  StartNode: 'router:web.default',
  Nodes: {
    'router:web.default': {
      Type: 'router',
      Name: 'web.default',
      Routes: [
        {
          Definition: {
            Match: { HTTP: { PathPrefix: '/admin', Header: [{ Name: 'x-debug', Exact: '1' }] } },
            Destination: {
              Service: 'admin',
              PrefixRewrite: '/',
              RequestTimeout: '15s',
              NumRetries: 3,
              RetryOnStatusCodes: [503],
            },
          },
          NextNode: 'resolver:admin.default.default.dc1',
        },
        {
          Definition: { Match: { HTTP: { PathPrefix: '/' } }, Destination: { Service: 'web' } },
          NextNode: 'splitter:web.default',
        },
      ],
    },
    'splitter:web.default': {
      Type: 'splitter',
      Name: 'web.default',
      Splits: [
        { Weight: 90, NextNode: 'resolver:v1.web.default.default.dc1' },
        { Weight: 10, NextNode: 'resolver:v2.web.default.default.dc1' },
      ],
    },
    'resolver:v1.web.default.default.dc1': {
      Type: 'resolver',
      Name: 'v1.web.default.default.dc1',
      Resolver: {
        ConnectTimeout: '5s',
        Target: 'v1.web.default.default.dc1',
        Failover: { Targets: ['v1.web.default.default.dc2'] },
      },
    },
    'resolver:v2.web.default.default.dc1': {
      Type: 'resolver',
      Name: 'v2.web.default.default.dc1',
      Resolver: { ConnectTimeout: '5s', Target: 'v2.web.default.default.dc1', Failover: null },
    },
    'resolver:admin.default.default.dc1': {
      Type: 'resolver',
      Name: 'admin.default.default.dc1',
      Resolver: { Default: true, ConnectTimeout: '5s', Target: 'admin.default.default.dc1' },
    },
  },
  Targets: {
    'v1.web.default.default.dc1': target(
      'v1.web.default.default.dc1',
      'web',
      'v1',
      'dc1',
      'Service.Meta.version == v1',
    ),
    'v1.web.default.default.dc2': target(
      'v1.web.default.default.dc2',
      'web',
      'v1',
      'dc2',
      'Service.Meta.version == v1',
    ),
    'v2.web.default.default.dc1': target(
      'v2.web.default.default.dc1',
      'web',
      'v2',
      'dc1',
      'Service.Meta.version == v2',
    ),
    'admin.default.default.dc1': target('admin.default.default.dc1', 'admin', '', 'dc1', ''),
  },
};

function target(
  id: string,
  service: string,
  subset: string,
  dc: string,
  filter: string,
): Record<string, unknown> {
  return {
    ID: id,
    Service: service,
    ServiceSubset: subset,
    Namespace: 'default',
    Datacenter: dc,
    MeshGateway: {},
    Subset: filter ? { Filter: filter } : {},
    SNI: `${subset ? `${subset}.` : ''}${service}.default.${dc}.internal.11111111-2222-3333-4444-555555555555.consul`,
    Name: `${subset ? `${subset}.` : ''}${service}.default.${dc}.internal.11111111-2222-3333-4444-555555555555.consul`,
  };
}
