/**
 * `sched_namespace`: a scheduler namespace. Destroying `default` resets it (the scheduler cannot delete
 * it); settings this resource does not manage (quota, capabilities, node pools) are kept on update.
 */
import { z } from 'zod';
import { ApiError, NotFoundError } from '../../api/errors';
import type { Namespace } from '../../api/sched/schemas';
import type { ApplyContext, Config, PlannedChange, ResourceHandler, State } from '../resource';
import { attr } from '../schema';
import { ResourceApplyError, errorMessage } from '../common/errors';
import { keyAttr, refreshFromList } from '../common/refresh-from-list';
import {
  errorAt,
  hasErrors,
  knownString,
  knownStringMap,
  sameStringMap,
  validateShape,
} from '../common/shape';
import { UNKNOWN, containsUnknown, type Diagnostic } from '../values';
import type { SchedProviderContext } from './context';

export const DEFAULT_NAMESPACE = 'default';
/** What the scheduler gives the default namespace, and what destroying it restores. */
export const DEFAULT_DESCRIPTION = 'Default shared namespace';

export const NAMESPACE_DESCRIPTION = 'A scheduler namespace (destroying "default" resets it instead).';

export const namespaceShape = {
  name: attr(z.string().regex(/^[a-zA-Z0-9-]{1,128}$/, 'must be 1-128 letters, digits or dashes'), {
    required: true,
    forceNew: true,
    description: 'Name of the namespace; a change replaces it.',
  }),
  description: attr(z.string().max(256, 'must be at most 256 characters').nullish(), {
    optional: true,
    description: 'Description of the namespace.',
  }),
  meta: attr(z.record(z.string(), z.string()).nullish(), {
    optional: true,
    description: 'Metadata of the namespace.',
  }),
  id: attr(z.string().nullish(), { computed: true, description: 'Same as name.' }),
};

const norm = (v: unknown): string => knownString(v) ?? '';
const metaOrNull = (v: unknown): Record<string, string> | null => {
  const m = knownStringMap(v);
  return m && Object.keys(m).length > 0 ? m : null;
};

function stateOf(ns: Namespace): State {
  return { name: ns.Name, description: ns.Description ?? '', meta: metaOrNull(ns.Meta), id: ns.Name };
}

export class SchedNamespaceHandler implements ResourceHandler {
  readonly typeName = 'sched_namespace';
  readonly description = NAMESPACE_DESCRIPTION;
  readonly shape = namespaceShape;
  readonly version = 0;

  constructor(private readonly ctx: SchedProviderContext) {}

  validate(config: Config): Diagnostic[] {
    return validateShape(namespaceShape, config);
  }

  async plan(req: { prior: State | null; config: Config | null }): Promise<PlannedChange> {
    const { prior, config } = req;
    if (!config) {
      return prior
        ? { action: 'delete', prior, planned: null, diagnostics: [] }
        : { action: 'noop', prior: null, planned: null, diagnostics: [] };
    }
    const diagnostics = this.validate(config);
    if (hasErrors(diagnostics)) return { action: 'noop', prior, planned: prior, diagnostics };
    const name = config['name'];
    const planned: State = {
      name,
      description: config['description'] ?? '',
      meta: containsUnknown(config['meta']) ? config['meta'] : metaOrNull(config['meta']),
      id: name,
    };
    if (!prior) {
      if (typeof name === 'string' && name !== DEFAULT_NAMESPACE) {
        const exists = await this.exists(name).catch((e: unknown) => {
          diagnostics.push(
            errorAt(['name'], `Cannot read namespace "${name}"`, this.ctx.redact(errorMessage(e))),
          );
          return false;
        });
        if (exists) {
          diagnostics.push(
            errorAt(
              ['name'],
              `Namespace "${name}" already exists`,
              `import it with the ID "${name}", or choose another name`,
            ),
          );
        }
      }
      if (hasErrors(diagnostics)) return { action: 'noop', prior, planned: prior, diagnostics };
      return { action: 'create', prior, planned, diagnostics };
    }
    if (containsUnknown(name) || name !== prior['name']) {
      return {
        action: 'replace',
        prior,
        planned: { ...planned, id: containsUnknown(name) ? UNKNOWN : name },
        replacePaths: [['name']],
        diagnostics,
      };
    }
    const same =
      !containsUnknown(config['description']) &&
      !containsUnknown(config['meta']) &&
      norm(prior['description']) === norm(config['description']) &&
      sameStringMap(prior['meta'], config['meta']);
    return same
      ? { action: 'noop', prior, planned: prior, diagnostics }
      : { action: 'update', prior, planned, diagnostics };
  }

