/** GET/POST /v1/discovery-chain/<service> (spec 4.4). */
import { validateDiscoveryChainOverrides } from '../../../api/reg/validate';
import { blockingRead } from '../../http/blocking';
import { badRequest, invalidField } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { authOf, type RegContext } from '../context';
import { bodyObject, isObject, optDurationMs, optString, refuse, serviceName } from '../request';
import { T } from '../tables';
import { ChainError, compileChain, type CompileRequest } from './compile';
import { entryReader } from './entries';

type Overrides = Pick<
  CompileRequest,
  'overrideProtocol' | 'overrideConnectTimeoutMs' | 'overrideMeshGatewayMode'
>;

async function overrides(ctx: RequestContext): Promise<Overrides> {
  if (ctx.method !== 'POST') return {};
  const body = await bodyObject(ctx, true);
  refuse(validateDiscoveryChainOverrides(body));
  const out: Overrides = {};
  const protocol = optString(body, 'OverrideProtocol');
  if (protocol) out.overrideProtocol = protocol.toLowerCase();
  const timeout = optDurationMs(body, 'OverrideConnectTimeout');
  if (timeout) out.overrideConnectTimeoutMs = timeout;
  const mg = body['OverrideMeshGateway'];
  if (mg !== undefined && mg !== null && !isObject(mg))
    throw invalidField('OverrideMeshGateway', 'must be an object with Mode (rule: type)');
  if (isObject(mg) && typeof mg['Mode'] === 'string' && mg['Mode'] !== '')
    out.overrideMeshGatewayMode = mg['Mode'];
  return out;
}

export function addChainRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  const handler = async (ctx: RequestContext) => {
    const service = serviceName('service', ctx.params['service']);
    const namespace = authOf(rc, ctx).namespace(ctx);
    const datacenter = ctx.query.get('compile-dc') || rc.datacenter;
    const o = await overrides(ctx);
    return blockingRead(ctx, store, [{ table: T.configEntries }], () => {
      try {
        const chain = compileChain({
          serviceName: service,
          namespace,
          datacenter,
          trustDomain: rc.trustDomain,
          entries: entryReader(store),
          ...o,
        });
        return { value: { Chain: chain }, index: store.tableIndex(T.configEntries) };
      } catch (err) {
        // Writes keep the graph compilable; this only happens for overrides or entries of another namespace.
        if (err instanceof ChainError) throw badRequest(`discovery chain: ${err.message}`);
        throw err;
      }
    });
  };
  const meta = {
    acl: (ctx: RequestContext) => `service:${serviceName('service', ctx.params['service'])}:read`,
  };
  router.add(['GET', 'POST'], '/v1/discovery-chain/:service', handler, meta);
}
