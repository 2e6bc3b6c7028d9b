/**
 * Constraint and affinity checks against a node, with the operands Nomad documents. Targets are
 * interpolated the way Nomad does: ${attr.x}, ${meta.x}, ${node.datacenter}, ${node.unique.name}, ...
 */
import { compileRe2 } from '../../../common/re2';
import type { NodeRecord } from '../model';

export interface ConstraintLike {
  LTarget?: string | null;
  RTarget?: string | null;
  Operand?: string | null;
}

/** Resolves a target; undefined when the node has no such attribute (the constraint then fails unless is_not_set). */
export function resolveTarget(target: string, node: NodeRecord): string | undefined {
  const m = /^\$\{(.+)\}$/.exec(target.trim());
  if (!m) return target;
  const ref = m[1]!;
  switch (ref) {
    case 'node.unique.id':
      return node.ID;
    case 'node.datacenter':
      return node.Datacenter;
    case 'node.unique.name':
      return node.Name;
    case 'node.class':
      return node.NodeClass;
    case 'node.pool':
      return node.NodePool;
    case 'node.region':
      return node.Attributes['sched.region'] ?? 'global';
  }
  if (ref.startsWith('attr.')) return node.Attributes[ref.slice(5)];
  if (ref.startsWith('meta.')) return node.Meta[ref.slice(5)];
  return undefined;
}

export function constraintKey(c: ConstraintLike): string {
  return `${c.LTarget ?? ''} ${c.Operand ?? '='} ${c.RTarget ?? ''}`.trim();
}

/** True when the node satisfies the constraint. distinct_* operands are checked by the placer, not here. */
export function checkConstraint(c: ConstraintLike, node: NodeRecord): boolean {
  const op = (c.Operand ?? '=').trim();
  if (op === 'distinct_hosts' || op === 'distinct_property') return true;
  const l = c.LTarget ? resolveTarget(c.LTarget, node) : undefined;
  const r = c.RTarget ? resolveTarget(c.RTarget, node) : undefined;
  switch (op) {
    case 'is_set':
      return l !== undefined;
    case 'is_not_set':
      return l === undefined;
  }
  if (l === undefined) return false;
  const rv = r ?? '';
  switch (op) {
    case '=':
    case '==':
    case 'is':
      return l === rv;
    case '!=':
    case 'not':
      return l !== rv;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compareOrdered(l, rv, op);
    case 'regexp':
      try {
        return compileRe2(rv).test(l);
      } catch {
        return false;
      }
    case 'set_contains':
    case 'set_contains_all': {
      const have = new Set(l.split(',').map((s) => s.trim()));
      return rv.split(',').every((s) => have.has(s.trim()));
    }
    case 'set_contains_any': {
      const have = new Set(l.split(',').map((s) => s.trim()));
      return rv.split(',').some((s) => have.has(s.trim()));
    }
    case 'version':
    case 'semver':
      return versionMatches(l, rv);
    default:
      return false;
  }
}

/** Operands the agent understands; anything else is a validation error at registration. */
export const KNOWN_OPERANDS = new Set([
  '=',
  '==',
  'is',
  '!=',
  'not',
  '<',
  '<=',
  '>',
  '>=',
  'regexp',
  'set_contains',
  'set_contains_all',
  'set_contains_any',
  'version',
  'semver',
  'is_set',
  'is_not_set',
  'distinct_hosts',
  'distinct_property',
]);

function compareOrdered(l: string, r: string, op: string): boolean {
  const ln = Number(l);
  const rn = Number(r);
  const numeric = l !== '' && r !== '' && !Number.isNaN(ln) && !Number.isNaN(rn);
  const cmp = numeric ? Math.sign(ln - rn) : l < r ? -1 : l > r ? 1 : 0;
  return op === '<' ? cmp < 0 : op === '<=' ? cmp <= 0 : op === '>' ? cmp > 0 : cmp >= 0;
}

function parseVersion(v: string): number[] | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

function cmpVersion(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** Go-version style constraints: ">= 1.2, < 2.0", "~> 1.4", "= 1.0.0". */
export function versionMatches(value: string, constraint: string): boolean {
  const have = parseVersion(value);
  if (!have) return false;
  return constraint.split(',').every((part) => {
    const m = /^\s*(>=|<=|!=|~>|=|>|<)?\s*(\S+)\s*$/.exec(part);
    if (!m) return false;
    const want = parseVersion(m[2]!);
    if (!want) return false;
    const c = cmpVersion(have, want);
    switch (m[1] ?? '=') {
      case '=':
        return c === 0;
      case '!=':
        return c !== 0;
      case '>':
        return c > 0;
      case '>=':
        return c >= 0;
      case '<':
        return c < 0;
      case '<=':
        return c <= 0;
      case '~>': {
        const segments = m[2]!.replace(/^v/, '').split('.').length;
        if (c < 0) return false;
        if (segments <= 2) return have[0] === want[0];
        return have[0] === want[0] && have[1] === want[1];
      }
      default:
        return false;
    }
  });
}

/** Glob match for datacenter patterns ("*", "dc*"). */
export function globMatch(pattern: string, value: string): boolean {
  if (pattern === '*') return true;
  // Every placement checks every node: a plain name is a comparison, and a pattern is compiled once.
  if (!pattern.includes('*') && !pattern.includes('?')) return pattern === value;
  return globRegExp(pattern).test(value);
}

const MAX_CACHED_GLOBS = 1024;
const globs = new Map<string, RegExp>();

function globRegExp(pattern: string): RegExp {
  let re = globs.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
    // Patterns come from jobs; the bound keeps a stream of distinct ones from growing the cache for ever.
    if (globs.size >= MAX_CACHED_GLOBS) globs.clear();
    globs.set(pattern, re);
  }
  return re;
}
