/**
 * Structural diffs as Terraform prints them, as lines (depth, symbol, text) that the terminal and
 * Markdown renderers lay out: `~ name = "a" -> "b"`, nested maps and lists, `jsonencode(...)` for
 * attributes holding JSON (a jobspec is diffed as a structure, not as one long string), heredocs
 * for multi-line strings, `(sensitive value)`, `(known after apply)` and `# forces replacement`.
 * Unchanged attributes and elements are hidden behind a count, as Terraform does.
 */
import { type AttrPath, isUnknown } from '../../provider/values';
import type { OutputChange, ResourceChange } from './model';
import { SENSITIVE_TEXT, covered, exactly } from './sensitive';

export type Sym = '+' | '-' | '~' | '-/+' | '+/-' | '<=' | '.' | ' ';

export interface DiffLine {
  depth: number;
  sym: Sym;
  text: string;
  /** Trailing `# ...` note, e.g. "forces replacement". */
  comment?: string;
}

/**
 * Where a diff's lines go as they are written: collected as DiffLines, or laid out at once by the text
 * renderer (a plan of new jobs writes thousands of lines; no object per line to make and then read).
 */
export type LineSink = (depth: number, sym: Sym, text: string, comment?: string) => void;

export const KNOWN_AFTER_APPLY = '(known after apply)';

interface Label {
  /** Attribute or key text, already padded for alignment; absent for list elements and bare values. */
  key?: string;
  /** A list element: gets a trailing comma. */
  elem?: boolean;
}

interface Paths {
  beforeSensitive: AttrPath[];
  afterSensitive: AttrPath[];
  afterUnknown: AttrPath[];
  replacePaths: AttrPath[];
}

interface WholeOptions {
  /** After the value, before the comma: ` -> null`, ` -> (known after apply)`. */
  tail?: string;
  /** The symbol of the first line, when it differs from the rest's. */
  headSym?: Sym;
}

const NO_OPTIONS: WholeOptions = {};
const FORCES = 'forces replacement';
const NO_PATHS: Paths = { beforeSensitive: [], afterSensitive: [], afterUnknown: [], replacePaths: [] };
const ELEMENT: Label = { elem: true };
const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const CONTEXT_LINES = 2;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isUnknown(v);
}

function isStruct(v: unknown): boolean {
  return Array.isArray(v) || isObj(v);
}

function absent(v: unknown): boolean {
  return v === null || v === undefined;
}

const LEADING_SPACE = /^\s/;

/** What `\s` matches below 0x80: tab, line feed, vertical tab, form feed, carriage return, space. */
function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** A string holding a JSON object or array, parsed; undefined for anything else. */
export function parseJsonStructure(s: unknown): unknown {
  if (typeof s !== 'string') return undefined;
  // Most strings are not JSON: rule them out by their first character before trimming a copy (an
  // ASCII character that is no brace, bracket or space needs no regex).
  const c = s.charCodeAt(0);
  if (c !== 0x7b && c !== 0x5b && (c < 0x80 ? !isAsciiSpace(c) : !LEADING_SPACE.test(s))) return undefined;
  const t = s.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (isUnknown(a) || isUnknown(b)) return false;
  if (absent(a) && absent(b)) return true;
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

function formatPrimitive(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function keyText(k: string, top: boolean): string {
  return top || IDENT.test(k) ? k : JSON.stringify(k);
}

const SPACES: string[] = [];

function spaces(n: number): string {
  return (SPACES[n] ??= ' '.repeat(n));
}

function pad(s: string, width: number): string {
  return s + spaces(Math.max(0, width - s.length));
}

/** Longest common subsequence as a list of operations, by an equality. */
function lcs<T>(a: T[], b: T[], eq: (x: T, y: T) => boolean): ('eq' | 'del' | 'add')[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) {
    // Too big to align: report everything as replaced (still correct, only less precise).
    return [...Array<'del'>(n).fill('del'), ...Array<'add'>(m).fill('add')];
  }
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i]![j] = eq(a[i]!, b[j]!) ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    }
  }
  const ops: ('eq' | 'del' | 'add')[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (eq(a[i]!, b[j]!)) {
      ops.push('eq');
      i++;
      j++;
    } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) {
      ops.push('del');
      i++;
    } else {
      ops.push('add');
      j++;
    }
  }
  while (i++ < n) ops.push('del');
  while (j++ < m) ops.push('add');
  return ops;
}

