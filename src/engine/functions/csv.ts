/**
 * `csvdecode`: RFC 4180 as Go's encoding/csv reads it. The first row names the columns; every row
 * must have as many fields as the header; the result is a list of objects of strings.
 */
import { FunctionError } from './registry';

/** Splits CSV text into rows of fields; quoted fields may hold commas, quotes ("") and newlines. */
function rows(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  let quoted = false;
  let fieldStart = true;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
        const n = text[i];
        if (n !== undefined && n !== ',' && n !== '\n' && n !== '\r')
          throw new FunctionError(
            `CSV parse error on line ${line}, column ${i + 1}: extraneous or missing " in quoted-field`,
          );
      } else {
        if (c === '\n') line++;
        field += c;
        i++;
      }
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
      i++;
    } else if (c === '"') {
      throw new FunctionError(`CSV parse error on line ${line}, column ${i + 1}: bare " in non-quoted-field`);
    } else if (c === ',') {
      row.push(field);
      field = '';
      fieldStart = true;
      i++;
    } else if (c === '\n' || c === '\r') {
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      row.push(field);
      // Go's reader skips empty lines.
      if (!(row.length === 1 && row[0] === '')) out.push(row);
      row = [];
      field = '';
      fieldStart = true;
      line++;
    } else {
      field += c;
      fieldStart = false;
      i++;
    }
  }
  if (quoted)
    throw new FunctionError(
      `CSV parse error on line ${line}, column ${i + 1}: extraneous or missing " in quoted-field`,
    );
  if (field !== '' || row.length > 0) out.push([...row, field]);
  return out;
}

export function csvDecode(text: string): Record<string, string>[] {
  const [header, ...data] = rows(text);
  if (!header) throw new FunctionError('missing header line');
  return data.map((r, n) => {
    if (r.length !== header.length)
      throw new FunctionError(`CSV parse error on line ${n + 2}: wrong number of fields`);
    const o: Record<string, string> = {};
    header.forEach((h, i) => Object.defineProperty(o, h, { value: r[i], enumerable: true, writable: true }));
    return o;
  });
}
