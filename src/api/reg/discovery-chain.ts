import type { QueryOptions, Result, Transport } from '../transport';
import { checkBody, refuse, segment } from './request';
import {
  DiscoveryChainOverridesSchema,
  DiscoveryChainResponseSchema,
  type CompiledDiscoveryChain,
  type DiscoveryChainOverrides,
} from './schemas';
import { hasDiscoveryChainOverrides, validateDiscoveryChainOverrides } from './validate';

export interface DiscoveryChainReadOptions extends QueryOptions {
  /** Datacenter that is the basis of compilation (`compile-dc`); the queried agent's when absent. */
  compileDc?: string;
  overrides?: DiscoveryChainOverrides;
}

/** The compiled discovery chain (spec 4.4). */
export class DiscoveryChains {
  constructor(private readonly t: Transport) {}

  /**
   * GET without overrides; POST when an override actually changes something (GET cannot carry a body).
   * Both are reads, so both return the query meta and accept blocking-query options.
   */
  async read(service: string, opts: DiscoveryChainReadOptions = {}): Promise<Result<CompiledDiscoveryChain>> {
    const path = `/v1/discovery-chain/${segment('service', service)}`;
    const { compileDc, overrides, ...query } = opts;
    const params = { ...(query.params ?? {}), 'compile-dc': compileDc || undefined };
    if (overrides !== undefined) {
      checkBody(DiscoveryChainOverridesSchema, overrides);
      refuse(validateDiscoveryChainOverrides(overrides));
    }
    if (overrides === undefined || !hasDiscoveryChainOverrides(overrides)) {
      const res = await this.t.get(path, DiscoveryChainResponseSchema, { ...query, params });
      return { value: res.value.Chain, meta: res.meta };
    }
    const res = await this.t.query('POST', path, overrides, DiscoveryChainResponseSchema, {
      ...query,
      params,
    });
    return { value: res.value.Chain, meta: res.meta };
  }
}
