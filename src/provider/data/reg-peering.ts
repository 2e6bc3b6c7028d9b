/** Data source reg_peering: a cluster peering of the registry, by peer name, in whatever state it is. */
import { z } from 'zod';
import type { Config, DataSourceHandler, State } from '../resource';
import { attr } from '../schema';
import { DiagnosticsError } from '../values';
import type { RegContext } from '../reg/context';
import { peerName, readPeering } from '../reg/peering-common';
import { guarded } from '../reg/redact';
import { validateShape } from '../common/shape';

export const PEERING_DATA_DESCRIPTION = 'Reads a cluster peering of the service registry.';

export const peeringDataShape = {
  peer_name: attr(peerName, { required: true, description: 'Name of the peer.' }),
  partition: attr(z.string(), { optional: true, description: 'Partition of the peering.' }),
  id: attr(z.string(), { computed: true, description: 'ID of the peering on this registry.' }),
  state: attr(z.string(), { computed: true, description: 'INITIAL, ACTIVE, TERMINATED, ...' }),
  peer_id: attr(z.string(), { computed: true, description: "ID of the peering on the peer's side." }),
  peer_server_name: attr(z.string(), { computed: true, description: 'Server name of the peer.' }),
  peer_server_addresses: attr(z.array(z.string()), {
    computed: true,
    description: 'Addresses of the peer servers.',
  }),
  meta: attr(z.record(z.string(), z.string()), { computed: true, description: 'Metadata of the peering.' }),
  deleted_at: attr(z.string(), { computed: true, description: 'When the peering was marked for deletion.' }),
};

export function peeringDataSource(rc: RegContext): DataSourceHandler {
  return {
    typeName: 'reg_peering',
    description: PEERING_DATA_DESCRIPTION,
    shape: peeringDataShape,
    validate: (config: Config) => validateShape(peeringDataShape, config),
    async read(config: Config): Promise<State> {
      const name = String(config['peer_name']);
      const p = await guarded(`reading peering "${name}"`, rc.redactor, () =>
        readPeering(rc, name, config['partition']),
      );
      if (!p) {
        throw new DiagnosticsError([
          { severity: 'error', summary: `No peering named "${name}"`, path: ['peer_name'] },
        ]);
      }
      return {
        peer_name: p.Name,
        partition: p.Partition ?? config['partition'] ?? null,
        id: p.ID,
        state: p.State,
        peer_id: p.PeerID ?? '',
        peer_server_name: p.PeerServerName ?? '',
        peer_server_addresses: p.PeerServerAddresses ?? [],
        meta: p.Meta ?? {},
        deleted_at: p.DeletedAt ?? null,
      };
    },
  };
}
