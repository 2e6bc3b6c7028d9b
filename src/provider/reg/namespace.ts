/**
 * reg_namespace: a registry namespace (spec 4.2). Deletion is asynchronous on the registry: a namespace marked
 * with DeletedAt is gone as far as this resource is concerned, destroy waits until the registry has removed it,
 * and creating a name that is still being deleted waits for that deletion first.
 */
import { z } from 'zod';
import { orNull as orNullOnMissing } from '../../api/reg/client';
import { DNS_LABEL_RE } from '../../api/reg/rules';
import type { Namespace, NamespaceCreateRequest } from '../../api/reg/schemas';
import { NotFoundError } from '../../api/errors';
import type { ApplyContext, Config, PlannedChange, ResourceHandler, State } from '../resource';
import { operationTimeoutMs, timeoutsAttribute } from '../common/timeouts';
import { attr } from '../schema';
import { DiagnosticsError } from '../values';
import { keep, sameValue } from './compare';
import type { RegContext } from './context';
import { linksAsState, sameLinks, toLink } from './links';
import { planChange } from './plan';
import { runApply, verb } from './apply';
import { guarded } from './redact';
import { keyAttr, refreshFromList } from '../common/refresh-from-list';
import { validateShape } from '../common/shape';
import { waitBlocking } from './wait';

export const NAMESPACE_DESCRIPTION =
  'A namespace of the service registry, with default ACL policies and roles.';

const dnsLabel = z
  .string()
  .regex(
    DNS_LABEL_RE,
    'must be a valid DNS hostname label: 1-63 letters, digits or dashes, not starting or ending with a dash',
  );

const refList = z.array(z.string().min(1, 'must not be empty'));

export const namespaceShape = {
  id: attr(z.string(), { computed: true, description: 'The namespace name.' }),
  name: attr(dnsLabel, {
    required: true,
    forceNew: true,
    description: 'Name of the namespace (a DNS label).',
  }),
  description: attr(z.string(), { optional: true, description: 'Free-form description.' }),
  meta: attr(z.record(z.string(), z.string()), { optional: true, description: 'Arbitrary metadata.' }),
  policy_defaults: attr(refList, {
    optional: true,
    description: 'Names or IDs of ACL policies applied to every token created in the namespace.',
  }),
  role_defaults: attr(refList, {
    optional: true,
    description: 'Names or IDs of ACL roles applied to every token created in the namespace.',
  }),
  timeouts: timeoutsAttribute(
    ['create', 'delete'],
    'How long to wait for a deleted namespace to disappear: before creating its name again (create), or on destroy (delete).',
  ),
};

function request(planned: State): NamespaceCreateRequest {
  const refs = (v: unknown): Array<{ ID?: string; Name?: string }> =>
    Array.isArray(v) ? v.map((r) => toLink(String(r))) : [];
  return {
    Name: String(planned['name']),
    Description: typeof planned['description'] === 'string' ? planned['description'] : '',
    Meta: (planned['meta'] as Record<string, string> | null) ?? {},
    ACLs: { PolicyDefaults: refs(planned['policy_defaults']), RoleDefaults: refs(planned['role_defaults']) },
  };
}

function asState(ns: Namespace, like: State | null): State {
  return {
    id: ns.Name,
    name: ns.Name,
    description: keep(like?.['description'], ns.Description),
    meta: keep(like?.['meta'], ns.Meta),
    policy_defaults: linksAsState(ns.ACLs?.PolicyDefaults, like?.['policy_defaults']),
    role_defaults: linksAsState(ns.ACLs?.RoleDefaults, like?.['role_defaults']),
    timeouts: like?.['timeouts'] ?? null,
  };
}

const live = (ns: Namespace | null): ns is Namespace => ns !== null && !ns.DeletedAt;