/**
 * What DiffWriter.whole writes for a value inside a jsonencode(), where no attribute path applies (no
 * sensitive, unknown or replace paths to look up): the same lines, without a label, an options object
 * or a path per value. A created jobspec is most of the lines of a plan of new jobs, and it is written
 * while the code is still cold (interpreted), where each call and object per line counts.
 */
function writeJsonWhole(
  out: LineSink,
  prefix: string,
  suffix: string,
  v: unknown,
  sym: Sym,
  depth: number,
  after: boolean,
): void {
  // Most values are strings and numbers: settled first, with no call but the line's. A string that
  // may hold JSON (it starts with a brace, a bracket or a space) or lines of text takes the long way.
  if (typeof v === 'string') {
    const c = v.charCodeAt(0);
    if (c === 0x7b || c === 0x5b || c <= 0x20 || c >= 0x80 || v.includes('\n')) {
      return writeJsonText(out, prefix, suffix, v, sym, depth, after);
    }
    return out(depth, sym, prefix + JSON.stringify(v) + suffix);
  }
  if (typeof v !== 'object' || v === null) {
    return out(depth, sym, prefix + (v === undefined || v === null ? 'null' : String(v)) + suffix);
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return out(depth, sym, prefix + '[]' + suffix);
    out(depth, sym, prefix + '[');
    for (let i = 0; i < v.length; i++) writeJsonWhole(out, '', ',', v[i], sym, depth + 1, after);
    return out(depth, ' ', ']' + suffix);
  }
  if (isUnknown(v)) {
    return out(depth, sym, prefix + (after ? KNOWN_AFTER_APPLY : formatPrimitive(v)) + suffix);
  }
  writeJsonObject(out, prefix, suffix, v as Obj, sym, depth, after);
}

/** writeJsonWhole of a string that may be JSON itself, or a heredoc. */
function writeJsonText(
  out: LineSink,
  prefix: string,
  suffix: string,
  v: string,
  sym: Sym,
  depth: number,
  after: boolean,
): void {
  const json = parseJsonStructure(v);
  if (json !== undefined) {
    out(depth, sym, prefix + 'jsonencode(');
    writeJsonWhole(out, '', '', json, sym, depth + 1, after);
    return out(depth, ' ', ')' + suffix);
  }
  if (v.includes('\n')) {
    out(depth, sym, prefix + '<<-EOT');
    for (const line of v.replace(/\n$/, '').split('\n')) out(depth + 1, ' ', line);
    return out(depth, ' ', 'EOT' + suffix);
  }
  out(depth, sym, prefix + JSON.stringify(v) + suffix);
}

/** writeJsonWhole of an object: its keys sorted, the names padded to the longest. */
function writeJsonObject(
  out: LineSink,
  prefix: string,
  suffix: string,
  v: Obj,
  sym: Sym,
  depth: number,
  after: boolean,
): void {
  const keys = Object.keys(v).sort();
  if (keys.length === 0) return out(depth, sym, prefix + '{}' + suffix);
  out(depth, sym, prefix + '{');
  const texts = new Array<string>(keys.length);
  let width = 0;
  for (let i = 0; i < keys.length; i++) {
    const text = (texts[i] = keyText(keys[i]!, false));
    if (text.length > width) width = text.length;
  }
  for (let i = 0; i < keys.length; i++) {
    const text = texts[i]!;
    const n = width - text.length;
    const label = text + (SPACES[n] ?? spaces(n)) + ' = ';
    writeJsonWhole(out, label, '', v[keys[i]!], sym, depth + 1, after);
  }
  out(depth, ' ', '}' + suffix);
}

class DiffWriter {
  /** No path lists at all (inside a jsonencode, or a plain resource): nothing to look up per value. */
  private readonly plain: boolean;

  constructor(
    private readonly out: LineSink,
    private readonly paths: Paths,
  ) {
    this.plain =
      paths.beforeSensitive.length === 0 &&
      paths.afterSensitive.length === 0 &&
      paths.afterUnknown.length === 0 &&
      paths.replacePaths.length === 0;
  }

  private unknownAt(path: AttrPath, v: unknown): boolean {
    return isUnknown(v) || (!this.plain && covered(this.paths.afterUnknown, path));
  }

  private forces(path: AttrPath): string | undefined {
    return !this.plain && exactly(this.paths.replacePaths, path) ? FORCES : undefined;
  }

