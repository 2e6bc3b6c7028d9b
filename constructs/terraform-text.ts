/**
 * Text that travels inside a Terraform string attribute. Terraform (and our engine) read `${...}` and
 * `%{...}` in any string as template syntax, yet jobspecs are full of the scheduler's own runtime
 * interpolations (`${NOMAD_PORT_http}`, `${attr.kernel.name}`); those must reach the cluster verbatim,
 * so they are escaped (`$${`, `%%{`). cdktf tokens (`${TfToken[TOKEN.n]}`) are references on purpose
 * and are left for cdktf to resolve.
 */
import { Fn, Token } from 'cdktf';
import { containsToken, isToken } from './spec-rules';

const TOKEN_MARKER = /\$\{TfToken\[TOKEN\.\d+\]\}/g;

/** Escapes template syntax in literal text, keeping embedded cdktf tokens live. */
export function escapeTemplate(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(TOKEN_MARKER)) {
    out += escapeLiteral(text.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + escapeLiteral(text.slice(last));
}

// Replacer functions: in a replacement string `$$` would mean a single `$`.
function escapeLiteral(s: string): string {
  return s.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/**
 * JSON with object keys sorted (so the same spec always gives the same text and no spurious diff),
 * `undefined` dropped, and template syntax escaped. A number token is written bare, so once Terraform
 * resolves it the JSON holds a number (`"Count":3`), not a string.
 */
export function canonicalJson(value: unknown): string {
  // A reference inside the JSON text would be spliced in raw (a value holding a quote or a newline
  // breaks the JSON); jsonencode() encodes each value when Terraform resolves it.
  if (containsToken(value)) return Fn.jsonencode(dropUndefined(value));
  return escapeTemplate(jsonText(value));
}

/** Drops undefined values; cdktf itself escapes template syntax in literal strings of an expression. */
function dropUndefined(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(dropUndefined);
  if (v !== null && typeof v === 'object' && !isToken(v)) {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, dropUndefined(x)]),
    );
  }
  return v;
}

/** The same JSON as the provider receives it, after Terraform has read the escapes. */
export function jsonText(value: unknown): string {
  return write(value);
}

function write(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      if (isToken(v)) return Token.asString(v);
      if (!Number.isFinite(v)) throw new Error(`cannot write ${String(v)} as JSON`);
      return JSON.stringify(v);
    case 'string':
    case 'boolean':
      return JSON.stringify(v);
    case 'object': {
      if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : write(x))).join(',')}]`;
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`).join(',')}}`;
    }
    default:
      throw new Error(`cannot write a ${typeof v} as JSON`);
  }
}
