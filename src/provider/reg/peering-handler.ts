/**
 * The handler parts reg_peering_token and reg_peering share: both describe one peering by peer name, both
 * hold a peering token that must never show in a message, and both force a replacement on every argument but
 * `timeouts`. Only their create and their state differ, so only those are passed in.
 */
import type { Peering } from '../../api/reg/schemas';
import type { ApplyContext, PlannedChange, State } from '../resource';
import { DiagnosticsError } from '../values';
import type { RegContext } from './context';
import { deletePeering, isLive, partitionOpts, readPeering } from './peering-common';
import { keyAttr, refreshFromList, scopeAttr } from '../common/refresh-from-list';
import { runApply, verb } from './apply';
import { guarded, type Redactor } from './redact';

export type PeeringAsState = (p: Peering, like: State | null, token: unknown) => State;

export interface PeeringHandlerOptions {
  /** What the resource is called in import messages: `peering`, `peering token`. */
  noun: string;
  /** What an apply message names: `peering "web"`, `the peering token for "web"`. */
  subject: (name: string) => string;
  asState: PeeringAsState;
  create: (planned: State, record: (s: State) => void, ctx: ApplyContext | undefined) => Promise<State>;
}

export interface PeeringHandlerParts {
  apply(change: PlannedChange, ctx?: ApplyContext): Promise<State | null>;
  read(state: State): Promise<State | null>;
  refreshMany(states: readonly State[]): Promise<Array<State | undefined>>;
  import(id: string): Promise<State>;
}

/** Partition and metadata of a generate-token or establish request, set only when configured. */
export function peeringRequestOptions(planned: State): { Partition?: string; Meta?: Record<string, string> } {
  const body: { Partition?: string; Meta?: Record<string, string> } = {};
  if (typeof planned['partition'] === 'string' && planned['partition'] !== '')
    body.Partition = planned['partition'];
  if (planned['meta'] && typeof planned['meta'] === 'object')
    body.Meta = planned['meta'] as Record<string, string>;
  return body;
}

export function peeringHandlerParts(rc: RegContext, opts: PeeringHandlerOptions): PeeringHandlerParts {
  const secretsOf = (...states: Array<State | null | undefined>): Redactor =>
    rc.redactor.with((r) => {
      for (const s of states) if (s) r.addPeeringToken(s['peering_token']);
    });

  return {
    apply(change, ctx) {
      const name = String((change.planned ?? change.prior)?.['peer_name']);
      return runApply(
        change,
        {
          create: (planned, record) => opts.create(planned, record, ctx),
          // Every argument but `timeouts` forces a replacement: only the time limits changed.
          update: (prior, planned) => Promise.resolve({ ...prior, timeouts: planned['timeouts'] ?? null }),
          destroy: (prior) => deletePeering(rc, prior),
        },
        (action) => `${verb(action)} ${opts.subject(name)}`,
        secretsOf(change.prior, change.planned),
      );
    },

    async read(state) {
      const name = String(state['peer_name']);
      const p = await guarded(`reading peering "${name}"`, secretsOf(state), () =>
        readPeering(rc, name, state['partition']),
      );
      return isLive(p) ? opts.asState(p, state, state['peering_token']) : null;
    },

    /** The peering list carries each peering whole: one request per partition refreshes them all. */
    refreshMany: (states) =>
      refreshFromList(states, {
        scopeOf: scopeAttr('partition'),
        keyOf: keyAttr('peer_name'),
        list: async (partition) => {
          const { value } = await rc.client.peering.list(partitionOpts(partition));
          return new Map(value.map((p) => [p.Name, p]));
        },
        // A terminated or deleted one is read on its own, which reports it gone.
        refresh: (p, prior) => (isLive(p) ? opts.asState(p, prior, prior['peering_token']) : undefined),
      }),

    async import(id) {
      const p = await guarded(`importing ${opts.noun} "${id}"`, rc.redactor, () =>
        readPeering(rc, id, undefined),
      );
      if (!isLive(p)) {
        throw new DiagnosticsError([
          {
            severity: 'error',
            summary: `Cannot import ${opts.noun} "${id}"`,
            detail: 'no live peering of that name',
          },
        ]);
      }
      // The registry never shows a token again: the imported state holds none.
      return opts.asState(p, null, null);
    },
  };
}