  changed(b: unknown, a: unknown, path: AttrPath): boolean {
    if (this.unknownAt(path, a)) return true;
    if (covered(this.paths.beforeSensitive, path) !== covered(this.paths.afterSensitive, path)) return true;
    return !deepEqual(b, a);
  }

  /**
   * Renders one side entirely: a created (`+`), destroyed (`-`) or unchanged (` `) value. `path` is
   * extended and restored in place while the children are written (nothing keeps it), which spares an
   * array per value of a large jobspec.
   */
  whole(
    label: Label,
    v: unknown,
    sym: Sym,
    path: AttrPath,
    depth: number,
    side: 'before' | 'after',
    opts: WholeOptions = NO_OPTIONS,
  ): void {
    const prefix = label.key !== undefined ? `${label.key} = ` : '';
    const suffix = label.elem ? ',' : '';
    const head = opts.headSym ?? sym;
    const tail = opts.tail ?? '';
    // Each list is looked at only when it has paths: a created resource has only unknown ones. Written
    // out here rather than through unknownAt/forces (their twins) since this runs once per value, in code
    // still cold: routing it and the render's other per-line steps back through their helpers cost a
    // plan of 200 new jobs about 2.5% of its instructions (cachegrind, alternating runs).
    const { replacePaths, afterUnknown } = this.paths;
    const forces = replacePaths.length > 0 && exactly(replacePaths, path) ? FORCES : undefined;
    const sensitivePaths = side === 'before' ? this.paths.beforeSensitive : this.paths.afterSensitive;
    if (sensitivePaths.length > 0 && covered(sensitivePaths, path)) {
      return this.out(depth, head, `${prefix}${SENSITIVE_TEXT}${tail}${suffix}`, forces);
    }
    if (side === 'after' && (isUnknown(v) || (afterUnknown.length > 0 && covered(afterUnknown, path)))) {
      return this.out(depth, head, `${prefix}${KNOWN_AFTER_APPLY}${suffix}`, forces);
    }
    const json = typeof v === 'string' ? parseJsonStructure(v) : undefined;
    if (json !== undefined) {
      this.out(depth, head, `${prefix}jsonencode(`, forces);
      // Inside a JSON string no attribute path applies: the string as a whole was checked above.
      writeJsonWhole(this.out, '', '', json, sym, depth + 1, side === 'after');
      return this.out(depth, ' ', `)${tail}${suffix}`);
    }
    if (typeof v === 'string' && v.includes('\n')) {
      this.out(depth, head, `${prefix}<<-EOT`, forces);
      for (const line of v.replace(/\n$/, '').split('\n')) this.out(depth + 1, ' ', line);
      return this.out(depth, ' ', `EOT${tail}${suffix}`);
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return this.out(depth, head, `${prefix}[]${tail}${suffix}`, forces);
      this.out(depth, head, `${prefix}[`, forces);
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        this.whole(ELEMENT, v[i], sym, path, depth + 1, side);
        path.pop();
      }
      return this.out(depth, ' ', `]${tail}${suffix}`);
    }
    if (isObj(v)) {
      const keys = Object.keys(v).sort();
      if (keys.length === 0) return this.out(depth, head, `${prefix}{}${tail}${suffix}`, forces);
      this.out(depth, head, `${prefix}{`, forces);
      const texts = keys.map((k) => keyText(k, false));
      let width = 0;
      for (let i = 0; i < texts.length; i++) width = Math.max(width, texts[i]!.length);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        path.push(k);
        this.whole({ key: pad(texts[i]!, width) }, v[k], sym, path, depth + 1, side);
        path.pop();
      }
      return this.out(depth, ' ', `}${tail}${suffix}`);
    }
    this.out(depth, head, `${prefix}${formatPrimitive(v)}${tail}${suffix}`, forces);
  }

  /** Renders a change between two values (the caller has established that they differ). */
  pair(label: Label, b: unknown, a: unknown, path: AttrPath, depth: number): void {
    const prefix = label.key !== undefined ? `${label.key} = ` : '';
    const suffix = label.elem ? ',' : '';
    const forces = this.forces(path);
    const aUnknown = this.unknownAt(path, a);
    const bAbsent = absent(b);
    const aAbsent = !aUnknown && absent(a);
    if (covered(this.paths.beforeSensitive, path) || covered(this.paths.afterSensitive, path)) {
      const sym: Sym = bAbsent ? '+' : aAbsent ? '-' : '~';
      const text = aUnknown
        ? bAbsent
          ? KNOWN_AFTER_APPLY
          : `${SENSITIVE_TEXT} -> ${KNOWN_AFTER_APPLY}`
        : `${SENSITIVE_TEXT}${aAbsent ? ' -> null' : ''}`;
      return this.out(depth, sym, `${prefix}${text}${suffix}`, forces);
    }
    if (aUnknown) {
      if (bAbsent) return this.out(depth, '+', `${prefix}${KNOWN_AFTER_APPLY}${suffix}`, forces);
      if (
        !isStruct(b) &&
        parseJsonStructure(b) === undefined &&
        !(typeof b === 'string' && b.includes('\n'))
      ) {
        return this.out(
          depth,
          '~',
          `${prefix}${formatPrimitive(b)} -> ${KNOWN_AFTER_APPLY}${suffix}`,
          forces,
        );
      }
      return this.whole(label, b, '-', path, depth, 'before', {
        headSym: '~',
        tail: ` -> ${KNOWN_AFTER_APPLY}`,
      });
    }
    if (bAbsent) return this.whole(label, a, '+', path, depth, 'after');
    if (aAbsent) return this.whole(label, b, '-', path, depth, 'before', { tail: ' -> null' });

    const bJson = parseJsonStructure(b);
    const aJson = parseJsonStructure(a);
    if (bJson !== undefined && aJson !== undefined) {
      this.out(depth, '~', `${prefix}jsonencode(`, forces);
      const inner = new DiffWriter(this.out, NO_PATHS);
      if (inner.changed(bJson, aJson, [])) inner.pair({}, bJson, aJson, [], depth + 1);
      else this.out(depth + 1, ' ', '# (whitespace changes only)');
      return this.out(depth, ' ', `)${suffix}`);
    }
    if (Array.isArray(b) && Array.isArray(a)) {
      this.out(depth, '~', `${prefix}[`, forces);
      this.listBody(b, a, path, depth + 1);
      return this.out(depth, ' ', `]${suffix}`);
    }
    if (isObj(b) && isObj(a)) {
      this.out(depth, '~', `${prefix}{`, forces);
      this.objectBody(b, a, path, depth + 1, { hideUnchanged: true, top: false });
      return this.out(depth, ' ', `}${suffix}`);
    }
    if (!isStruct(b) && !isStruct(a)) {
      if (typeof b === 'string' && typeof a === 'string' && (b.includes('\n') || a.includes('\n'))) {
        return this.heredocDiff(prefix, suffix, b, a, depth, forces);
      }
      return this.out(depth, '~', `${prefix}${formatPrimitive(b)} -> ${formatPrimitive(a)}${suffix}`, forces);
    }
    // The kind changed (e.g. string to map): show the old value removed and the new one added.
    this.whole(label, b, '-', path, depth, 'before');
    this.whole(label, a, '+', path, depth, 'after');
  }

  objectBody(
    b: Obj,
    a: Obj,
    path: AttrPath,
    depth: number,
    opts: { hideUnchanged: boolean; top: boolean; alwaysShow?: ReadonlySet<string> },
  ): void {
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])]
      .filter((k) => !(absent(b[k]) && absent(a[k]) && !this.unknownAt([...path, k], a[k])))
      .sort();
    const changed = new Set(keys.filter((k) => this.changed(b[k], a[k], [...path, k])));
    const shown = keys.filter(
      (k) => changed.has(k) || !opts.hideUnchanged || (opts.alwaysShow?.has(k) && !isStruct(a[k])),
    );
    const width = Math.max(0, ...shown.map((k) => keyText(k, opts.top).length));
    let hidden = 0;
    for (const k of keys) {
      const label = { key: pad(keyText(k, opts.top), width) };
      if (changed.has(k)) this.pair(label, b[k], a[k], [...path, k], depth);
      else if (shown.includes(k)) this.whole(label, a[k], ' ', [...path, k], depth, 'after');
      else hidden++;
    }
    if (hidden > 0) {
      this.out(depth, ' ', `# (${hidden} unchanged ${hidden === 1 ? 'attribute' : 'attributes'} hidden)`);
    }
  }

  private listBody(b: unknown[], a: unknown[], path: AttrPath, depth: number): void {
    const ops = lcs(b, a, (x, y) => deepEqual(x, y));
    // Unchanged primitives next to a change are shown for context; everything else unchanged is counted.
    const structs = b.some(isStruct) || a.some(isStruct);
    let bi = 0;
    let ai = 0;
    let k = 0;
    const near = (idx: number): boolean =>
      !structs && ((idx > 0 && ops[idx - 1] !== 'eq') || (idx + 1 < ops.length && ops[idx + 1] !== 'eq'));
    let hidden = 0;
    const flushHidden = (): void => {
      if (hidden > 0) {
        this.out(depth, ' ', `# (${hidden} unchanged ${hidden === 1 ? 'element' : 'elements'} hidden)`);
      }
      hidden = 0;
    };
    while (k < ops.length) {
      if (ops[k] === 'eq') {
        if (near(k)) {
          flushHidden();
          this.whole({ elem: true }, a[ai], ' ', [...path, ai], depth, 'after');
        } else hidden++;
        bi++;
        ai++;
        k++;
        continue;
      }
      flushHidden();
      const dels: number[] = [];
      const adds: number[] = [];
      while (k < ops.length && ops[k] !== 'eq') {
        if (ops[k] === 'del') dels.push(bi++);
        else adds.push(ai++);
        k++;
      }
      const pairs = Math.min(dels.length, adds.length);
      let d = 0;
      let p = 0;
      for (; p < pairs; p++) {
        const bv = b[dels[p]!];
        const av = a[adds[p]!];
        const sameKind = (isObj(bv) && isObj(av)) || (Array.isArray(bv) && Array.isArray(av));
        if (!sameKind) break;
        this.pair({ elem: true }, bv, av, [...path, adds[p]!], depth);
        d++;
      }
      for (let i = d; i < dels.length; i++) {
        this.whole({ elem: true }, b[dels[i]!], '-', [...path, dels[i]!], depth, 'before');
      }
      for (let i = p; i < adds.length; i++) {
        this.whole({ elem: true }, a[adds[i]!], '+', [...path, adds[i]!], depth, 'after');
      }
    }
    flushHidden();
  }

  private heredocDiff(
    prefix: string,
    suffix: string,
    b: string,
    a: string,
    depth: number,
    forces?: string,
  ): void {
    const bl = b.replace(/\n$/, '').split('\n');
    const al = a.replace(/\n$/, '').split('\n');
    const ops = lcs(bl, al, (x, y) => x === y);
    this.out(depth, '~', `${prefix}<<-EOT`, forces);
    const changedAt = ops.map((o) => o !== 'eq');
    const nearChange = (idx: number): boolean => {
      for (let d = -CONTEXT_LINES; d <= CONTEXT_LINES; d++) if (changedAt[idx + d]) return true;
      return false;
    };
    let bi = 0;
    let ai = 0;
    let hidden = 0;
    const flush = (): void => {
      if (hidden > 0)
        this.out(depth + 1, ' ', `# (${hidden} unchanged ${hidden === 1 ? 'line' : 'lines'} hidden)`);
      hidden = 0;
    };
    ops.forEach((op, idx) => {
      if (op === 'eq') {
        if (nearChange(idx)) {
          flush();
          this.out(depth + 1, ' ', al[ai]!);
        } else hidden++;
        bi++;
        ai++;
      } else if (op === 'del') {
        flush();
        this.out(depth + 1, '-', bl[bi++]!);
      } else {
        flush();
        this.out(depth + 1, '+', al[ai++]!);
      }
    });
    flush();
    this.out(depth, ' ', `EOT${suffix}`);
  }
}

