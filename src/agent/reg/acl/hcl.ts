/**
 * The part of HCL that ACL rules use: `key = value` attributes and `kind "label" { ... }` blocks, with
 * strings, numbers, booleans, lists and nested objects, and #, // and block comments. It yields plain
 * objects shaped like the JSON form of the same rules, so both forms share one interpreter.
 */

export class HclError extends Error {
  constructor(message: string, line: number) {
    super(`line ${line}: ${message}`);
    this.name = 'HclError';
  }
}

type Tok =
  | { t: 'ident'; v: string; line: number }
  | { t: 'string'; v: string; line: number }
  | { t: 'number'; v: number; line: number }
  | { t: 'punct'; v: string; line: number }
  | { t: 'eof'; line: number };

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let line = 1;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === '#' || (c === '/' && src[i + 1] === '/')) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) throw new HclError('unterminated comment', line);
      for (let k = i; k < end; k++) if (src[k] === '\n') line++;
      i = end + 2;
    } else if (c === '"') {
      let s = '';
      i++;
      for (;;) {
        const d = src[i];
        if (d === undefined || d === '\n') throw new HclError('unterminated string', line);
        if (d === '"') break;
        if (d === '\\') {
          const e = src[i + 1];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : (e ?? '');
          i += 2;
        } else {
          s += d;
          i++;
        }
      }
      i++;
      out.push({ t: 'string', v: s, line });
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i))!;
      out.push({ t: 'ident', v: m[0], line });
      i += m[0].length;
    } else if (/[0-9-]/.test(c)) {
      const m = /^-?[0-9]+(\.[0-9]+)?/.exec(src.slice(i));
      if (!m) throw new HclError(`unexpected character "${c}"`, line);
      out.push({ t: 'number', v: Number(m[0]), line });
      i += m[0].length;
    } else if ('={}[],:'.includes(c)) {
      out.push({ t: 'punct', v: c, line });
      i++;
    } else throw new HclError(`unexpected character "${c}"`, line);
  }
  out.push({ t: 'eof', line });
  return out;
}

type Obj = Record<string, unknown>;

class Parser {
  private pos = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok {
    return this.toks[this.pos]!;
  }
  private next(): Tok {
    return this.toks[this.pos++]!;
  }
  private isPunct(v: string): boolean {
    const t = this.peek();
    return t.t === 'punct' && t.v === v;
  }
  private expectPunct(v: string): void {
    const t = this.next();
    if (t.t !== 'punct' || t.v !== v) throw new HclError(`expected "${v}", found ${describe(t)}`, t.line);
  }

  body(closing: boolean): Obj {
    const obj: Obj = {};
    for (;;) {
      const t = this.peek();
      if (t.t === 'eof') {
        if (closing) throw new HclError('missing "}"', t.line);
        return obj;
      }
      if (closing && this.isPunct('}')) {
        this.next();
        return obj;
      }
      if (this.isPunct(',')) {
        this.next();
        continue;
      }
      const key = this.next();
      if (key.t !== 'ident' && key.t !== 'string')
        throw new HclError(`expected a key, found ${describe(key)}`, key.line);
      if (this.isPunct('=') || this.isPunct(':')) {
        this.next();
        obj[key.v] = this.value();
        continue;
      }
      const labels: string[] = [];
      while (this.peek().t === 'string') labels.push((this.next() as { v: string }).v);
      this.expectPunct('{');
      const inner = this.body(true);
      let target = obj;
      let k = key.v;
      for (const label of labels) {
        const existing = target[k];
        const next: Obj = isObj(existing) ? existing : {};
        target[k] = next;
        target = next;
        k = label;
      }
      const existing = target[k];
      target[k] = isObj(existing) ? { ...existing, ...inner } : inner;
    }
  }

  value(): unknown {
    const t = this.next();
    switch (t.t) {
      case 'string':
      case 'number':
        return t.v;
      case 'ident':
        if (t.v === 'true') return true;
        if (t.v === 'false') return false;
        throw new HclError(`unexpected identifier "${t.v}" as a value`, t.line);
      case 'punct':
        if (t.v === '{') return this.body(true);
        if (t.v === '[') {
          const list: unknown[] = [];
          while (!this.isPunct(']')) {
            list.push(this.value());
            if (this.isPunct(',')) this.next();
            else if (!this.isPunct(']')) throw new HclError(`expected "," or "]"`, this.peek().line);
          }
          this.next();
          return list;
        }
        throw new HclError(`unexpected "${t.v}"`, t.line);
      case 'eof':
        throw new HclError('unexpected end of input', t.line);
    }
  }
}

function describe(t: Tok): string {
  return t.t === 'eof' ? 'end of input' : `"${String(t.v)}"`;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses rules text in HCL or JSON into a plain object. Throws HclError (or SyntaxError for JSON). */
export function parseRulesText(text: string): Obj {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('{')) {
    const v: unknown = JSON.parse(trimmed);
    if (!isObj(v)) throw new HclError('JSON rules must be an object', 1);
    return v;
  }
  return new Parser(lex(text)).body(false);
}
