/** Data source reg_namespace: a namespace of the registry, by name. */
import { z } from 'zod';
import { NotFoundError } from '../../api/errors';
import type { Config, DataSourceHandler, State } from '../resource';
import { attr } from '../schema';
import { DiagnosticsError } from '../values';
import { orNull } from '../reg/compare';
import type { RegContext } from '../reg/context';
import { guarded } from '../reg/redact';
import { validateShape } from '../common/shape';

export const NAMESPACE_DATA_DESCRIPTION = 'Reads a namespace of the service registry.';

export const namespaceDataShape = {
  name: attr(z.string().min(1), { required: true, description: 'Name of the namespace.' }),
  id: attr(z.string(), { computed: true, description: 'The namespace name.' }),
  description: attr(z.string(), { computed: true, description: 'Free-form description.' }),
  meta: attr(z.record(z.string(), z.string()), { computed: true, description: 'Arbitrary metadata.' }),
  policy_defaults: attr(z.array(z.string()), {
    computed: true,
    description: 'Names of the default ACL policies.',
  }),
  role_defaults: attr(z.array(z.string()), {
    computed: true,
    description: 'Names of the default ACL roles.',
  }),
  deleted_at: attr(z.string(), {
    computed: true,
    description: 'When the namespace was marked for deletion; empty while it is in use.',
  }),
};

export function namespaceDataSource(rc: RegContext): DataSourceHandler {
  return {
    typeName: 'reg_namespace',
    description: NAMESPACE_DATA_DESCRIPTION,
    shape: namespaceDataShape,
    validate: (config: Config) => validateShape(namespaceDataShape, config),
    async read(config: Config): Promise<State> {
      const name = String(config['name']);
      const ns = await guarded(`reading namespace "${name}"`, rc.redactor, async () => {
        try {
          return (await rc.client.namespaces.read(name)).value;
        } catch (err) {
          if (err instanceof NotFoundError) {
            throw new DiagnosticsError([
              { severity: 'error', summary: `No namespace named "${name}"`, path: ['name'] },
            ]);
          }
          throw err;
        }
      });
      const names = (links: Array<{ ID?: string; Name?: string }> | undefined): string[] =>
        (links ?? []).map((l) => l.Name ?? l.ID ?? '');
      return {
        name: ns.Name,
        id: ns.Name,
        description: ns.Description ?? '',
        meta: ns.Meta ?? {},
        policy_defaults: names(ns.ACLs?.PolicyDefaults),
        role_defaults: names(ns.ACLs?.RoleDefaults),
        deleted_at: orNull(ns.DeletedAt),
      };
    },
  };
}