const HEAD_SYM: Record<ResourceChange['action'], Sym> = {
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  read: '<=',
  noop: ' ',
  forget: '.',
};

export function actionSymbol(rc: Pick<ResourceChange, 'action' | 'createBeforeDestroy'>): Sym {
  return rc.action === 'replace' && rc.createBeforeDestroy ? '+/-' : HEAD_SYM[rc.action];
}

/** Attributes shown even when unchanged, to tell objects apart (as Terraform shows id and name). */
const IDENTIFYING = new Set(['id', 'name']);

/**
 * The attributes a created or read object lists, sorted: those with a value, and those unknown (by
 * marker or by a top-level path in `afterUnknown`, which may name attributes `after` lacks).
 */
function shownAfterKeys(after: Obj, afterUnknown: AttrPath[]): string[] {
  const keys: string[] = [];
  for (const k of Object.keys(after)) if (!absent(after[k])) keys.push(k);
  for (let i = 0; i < afterUnknown.length; i++) {
    const p = afterUnknown[i]!;
    if (p.length !== 1) continue;
    const k = String(p[0]);
    if (!keys.includes(k)) keys.push(k);
  }
  return keys.sort();
}

/** The `resource "type" "name" { ... }` block of one change, line by line into `out`. */
export function writeResourceLines(rc: ResourceChange, out: LineSink): void {
  const w = new DiffWriter(out, rc);
  out(0, actionSymbol(rc), `${rc.mode === 'data' ? 'data' : 'resource'} "${rc.type}" "${rc.name}" {`);
  if (rc.action === 'create' || rc.action === 'read') {
    const after = rc.after ?? {};
    const keys = shownAfterKeys(after, rc.afterUnknown);
    let width = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i]!.length > width) width = keys[i]!.length;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      w.whole({ key: pad(k, width) }, after[k], '+', [k], 1, 'after');
    }
  } else if (rc.action === 'delete') {
    const before = rc.before ?? {};
    const keys = Object.keys(before)
      .filter((k) => !absent(before[k]))
      .sort();
    const width = Math.max(0, ...keys.map((k) => k.length));
    for (const k of keys)
      w.whole({ key: pad(k, width) }, before[k], '-', [k], 1, 'before', { tail: ' -> null' });
  } else {
    w.objectBody(rc.before ?? {}, rc.after ?? {}, [], 1, {
      // An import shows the whole object it adopts, as Terraform does.
      hideUnchanged: rc.importing === undefined,
      top: true,
      alwaysShow: IDENTIFYING,
    });
  }
  out(0, ' ', '}');
}

