/**
 * `yamlencode` / `yamldecode`. Terraform's YAML comes from go-yaml v3 through cty: strings and keys
 * double-quoted, multi-line strings as literal blocks, sequences not indented under their key, and a
 * `...` document end after a bare non-string scalar. The `yaml` package reproduces that with these
 * node styles; numbers are printed as Terraform prints them (no exponent for large integers).
 */
import { Document, isPair, isScalar, parseAllDocuments, Scalar, visit } from 'yaml';
import { formatNumber, isObjectValue } from '../expressions/values';
import { argStr } from './args';
import { fixed, FunctionError, type FunctionTable } from './registry';

function styled(doc: Document): void {
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string')
        node.type = node.value.includes('\n') ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE;
      else if (typeof node.value === 'number') {
        const plain = new Scalar(formatNumber(node.value));
        plain.type = Scalar.PLAIN;
        return plain;
      }
      return undefined;
    },
    Pair(_, pair) {
      if (isPair(pair) && isScalar(pair.key)) pair.key.type = Scalar.QUOTE_DOUBLE;
    },
  });
}

export function yamlEncode(v: unknown): string {
  if (typeof v === 'number' && !Number.isFinite(v))
    throw new FunctionError('cannot encode an infinite number as YAML', 0);
  const doc = new Document(v);
  styled(doc);
  const text = doc.toString({ indentSeq: false, lineWidth: 0, minContentWidth: 0 });
  const bareScalar = v === null || typeof v === 'number' || typeof v === 'boolean';
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
  if (typeof v === 'bigint') return Number(v);
  return v ?? null;
}

export function yamlDecode(text: string): unknown {
  const docs = parseAllDocuments(text, { schema: 'core', uniqueKeys: true });
  if (!Array.isArray(docs)) throw new FunctionError('invalid YAML: not a YAML document stream', 0);
  if (docs.length === 0) return null;
  if (docs.length > 1)
    throw new FunctionError('on line 1, column 1: unexpected extra content after value', 0);
  const doc = docs[0]!;
  const problem = doc.errors[0];
  if (problem)
    throw new FunctionError(
      `on line ${problem.linePos?.[0].line ?? 1}, column ${problem.linePos?.[0].col ?? 1}: ${problem.message.split('\n')[0]}`,
      0,
    );
  return plain(doc.toJS({ mapAsMap: true }));
}

export const yamlFunctions: FunctionTable = {
  yamlencode: fixed(1, ([v]) => yamlEncode(v)),
  yamldecode: fixed(1, (a) => yamlDecode(argStr(a, 0))),
};
