/**
 * Resource instance addresses as Terraform writes them: `sched_job.web`, `sched_job.web[0]`,
 * `sched_job.web["k"]`, `data.sched_job.x`, optionally behind `module.m.` / `module.m["k"].` steps
 * (cdktf stacks are flat, but a state written by Terraform may hold module resources and must
 * round-trip).
 */

export type ResourceMode = 'managed' | 'data';
export type InstanceKey = number | string;

export interface ResourceAddress {
  /** Module path as Terraform writes it (`module.a["x"].module.b`), '' for the root module. */
  module: string;
  mode: ResourceMode;
  type: string;
  name: string;
}

export interface InstanceAddress extends ResourceAddress {
  /** Absent for a resource without count/for_each. */
  key?: InstanceKey;
}

export class AddressError extends Error {
  constructor(
    readonly address: string,
    reason: string,
  ) {
    super(`invalid resource address ${JSON.stringify(address)}: ${reason}`);
    this.name = 'AddressError';
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*/;

class Cursor {
  pos = 0;
  constructor(readonly src: string) {}
  get done(): boolean {
    return this.pos >= this.src.length;
  }
  peek(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }
  ident(what: string): string {
    const m = IDENT.exec(this.src.slice(this.pos));
    if (!m) throw new AddressError(this.src, `expected ${what} at offset ${this.pos}`);
    this.pos += m[0].length;
    return m[0];
  }
  expect(s: string): void {
    if (!this.peek(s)) throw new AddressError(this.src, `expected "${s}" at offset ${this.pos}`);
    this.pos += s.length;
  }
  /** `[0]` or `["key"]`; string keys use JSON escapes, which agree with HCL's for the usual cases. */
  key(): InstanceKey {
    this.expect('[');
    let key: InstanceKey;
    if (this.peek('"')) {
      let end = this.pos + 1;
      while (end < this.src.length && this.src[end] !== '"') end += this.src[end] === '\\' ? 2 : 1;
      if (end >= this.src.length) throw new AddressError(this.src, 'unterminated string key');
      try {
        key = JSON.parse(this.src.slice(this.pos, end + 1)) as string;
      } catch {
        throw new AddressError(this.src, 'bad escape in string key');
      }
      this.pos = end + 1;
    } else {
      const m = /^\d+/.exec(this.src.slice(this.pos));
      if (!m) throw new AddressError(this.src, 'an index is a non-negative integer or a quoted string');
      key = Number(m[0]);
      if (!Number.isSafeInteger(key)) throw new AddressError(this.src, 'index too large');
      this.pos += m[0].length;
    }
    this.expect(']');
    return key;
  }
}

export function formatKey(key: InstanceKey | undefined): string {
  if (key === undefined) return '';
  return typeof key === 'number' ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

/** Parses an instance address; a resource address is the same without a key. */
export function parseAddress(address: string): InstanceAddress {
  const c = new Cursor(address.trim());
  const modules: string[] = [];
  while (c.peek('module.')) {
    c.expect('module.');
    let step = `module.${c.ident('module name')}`;
    if (c.peek('[')) step += formatKey(c.key());
    modules.push(step);
    c.expect('.');
  }
  let mode: ResourceMode = 'managed';
  if (c.peek('data.')) {
    c.expect('data.');
    mode = 'data';
  }
  const type = c.ident('resource type');
  c.expect('.');
  const name = c.ident('resource name');
  const addr: InstanceAddress = { module: modules.join('.'), mode, type, name };
  if (c.peek('[')) addr.key = c.key();
  if (!c.done) throw new AddressError(address, `unexpected "${c.src.slice(c.pos)}"`);
  return addr;
}

export function formatResourceAddress(a: ResourceAddress): string {
  const base = `${a.mode === 'data' ? 'data.' : ''}${a.type}.${a.name}`;
  return a.module ? `${a.module}.${base}` : base;
}

export function formatAddress(a: InstanceAddress): string {
  return formatResourceAddress(a) + formatKey(a.key);
}

/** Orders keys as Terraform's state file does: no key, then numbers, then strings. */
export function compareKeys(a: InstanceKey | undefined, b: InstanceKey | undefined): number {
  const rank = (k: InstanceKey | undefined): number => (k === undefined ? 0 : typeof k === 'number' ? 1 : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return 0;
}

export function compareResources(a: ResourceAddress, b: ResourceAddress): number {
  for (const k of ['module', 'mode', 'type', 'name'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  }
  return 0;
}

export function compareAddresses(a: InstanceAddress, b: InstanceAddress): number {
  return compareResources(a, b) || compareKeys(a.key, b.key);
}

export function sameResource(a: ResourceAddress, b: ResourceAddress): boolean {
  return compareResources(a, b) === 0;
}
