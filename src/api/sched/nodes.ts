import { z } from 'zod';
import type { Transport } from '../transport';
import { type PrefixListOptions, type ReadOptions, type Result } from './options';
import { seg } from './paths';
import { NodeSchema, NodeStubSchema, type Node, type NodeStub } from './schemas';
import { prefixListQuery } from './list-query';
import { requireNonEmpty } from './validate';

export interface NodeListOptions extends PrefixListOptions {
  /** Include NodeResources and ReservedResources (`resources=true`). */
  resources?: boolean;
  /** Include the OS attributes (`os=true`). */
  os?: boolean;
}

const NodeListSchema = z.array(NodeStubSchema);

/** `/v1/nodes` and `/v1/node/<id>` (as Nomad has them). */
export class NodesApi {
  constructor(private readonly t: Transport) {}

  /** `GET /v1/nodes`: node stubs (`Address`, not `HTTPAddr`; filter on the full node's names). */
  async list(opts: NodeListOptions = {}): Promise<Result<NodeStub[]>> {
    return this.t.get(
      '/v1/nodes',
      NodeListSchema,
      prefixListQuery(opts, {
        hexPrefix: true,
        keys: ['resources', 'os'],
        params: { resources: opts.resources || undefined, os: opts.os || undefined },
      }),
    );
  }

  /** `GET /v1/node/<id>`. */
  async read(id: string, opts: ReadOptions = {}): Promise<Result<Node>> {
    requireNonEmpty('nodeId', id);
    return this.t.get(`/v1/node/${seg(id)}`, NodeSchema, opts);
  }
}
