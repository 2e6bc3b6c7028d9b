/**
 * Compiles the config entries of a service into its discovery chain, following Consul's
 * discoverychain compiler: router -> splitter(s) -> resolver nodes, targets with SNI, default resolvers
 * synthesized where none is configured, redirects and default subsets applied, failover targets, nested
 * splitters flattened, and the overrides an upstream may ask for (protocol, connect timeout, gateway mode).
 */
import { createHash } from 'node:crypto';
import { parseDurationMs } from '../../../api/reg/rules';
import type { ServiceResolverEntry, TargetOpts } from '../config/types';
import { isL7 } from '../config/types';
import { goDuration } from '../request';
import type { EntryReader } from './entries';
import { ChainError } from './errors';
import {
  detectCycles,
  flattenSplitters,
  keyOf,
  removeUnused,
  renderNode,
  type Node,
  type ResolverNode,
  type RouterNode,
  type SplitterNode,
} from './nodes';
import {
  optsOf,
  renderTarget,
  rewrite,
  targetId,
  PARTITION,
  targetSni,
  type ResolvedOpts,
  type Target,
} from './targets';

export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export { ChainError };

export interface CompileRequest {
  serviceName: string;
  namespace: string;
  datacenter: string;
  trustDomain: string;
  entries: EntryReader;
  overrideProtocol?: string;
  overrideConnectTimeoutMs?: number;
  overrideMeshGatewayMode?: string;
}

const serviceIdString = (name: string, ns: string): string => `${name}.${ns}`;
const ms = (d: string | undefined): number => (d ? (parseDurationMs(d) ?? 0) : 0);

function isDefaultResolver(r: ServiceResolverEntry): boolean {
  return (
    !r.DefaultSubset &&
    Object.keys(r.Subsets ?? {}).length === 0 &&
    r.Redirect === undefined &&
    Object.keys(r.Failover ?? {}).length === 0 &&
    ms(r.ConnectTimeout) === 0 &&
    ms(r.RequestTimeout) === 0 &&
    r.LoadBalancer === undefined
  );
}

class Compiler {
  private readonly nodes = new Map<string, Node>();
  private readonly targets = new Map<string, Target>();
  private readonly retained = new Set<string>();
  private readonly splitterNodes = new Map<string, SplitterNode>();
  private readonly resolveNodes = new Map<string, ResolverNode>();
  private protocol = '';
  private usesAdvanced = false;
  private readonly disableAdvanced: boolean;
  private readonly customized = { meshGateway: false, protocol: false, connectTimeout: false };
  private startNode = '';

  constructor(private readonly req: CompileRequest) {
    this.disableAdvanced = req.overrideProtocol ? !isL7(req.overrideProtocol) : false;
  }