export function namespaceResource(rc: RegContext): ResourceHandler {
  const { client, redactor } = rc;

  const readLive = async (name: string): Promise<Namespace | null> => {
    const found = await orNullOnMissing(client.namespaces.read(name).then((r) => r.value));
    return live(found) ? found : null;
  };

  const waitGone = async (
    name: string,
    op: 'create' | 'delete',
    state: State,
    ctx: ApplyContext | undefined,
  ): Promise<void> => {
    ctx?.onProgress?.({ message: `waiting for namespace "${name}" to be deleted` });
    const fallback = op === 'create' ? rc.timeouts.createMs : rc.timeouts.deleteMs;
    await waitBlocking(
      (index, wait, signal) => client.namespaces.read(name, { index, wait, signal }),
      (ns) => ns === null,
      {
        operation: `${op === 'create' ? 'creating' : 'deleting'} namespace "${name}"`,
        what: `namespace "${name}" is still being deleted`,
        timeoutMs: operationTimeoutMs(state['timeouts'], op, fallback),
        signal: ctx?.signal,
      },
    );
  };

  const destroy = async (prior: State, ctx: ApplyContext | undefined): Promise<void> => {
    const name = String(prior['name']);
    try {
      await client.namespaces.delete(name);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
    await waitGone(name, 'delete', prior, ctx);
  };

  const create = async (planned: State, ctx: ApplyContext | undefined): Promise<State> => {
    const name = String(planned['name']);
    const existing = await orNullOnMissing(client.namespaces.read(name).then((r) => r.value));
    // A name on its way out cannot be reused until the registry has finished deleting it.
    if (existing?.DeletedAt) await waitGone(name, 'create', planned, ctx);
    return asState(await client.namespaces.create(request(planned)), planned);
  };

  return {
    typeName: 'reg_namespace',
    description: NAMESPACE_DESCRIPTION,
    shape: namespaceShape,
    version: 0,

    validate: (config: Config) => validateShape(namespaceShape, config),

    async plan({ prior, config }): Promise<PlannedChange> {
      let equal = {};
      const differs = (k: string): boolean =>
        prior !== null && config !== null && !sameValue(prior[k], config[k]);
      if (differs('policy_defaults') || differs('role_defaults')) {
        // Names and IDs of what the namespace links already are one value; the registry knows both.
        const ns = await guarded(`reading namespace "${String(prior!['name'])}"`, redactor, () =>
          readLive(String(prior!['name'])),
        );
        equal = {
          policy_defaults: sameLinks(ns?.ACLs?.PolicyDefaults ?? []),
          role_defaults: sameLinks(ns?.ACLs?.RoleDefaults ?? []),
        };
      }
      return planChange({ shape: namespaceShape, equal }, prior, config);
    },

    apply(change: PlannedChange, ctx?: ApplyContext): Promise<State | null> {
      const name = String((change.planned ?? change.prior)?.['name']);
      return runApply(
        change,
        {
          create: (planned) => create(planned, ctx),
          update: async (_prior, planned) =>
            asState(await client.namespaces.update(name, request(planned)), planned),
          destroy: (prior) => destroy(prior, ctx),
        },
        (action) => `${verb(action)} namespace "${name}"`,
        redactor,
      );
    },

    async read(state: State): Promise<State | null> {
      const name = String(state['name']);
      const ns = await guarded(`reading namespace "${name}"`, redactor, () => readLive(name));
      return ns ? asState(ns, state) : null;
    },

    /** The namespace list carries each namespace whole: one request refreshes them all. */
    refreshMany: (states: readonly State[]) =>
      refreshFromList(states, {
        scopeOf: () => '',
        keyOf: keyAttr('name'),
        list: async () => new Map((await client.namespaces.list()).value.map((ns) => [ns.Name, ns])),
        // One being deleted is read on its own, which reports it gone.
        refresh: (ns, prior) => (live(ns) ? asState(ns, prior) : undefined),
      }),

    async import(id: string): Promise<State> {
      const ns = await guarded(`importing namespace "${id}"`, redactor, () => readLive(id));
      if (!ns) {
        throw new DiagnosticsError([
          {
            severity: 'error',
            summary: `Cannot import namespace "${id}"`,
            detail: 'no such namespace (or it is being deleted)',
          },
        ]);
      }
      return asState(ns, null);
    },
  };
}
