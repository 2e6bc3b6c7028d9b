import type { Attribute, Block, Body, Expr } from './ast';
import { formatRange } from './errors';
import { ExprParser } from './expr-parser';
import { Source } from './source';

/** Parses HCL native syntax into a body of attributes and blocks; throws JobspecError. */
export function parseHcl(text: string, filename: string): Body {
  const src = new Source(text, filename);
  return new BodyParser(src).parseBody(undefined);
}

/** Parses a standalone expression (a variable value given as text). */
export function parseHclExpression(text: string, filename: string): Expr {
  const src = new Source(text, filename);
  const p = new ExprParser(src);
  src.skipAll();
  const e = p.parseExpr();
  src.skipAll();
  if (!src.atEnd)
    throw src.error(
      'Extra characters after expression',
      'An expression was successfully parsed, but extra characters were found after it.',
      src.pos,
    );
  return e;
}

class BodyParser {
  private readonly expr: ExprParser;

  constructor(private readonly src: Source) {
    this.expr = new ExprParser(src);
  }

  /** `openBrace` is the offset of the block's "{", or undefined for the file body. */
  parseBody(openBrace: number | undefined): Body {
    const s = this.src;
    const attributes: Attribute[] = [];
    const blocks: Block[] = [];
    const seen = new Map<string, Attribute>();
    const start = s.pos;
    for (;;) {
      s.skipAll();
      if (s.atEnd) {
        if (openBrace !== undefined) {
          throw s.error(
            'Unclosed configuration block',
            'There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.',
            openBrace,
          );
        }
        break;
      }
      if (s.peek() === '}') {
        if (openBrace !== undefined) break;
        throw s.error(
          'Argument or block definition required',
          'An argument or block definition is required here.',
          s.pos,
        );
      }
      const nameStart = s.pos;
      const name = s.readIdent();
      if (!name) {
        throw s.error(
          'Argument or block definition required',
          'An argument or block definition is required here.',
          s.pos,
        );
      }
      const nameRange = s.range(nameStart, s.pos);
      s.skipInline();
      if (s.peek() === '=' && s.peek(1) !== '=') {
        s.pos++;
        s.skipInline();
        const expr = this.expr.parseExpr();
        const prev = seen.get(name);
        if (prev) {
          throw s.error(
            'Attribute redefined',
            `The argument "${name}" was already set at ${formatRange(prev.nameRange)}. Each argument may be set only once.`,
            nameStart,
            nameStart + name.length,
          );
        }
        const attr: Attribute = { name, nameRange, expr, range: s.range(nameStart, s.pos) };
        seen.set(name, attr);
        attributes.push(attr);
        this.expectItemEnd('argument', 'An argument');
      } else {
        blocks.push(this.parseBlock(name, nameStart));
        this.expectItemEnd('block definition', 'A block');
      }
    }
    return { attributes, blocks, range: s.range(openBrace ?? start, s.pos) };
  }

  private parseBlock(type: string, typeStart: number): Block {
    const s = this.src;
    const typeRange = s.range(typeStart, typeStart + type.length);
    const labels: string[] = [];
    const labelRanges = [];
    for (;;) {
      const labelStart = s.pos;
      if (s.peek() === '"') {
        const e = this.expr.parseExpr();
        if (e.type !== 'template' || e.parts.some((p) => p.kind !== 'literal')) {
          throw s.error(
            'Invalid block label',
            'Template sequences are not allowed in block labels.',
            labelStart,
            s.pos,
          );
        }
        labels.push(e.parts.map((p) => (p.kind === 'literal' ? p.text : '')).join(''));
      } else {
        const ident = s.readIdent();
        if (!ident) break;
        labels.push(ident);
      }
      labelRanges.push(s.range(labelStart, s.pos));
      s.skipInline();
    }
    if (s.peek() !== '{') {
      if (labels.length === 0) {
        throw s.error(
          'Argument or block definition required',
          'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.',
          s.pos,
        );
      }
      throw s.error(
        'Invalid block definition',
        'Either a quoted string block label or an opening brace ("{") is expected here.',
        s.pos,
      );
    }
    const open = s.pos;
    s.pos++;
    const defRange = s.range(typeStart, s.pos);
    const body = this.parseBody(open);
    s.pos++; // }
    body.range = s.range(open, s.pos);
    return { type, labels, typeRange, labelRanges, body, defRange };
  }

  private expectItemEnd(what: string, article: string): void {
    const s = this.src;
    s.skipInline();
    if (s.atEnd || s.peek() === '\n' || s.peek() === '}' || s.atLineComment()) return;
    throw s.error(`Missing newline after ${what}`, `${article} definition must end with a newline.`, s.pos);
  }
}