/** A sink that keeps the lines. */
function collect(out: DiffLine[]): LineSink {
  return (depth, sym, text, comment) => {
    out.push(comment ? { depth, sym, text, comment } : { depth, sym, text });
  };
}

/** The `resource "type" "name" { ... }` block of one change. */
export function resourceLines(rc: ResourceChange): DiffLine[] {
  const out: DiffLine[] = [];
  writeResourceLines(rc, collect(out));
  return out;
}

/** `+ url = "..."` lines for the output changes that do something. */
export function outputLines(changes: OutputChange[]): DiffLine[] {
  const out: DiffLine[] = [];
  const sink = collect(out);
  const shown = changes.filter((c) => c.action !== 'noop');
  const width = Math.max(0, ...shown.map((c) => keyText(c.name, true).length));
  for (const c of shown) {
    const w = new DiffWriter(sink, {
      beforeSensitive: c.sensitive ? [[]] : [],
      afterSensitive: c.sensitive ? [[]] : [],
      afterUnknown: c.afterUnknown ? [[]] : [],
      replacePaths: [],
    });
    const label = { key: pad(keyText(c.name, true), width) };
    if (c.action === 'create') w.whole(label, c.after, '+', [], 0, 'after');
    else if (c.action === 'delete') w.whole(label, c.before, '-', [], 0, 'before', { tail: ' -> null' });
    else if (w.changed(c.before, c.after, [])) w.pair(label, c.before, c.after, [], 0);
    else w.whole(label, c.after, ' ', [], 0, 'after');
  }
  return out;
}