  compile(): Record<string, unknown> {
    this.assemble();
    detectCycles(this.nodes, this.startNode);
    flattenSplitters(this.nodes);
    removeUnused(this.nodes, this.startNode);
    for (const id of [...this.targets.keys()]) if (!this.retained.has(id)) this.targets.delete(id);
    if (!isL7(this.protocol) && this.usesAdvanced) {
      throw new ChainError(
        `discovery chain "${this.req.serviceName}" uses a protocol "${this.protocol}" that does not permit advanced routing or splitting behavior`,
      );
    }
    if (this.req.overrideProtocol && this.req.overrideProtocol !== this.protocol) {
      this.protocol = this.req.overrideProtocol;
      this.customized.protocol = true;
    }
    const chain: Record<string, unknown> = {
      ServiceName: this.req.serviceName,
      Namespace: this.req.namespace,
      Partition: PARTITION,
      Datacenter: this.req.datacenter,
    };
    const hash = this.customizationHash();
    if (hash) chain['CustomizationHash'] = hash;
    chain['Default'] = this.isDefaultChain();
    chain['Protocol'] = this.protocol;
    const meta = this.req.entries.serviceDefaults(this.req.namespace, this.req.serviceName)?.Meta;
    if (meta) chain['ServiceMeta'] = meta;
    chain['StartNode'] = this.startNode;
    chain['Nodes'] = Object.fromEntries(
      [...this.nodes].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => [k, renderNode(n)]),
    );
    chain['Targets'] = Object.fromEntries(
      [...this.targets]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, t]) => [k, renderTarget(t, goDuration)]),
    );
    return chain;
  }

  private customizationHash(): string | undefined {
    const c = this.customized;
    if (!c.meshGateway && !c.protocol && !c.connectTimeout) return undefined;
    const what = {
      OverrideMeshGateway: { Mode: c.meshGateway ? (this.req.overrideMeshGatewayMode ?? '') : '' },
      OverrideProtocol: c.protocol ? (this.req.overrideProtocol ?? '') : '',
      OverrideConnectTimeout: c.connectTimeout ? (this.req.overrideConnectTimeoutMs ?? 0) : 0,
    };
    return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 8);
  }

  private isDefaultChain(): boolean {
    const node = this.nodes.get(this.startNode);
    if (!node || node.Type !== 'resolver' || !node.Resolver.Default) return false;
    const t = this.targets.get(node.Resolver.Target);
    return t !== undefined && t.Service === this.req.serviceName && t.Namespace === this.req.namespace;
  }

  private record(node: Node): void {
    if (node.Type === 'splitter') this.splitterNodes.set(node.Name, node);
    if (node.Type === 'resolver') this.resolveNodes.set(node.Resolver.Target, node);
    this.nodes.set(keyOf(node), node);
  }

  private recordServiceProtocol(service: string, ns: string): void {
    const sd = this.req.entries.serviceDefaults(ns, service);
    let protocol: string;
    if (sd) protocol = sd.Protocol ?? '';
    else {
      const p = this.req.entries.proxyDefaults()?.Config?.['protocol'];
      protocol = typeof p === 'string' ? p : '';
    }
    protocol = protocol === '' ? 'tcp' : protocol.toLowerCase();
    if (this.protocol === '') this.protocol = protocol;
    else if (this.protocol !== protocol) {
      throw new ChainError(
        `discovery chain "${this.req.serviceName}" uses inconsistent protocols; service "${serviceIdString(service, ns)}" has "${protocol}" which is not "${this.protocol}"`,
      );
    }
  }

  private newTarget(o: Partial<ResolvedOpts> & { Service: string }): Target {
    const opts: ResolvedOpts = o.Peer
      ? {
          Service: o.Service,
          ServiceSubset: o.ServiceSubset ?? '',
          Namespace: o.Namespace || 'default',
          Datacenter: '',
          Peer: o.Peer,
        }
      : {
          Service: o.Service,
          ServiceSubset: o.ServiceSubset ?? '',
          Namespace: o.Namespace || this.req.namespace,
          Datacenter: o.Datacenter || this.req.datacenter,
          Peer: '',
        };
    const id = targetId(opts);
    const prev = this.targets.get(id);
    if (prev) return prev;
    const sni = opts.Peer ? '' : targetSni(opts, this.req.trustDomain);
    const t: Target = {
      ID: id,
      ...opts,
      MeshGateway: {},
      Subset: {},
      ConnectTimeoutMs: 0,
      External: false,
      SNI: sni,
      Name: sni,
    };
    this.targets.set(id, t);
    return t;
  }

  private rewriteTarget(t: Target, by: TargetOpts): Target {
    return this.newTarget(rewrite(optsOf(t), by));
  }

  private assemble(): void {
    const { serviceName, namespace } = this.req;
    let router = this.req.entries.router(namespace, serviceName);
    if (router && this.disableAdvanced) {
      router = undefined;
      this.customized.protocol = true;
    }
    if (!router) {
      this.startNode = keyOf(this.splitterOrResolver(this.newTarget({ Service: serviceName })));
      return;
    }
    const routerNs = router.Namespace;
    const node: RouterNode = { Type: 'router', Name: serviceIdString(router.Name, routerNs), Routes: [] };
    this.usesAdvanced = true;
    this.recordServiceProtocol(router.Name, routerNs);
    for (const route of router.Routes) {
      const dest = route.Destination ?? {};
      const svc = dest.Service || serviceName;
      const ns = dest.Namespace || routerNs;
      const next = dest.ServiceSubset
        ? this.resolverNode(
            this.newTarget({ Service: svc, ServiceSubset: dest.ServiceSubset, Namespace: ns }),
            false,
          )
        : this.splitterOrResolver(this.newTarget({ Service: svc, Namespace: ns }));
      node.Routes.push({ Definition: route, NextNode: keyOf(next) });
    }
    const fallback = this.splitterOrResolver(this.newTarget({ Service: router.Name, Namespace: routerNs }));
    node.Routes.push({
      Definition: {
        Match: { HTTP: { PathPrefix: '/' } },
        Destination: { Service: router.Name, Namespace: routerNs },
      },
      NextNode: keyOf(fallback),
    });
    this.startNode = keyOf(node);
    this.record(node);
  }

  private splitterOrResolver(t: Target): Node {
    return this.splitterNode(t.Service, t.Namespace) ?? this.resolverNode(t, false);
  }

  private splitterNode(service: string, ns: string): SplitterNode | undefined {
    const name = serviceIdString(service, ns);
    const prev = this.splitterNodes.get(name);
    if (prev) return prev;
    let splitter = this.req.entries.splitter(ns, service);
    if (splitter && this.disableAdvanced) {
      splitter = undefined;
      this.customized.protocol = true;
    }
    if (!splitter) return undefined;
    const node: SplitterNode = { Type: 'splitter', Name: name, Splits: [] };
    // Recorded before walking the splits, so a loop back to this splitter finds it instead of recursing.
    this.record(node);
    for (const split of splitter.Splits) {
      const svc = split.Service || service;
      const splitNs = split.Namespace || ns;
      const compiled = { Weight: split.Weight, NextNode: '' };
      node.Splits.push(compiled);
      if ((svc !== service || splitNs !== ns) && !split.ServiceSubset) {
        const nested = this.splitterNode(svc, splitNs);
        if (nested) {
          compiled.NextNode = keyOf(nested);
          continue;
        }
      }
      const next = this.resolverNode(
        this.newTarget({ Service: svc, ServiceSubset: split.ServiceSubset ?? '', Namespace: splitNs }),
        false,
      );
      compiled.NextNode = keyOf(next);
      if (!node.LoadBalancer && next.LoadBalancer && isHashBased(next.LoadBalancer))
        node.LoadBalancer = next.LoadBalancer;
    }
    this.usesAdvanced = true;
    return node;
  }

  private resolverNode(start: Target, forFailover: boolean): ResolverNode {
    let target = start;
    const history: string[] = [];
    for (;;) {
      const prev = this.resolveNodes.get(target.ID);
      if (prev) return prev;
      if (!target.Peer) this.recordServiceProtocol(target.Service, target.Namespace);
      const resolver: ServiceResolverEntry = this.req.entries.resolver(target.Namespace, target.Service) ?? {
        Kind: 'service-resolver',
        Name: target.Service,
        Namespace: target.Namespace,
      };
      if (history.includes(target.ID)) {
        throw new ChainError(
          `detected circular resolver redirect: [${[...history, target.ID].join(' -> ')}]`,
        );
      }
      history.push(target.ID);
      if (resolver.Redirect) {
        const redirected = this.rewriteTarget(target, resolver.Redirect);
        if (redirected.ID !== target.ID) {
          target = redirected;
          continue;
        }
      }
      if (!target.ServiceSubset && resolver.DefaultSubset) {
        target = this.rewriteTarget(target, { ServiceSubset: resolver.DefaultSubset });
        continue;
      }
      if (target.ServiceSubset && !(resolver.Subsets && target.ServiceSubset in resolver.Subsets)) {
        throw new ChainError(
          `service "${target.Service}" does not have a subset named "${target.ServiceSubset}"`,
        );
      }
      return this.buildResolverNode(target, resolver, forFailover);
    }
  }

  private buildResolverNode(
    target: Target,
    resolver: ServiceResolverEntry,
    forFailover: boolean,
  ): ResolverNode {
    let connectTimeout = ms(resolver.ConnectTimeout) || DEFAULT_CONNECT_TIMEOUT_MS;
    const override = this.req.overrideConnectTimeoutMs ?? 0;
    if (override > 0 && override !== connectTimeout) {
      connectTimeout = override;
      this.customized.connectTimeout = true;
    }
    target.ConnectTimeoutMs = connectTimeout;
    const node: ResolverNode = {
      Type: 'resolver',
      Name: target.ID,
      Resolver: { Default: isDefaultResolver(resolver), ConnectTimeoutMs: connectTimeout, Target: target.ID },
    };
    if (ms(resolver.RequestTimeout) > 0) node.Resolver.RequestTimeout = resolver.RequestTimeout;
    if (resolver.LoadBalancer) node.LoadBalancer = resolver.LoadBalancer;
    target.Subset = { ...(resolver.Subsets?.[target.ServiceSubset] ?? {}) };

    const sd = this.req.entries.serviceDefaults(target.Namespace, target.Service);
    if (sd?.ExternalSNI) {
      target.SNI = sd.ExternalSNI;
      target.External = true;
      const what = resolver.Redirect
        ? 'redirects'
        : Object.keys(resolver.Subsets ?? {}).length > 0
          ? 'subsets'
          : Object.keys(resolver.Failover ?? {}).length > 0
            ? 'failover'
            : '';
      if (what)
        throw new ChainError(
          `service "${target.Service}" has an external SNI set; cannot define ${what} for external services`,
        );
      target.MeshGateway = {};
    } else {
      target.MeshGateway = { ...(sd?.MeshGateway ?? {}) };
      if (!target.MeshGateway.Mode) {
        const pd = this.req.entries.proxyDefaults()?.MeshGateway?.Mode;
        if (pd) target.MeshGateway = { Mode: pd };
      }
      const mg = this.req.overrideMeshGatewayMode;
      if (mg && target.MeshGateway.Mode !== mg) {
        target.MeshGateway = { Mode: mg };
        this.customized.meshGateway = true;
      }
    }
    this.retained.add(target.ID);
    if (forFailover) return node;
    this.record(node);

    const failover = resolver.Failover?.[target.ServiceSubset] ?? resolver.Failover?.['*'];
    if (!failover) return node;
    const candidates: Target[] = [];
    const { Datacenters, Targets, ...base } = failover;
    if (Datacenters && Datacenters.length > 0) {
      for (const dc of Datacenters) candidates.push(this.rewriteTarget(target, { ...base, Datacenter: dc }));
    } else if (Targets && Targets.length > 0) {
      for (const t of Targets) candidates.push(this.rewriteTarget(target, t));
    } else candidates.push(this.rewriteTarget(target, base));
    const ids: string[] = [];
    for (const c of candidates) {
      if (c.ID === target.ID) continue; // never fail over to yourself
      ids.push(this.resolverNode(c, true).Resolver.Target);
    }
    if (ids.length > 0) node.Resolver.Failover = { Targets: ids };
    return node;
  }
}

function isHashBased(lb: Record<string, unknown>): boolean {
  return lb['Policy'] === 'ring_hash' || lb['Policy'] === 'maglev';
}

/** The compiled chain object (`Chain` of the response). Throws ChainError for an invalid entry graph. */
export function compileChain(req: CompileRequest): Record<string, unknown> {
  return new Compiler(req).compile();
}
