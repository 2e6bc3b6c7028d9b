/**
 * `yamlencode` / `yamldecode`. Terraform's YAML comes from go-yaml v3 through cty: strings and keys
 * double-quoted, multi-line strings as literal blocks, sequences not indented under their key, and a
 * `...` document end after a bare non-string scalar. The `yaml` package reproduces that with these
 * node styles; numbers are printed as Terraform prints them (no exponent for large integers).
 */
import type { Document } from 'yaml';
import { lazyModule } from '../../common/lazy-module';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = lazyModule(() => require('yaml') as typeof import('yaml'));
import { randomBytes } from 'node:crypto';
import { isObjectValue, sortedEntries } from '../expressions/values';
import { BigFloat, fromBig, isInfinite, isNum, numText } from '../numbers/num';
import { argStr } from './args';
import { fixed, FunctionError, type FunctionTable } from './registry';

/**
 * Objects with keys in lexical order, as cty hands them to go-yaml. Numbers other than safe
 * integers become marker strings that `yamlEncode` replaces with terraform's digits afterwards (the
 * yaml package would write exponents and doubles).
 */
function sortedDeep(v: unknown, numbers: Map<string, string>, nonce: string): unknown {
  if (Array.isArray(v)) return v.map((x) => sortedDeep(x, numbers, nonce));
  if (isObjectValue(v)) {
    const out = new Map<string, unknown>();
    for (const [k, x] of sortedEntries(v)) out.set(k, sortedDeep(x, numbers, nonce));
    return out;
  }
  if (isNum(v) && !(typeof v === 'number' && Number.isSafeInteger(v))) {
    if (isInfinite(v)) throw new FunctionError('cannot encode an infinite number as YAML');
    const marker = `${nonce}${numbers.size}`;
    numbers.set(marker, numText(v));
    return marker;
  }
  return v;
}

function styled(doc: Document): void {
  const { isPair, isScalar, Scalar, visit } = yaml();
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string')
        node.type = node.value.includes('\n') ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE;
    },
    Pair(_, pair) {
      if (isPair(pair) && isScalar(pair.key)) pair.key.type = Scalar.QUOTE_DOUBLE;
    },
  });
}

/** go-yaml indents a top-level literal block by two spaces; the yaml package does not indent it. */
function rootBlock(s: string): string {
  const chomp = s.endsWith('\n') ? '' : '-';
  const body = s.endsWith('\n') ? s.slice(0, -1) : s;
  const indent = /^ /.test(body) ? '2' : '';
  return `|${indent}${chomp}\n${body
    .split('\n')
    .map((l) => (l === '' ? '' : `  ${l}`))
    .join('\n')}\n`;
}

export function yamlEncode(v: unknown): string {
  if (typeof v === 'string' && v.includes('\n')) return rootBlock(v);
  const numbers = new Map<string, string>();
  const nonce = `n${randomBytes(8).toString('hex')}x`;
  const doc = new (yaml().Document)(sortedDeep(v, numbers, nonce));
  styled(doc);
  let text = doc.toString({ indentSeq: false, lineWidth: 0, minContentWidth: 0 });
  if (numbers.size > 0)
    text = text.replace(new RegExp(`"(${nonce}[0-9]+)"`, 'g'), (_, m: string) => numbers.get(m) ?? m);
  const bareScalar = v === null || isNum(v) || typeof v === 'boolean';
  return bareScalar ? `${text}...\n` : text;
}

/** Plain JSON-shaped values; YAML-only node kinds Terraform cannot represent are refused. */
function plain(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[typeof k === 'string' ? k : String(k)] = plain(x);
    return out;
  }
  if (isObjectValue(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  if (typeof v === 'bigint') return fromBig(BigFloat.fromInt(v));
  return v ?? null;
}

export function yamlDecode(text: string): unknown {
  if (text.trim() === '') throw new FunctionError('on line 1, column 1: missing start of document');
  // go-yaml resolves YAML 1.1 scalars (`yes`, `on`, `y` are booleans) and lets a repeated key win.
  const docs = yaml().parseAllDocuments(text, { schema: 'yaml-1.1', uniqueKeys: false, intAsBigInt: true });
  if (!Array.isArray(docs)) throw new FunctionError('invalid YAML: not a YAML document stream');
  if (docs.length === 0) return null;
  if (docs.length > 1) throw new FunctionError('on line 1, column 1: unexpected extra content after value');
  const doc = docs[0]!;
  const problem = doc.errors[0];
  if (problem)
    throw new FunctionError(
      `on line ${problem.linePos?.[0].line ?? 1}, column ${problem.linePos?.[0].col ?? 1}: ${problem.message.split('\n')[0]}`,
    );
  return plain(doc.toJS({ mapAsMap: true }));
}

export const yamlFunctions: FunctionTable = {
  yamlencode: fixed(1, ([v]) => yamlEncode(v)),
  yamldecode: fixed(1, (a) => yamlDecode(argStr(a, 0))),
};
