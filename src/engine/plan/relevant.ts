/**
 * terraform's `relevant_attributes`: the resource attributes that the planned changes read, directly
 * or through locals and other resources' configurations (terraform's ContributingResourceReferences).
 * Policy tools and terraform's own renderer use them to tell drift that matters from drift that does not.
 */
import type { Expr } from '../expressions/ast';
import { findReferences, resourceRefAddress, type Reference } from '../expressions/references';
import type { ResourceConfig, StackConfig } from '../config';
import type { RelevantAttribute, StackPlan } from './types';

type ResourceReference = Extract<Reference, { kind: 'resource' }>;

/** Every expression of a resource block that terraform's analysis reads. */
function blockExprs(r: ResourceConfig): Expr[] {
  return [r.body, ...(r.count ? [r.count] : []), ...(r.forEach ? [r.forEach] : [])];
}

class Contributors {
  private readonly seen = new Set<string>();
  readonly found = new Map<string, RelevantAttribute>();

  constructor(private readonly config: StackConfig) {}

  visit(exprs: Expr[]): void {
    for (const e of exprs) for (const ref of findReferences(e)) this.reference(ref);
  }

  private reference(ref: Reference): void {
    if (ref.kind === 'local') return this.once(`local.${ref.name}`, () => this.local(ref.name));
    if (ref.kind !== 'resource') return;
    this.note(ref);
    const address = resourceRefAddress(ref);
    const r = ref.mode === 'data' ? this.config.dataSources.get(address) : this.config.resources.get(address);
    if (r) this.once(address, () => this.visit(blockExprs(r)));
  }

  private local(name: string): void {
    const l = this.config.locals.get(name);
    if (l) this.visit([l.expr]);
  }

  private note(ref: ResourceReference): void {
    const key =
      ref.key === undefined
        ? ''
        : typeof ref.key === 'number'
          ? `[${ref.key}]`
          : `[${JSON.stringify(ref.key)}]`;
    const resource = `${resourceRefAddress(ref)}${key}`;
    const id = JSON.stringify([resource, ref.path]);
    if (!this.found.has(id)) this.found.set(id, { resource, attribute: ref.path });
  }

  private once(id: string, f: () => void): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    f();
  }
}

/** The attributes the plan's changing instances read, sorted by resource and path. */
export function relevantAttributes(config: StackConfig, plan: StackPlan): RelevantAttribute[] {
  const c = new Contributors(config);
  const changing = new Set(
    plan.instances.filter((i) => i.change.action !== 'noop' && !i.orphan).map((i) => i.resourceAddress),
  );
  for (const address of [...changing].sort()) {
    const r = config.resources.get(address);
    if (r) c.visit(blockExprs(r));
  }
  return [...c.found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}