const INDENTS: string[] = [];

/** Four spaces per level, made once per depth: every line of a plan asks for one. */
export function indentOf(depth: number): string {
  return (INDENTS[depth] ??= '    '.repeat(depth));
}

const SYM_COLUMN: Record<Sym, string> = {
  '+': '  +',
  '-': '  -',
  '~': '  ~',
  '-/+': '-/+',
  '+/-': '+/-',
  '<=': ' <=',
  '.': '  .',
  ' ': '   ',
};

const leads: Record<Sym, string[]> = {
  '+': [],
  '-': [],
  '~': [],
  '-/+': [],
  '+/-': [],
  '<=': [],
  '.': [],
  ' ': [],
};

/**
 * What a plain-text line starts with (its indent and its symbol's column) by symbol and depth, as far
 * as leadOf has made them: the text renderer looks here first, as a call per line costs in cold code.
 */
export const LEADS: Readonly<Record<Sym, readonly string[]>> = leads;

export function leadOf(depth: number, sym: Sym): string {
  return (leads[sym][depth] ??= `${indentOf(depth)}${SYM_COLUMN[sym]} `);
}

/** Plain-text layout of a diff line: four spaces per level, the symbol right-aligned in three columns. */
export function layoutParts(depth: number, sym: Sym, text: string, comment?: string): string {
  return `${leadOf(depth, sym)}${text}${comment ? ` # ${comment}` : ''}`;
}

export function layoutLine(l: DiffLine): string {
  return layoutParts(l.depth, l.sym, l.text, l.comment);
}