  private async exists(name: string): Promise<boolean> {
    try {
      await this.ctx.client.namespaces.read(name);
      return true;
    } catch (e) {
      if (e instanceof NotFoundError) return false;
      throw e;
    }
  }

  /** Writes the namespace, keeping the settings this resource does not manage. */
  private async upsert(
    name: string,
    description: string,
    meta: Record<string, string> | null,
    signal?: AbortSignal,
  ): Promise<void> {
    let current: Namespace | undefined;
    try {
      ({ value: current } = await this.ctx.client.namespaces.read(name, { signal }));
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
    }
    const { CreateIndex: _c, ModifyIndex: _m, ...kept } = current ?? { Name: name };
    await this.ctx.client.namespaces.upsert(
      { ...kept, Name: name, Description: description, Meta: meta },
      { signal },
    );
  }

  async apply(change: PlannedChange, ctx?: ApplyContext): Promise<State | null> {
    const { prior, planned } = change;
    const signal = ctx?.signal;
    try {
      switch (change.action) {
        case 'noop':
          return prior;
        case 'delete':
          if (prior) await this.destroy(String(prior['name']), signal);
          return null;
        case 'replace':
          if (prior) await this.destroy(String(prior['name']), signal);
          return this.write(planned!, signal);
        case 'create':
        case 'update':
          return this.write(planned!, signal);
      }
    } catch (e) {
      if (e instanceof ApiError)
        throw new ResourceApplyError(this.ctx.redact(e.message), change.action === 'replace' ? null : prior);
      throw e;
    }
  }

  private async write(planned: State, signal?: AbortSignal): Promise<State> {
    const name = String(planned['name']);
    await this.upsert(name, norm(planned['description']), metaOrNull(planned['meta']), signal);
    const { value } = await this.ctx.client.namespaces.read(name, { signal });
    return stateOf(value);
  }

  private async destroy(name: string, signal?: AbortSignal): Promise<void> {
    if (name === DEFAULT_NAMESPACE) {
      await this.upsert(name, DEFAULT_DESCRIPTION, null, signal);
      return;
    }
    try {
      await this.ctx.client.namespaces.delete(name, { signal });
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
    }
  }

  async read(state: State): Promise<State | null> {
    const name = state['name'];
    if (typeof name !== 'string') return state;
    try {
      const { value } = await this.ctx.client.namespaces.read(name);
      return stateOf(value);
    } catch (e) {
      if (e instanceof NotFoundError) return null;
      throw e;
    }
  }

  /**
   * The namespace list carries every namespace whole, so one request refreshes them all; a name it
   * does not have is left to `read` (which tells a deleted namespace from one this token cannot list).
   */
  refreshMany(states: readonly State[]): Promise<Array<State | undefined>> {
    return refreshFromList<Namespace>(states, {
      scopeOf: () => '',
      keyOf: keyAttr('name'),
      list: async () => new Map((await this.ctx.client.namespaces.list()).value.map((ns) => [ns.Name, ns])),
      refresh: (ns) => stateOf(ns),
    });
  }

  async import(id: string): Promise<State> {
    const state = await this.read({ name: id });
    if (!state) throw new Error(`namespace "${id}" does not exist`);
    return state;
  }
}
