import { RequestValidationError, ResponseSchemaError } from '../../../src/api';
import { bodyOf, chain, harness, type Harness } from './harness';

describe('reg client: discovery chain', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('reads with GET, compile-dc and ns, and returns the typed chain with meta', async () => {
    h.answer({ Chain: chain }, { 'X-Reg-Index': '12' });
    const { value, meta } = await h
      .client()
      .discoveryChain.read('web', { compileDc: 'dc2', namespace: 'team-1', index: 5, wait: '1s' });
    const r = h.last();
    expect(r.method).toBe('GET');
    expect(r.url.pathname).toBe('/v1/discovery-chain/web');
    expect(r.url.searchParams.get('compile-dc')).toBe('dc2');
    expect(r.url.searchParams.get('ns')).toBe('team-1');
    expect(r.url.searchParams.get('index')).toBe('5');
    expect(r.body).toBe('');
    expect(meta.index).toBe(12);

    const start = value.Nodes[value.StartNode]!;
    expect(start.Type).toBe('router');
    if (start.Type !== 'router') throw new Error('narrowing');
    expect(start.Routes[0]!.Definition.Match?.HTTP?.Header?.[0]).toEqual({ Name: 'x-debug', Exact: '1' });
    expect(start.Routes[0]!.Definition.Destination?.RetryOnStatusCodes).toEqual([503]);
    expect(start.Routes.at(-1)!.Definition.Match?.HTTP?.PathPrefix).toBe('/');
    const split = value.Nodes['splitter:web.default'];
    expect(split?.Type === 'splitter' && split.Splits.map((s) => s.Weight)).toEqual([90, 10]);
    const v1 = value.Nodes['resolver:v1.web.default.default.dc1'];
    expect(v1?.Type === 'resolver' && v1.Resolver.Failover?.Targets).toEqual(['v1.web.default.default.dc2']);
    const v2 = value.Nodes['resolver:v2.web.default.default.dc1'];
    expect(v2?.Type === 'resolver' && v2.Resolver.Failover).toBeUndefined();
    expect(value.Targets['v2.web.default.default.dc1']?.Subset?.Filter).toBe('Service.Meta.version == v2');
  });

  it('POSTs the overrides, keeping read parameters in the query', async () => {
    h.answer({ Chain: { ...chain, CustomizationHash: 'abc123', Protocol: 'grpc' } }, { 'X-Reg-Index': '13' });
    const overrides = {
      OverrideConnectTimeout: '7s',
      OverrideProtocol: 'grpc',
      OverrideMeshGateway: { Mode: 'remote' },
    };
    const { value, meta } = await h
      .client()
      .discoveryChain.read('web', { compileDc: 'dc1', overrides, index: 3, namespace: 'team-1' });
    const r = h.last();
    expect(r.method).toBe('POST');
    expect(r.url.pathname).toBe('/v1/discovery-chain/web');
    expect(r.url.searchParams.get('compile-dc')).toBe('dc1');
    expect(r.url.searchParams.get('index')).toBe('3');
    expect(r.url.searchParams.get('ns')).toBe('team-1');
    expect(bodyOf(r)).toEqual(overrides);
    expect(value.CustomizationHash).toBe('abc123');
    expect(meta.index).toBe(13);
  });

  it('uses GET when every override is empty, as Consul does', async () => {
    h.answer({ Chain: chain });
    await h
      .client()
      .discoveryChain.read('web', { overrides: { OverrideProtocol: '', OverrideMeshGateway: {} } });
    expect(h.last().method).toBe('GET');
    expect(h.last().url.searchParams.has('compile-dc')).toBe(false);
  });

  it('names the node field when the chain breaks the schema', async () => {
    const bad = structuredClone(chain) as { Nodes: Record<string, Record<string, unknown>> };
    bad.Nodes['splitter:web.default']!['Splits'] = [{ Weight: 'ninety', NextNode: 'x' }];
    h.answer({ Chain: bad });
    const err = await h
      .client()
      .discoveryChain.read('web')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseSchemaError);
    expect((err as ResponseSchemaError).field).toBe('Chain.Nodes.splitter:web.default.Splits[0].Weight');
  });

  it('rejects an unknown node Type by naming the Type field', async () => {
    const bad = structuredClone(chain) as { Nodes: Record<string, Record<string, unknown>> };
    bad.Nodes['splitter:web.default']!['Type'] = 'shuffler';
    h.answer({ Chain: bad });
    const err = await h
      .client()
      .discoveryChain.read('web')
      .catch((e: unknown) => e);
    expect((err as ResponseSchemaError).field).toBe('Chain.Nodes.splitter:web.default.Type');
  });

  it.each([
    ['empty service', () => h.client().discoveryChain.read(''), 'service', /required/],
    [
      'bad connect timeout',
      () => h.client().discoveryChain.read('web', { overrides: { OverrideConnectTimeout: 'soon' } }),
      'OverrideConnectTimeout',
      /duration/,
    ],
    [
      'bad mesh gateway mode',
      () => h.client().discoveryChain.read('web', { overrides: { OverrideMeshGateway: { Mode: 'far' } } }),
      'OverrideMeshGateway.Mode',
      /one-of/,
    ],
  ])('refuses %s before any request', async (_l, call, field, rule) => {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).field).toBe(field);
    expect((err as RequestValidationError).rule).toMatch(rule);
    expect(h.srv.requests).toHaveLength(0);
  });
});
