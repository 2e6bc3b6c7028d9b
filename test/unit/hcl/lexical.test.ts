import { ASCII_IDENT, Cursor } from '../../../src/hcl/cursor';
import { matchBinaryOp, readNumber } from '../../../src/hcl/syntax';
import {
  applyStripMarkers,
  findHeredocEnd,
  readEscape,
  scanTemplate,
  type TemplateHooks,
} from '../../../src/hcl/template';

class TestCursor extends Cursor {
  protected unterminatedComment(): Error {
    return new Error(`unterminated comment at ${this.pos}`);
  }
}

const noHooks: TemplateHooks<never, never> = {
  interpolation: () => {
    throw new Error('interp');
  },
  directive: () => {
    throw new Error('dir');
  },
  escape: () => '?',
  unterminated: () => new Error('unterminated'),
  newline: () => new Error('newline'),
};

describe('shared HCL lexical layer', () => {
  it('maps offsets to 1-based lines and columns', () => {
    const c = new TestCursor('ab\ncd\n\nef');
    expect(c.posAt(0)).toEqual({ line: 1, column: 1, offset: 0 });
    expect(c.posAt(4)).toEqual({ line: 2, column: 2, offset: 4 });
    expect(c.posAt(7)).toEqual({ line: 4, column: 1, offset: 7 });
  });

  it('skips newlines and line comments only inside brackets', () => {
    const c = new TestCursor('  # note\n  x');
    c.skipInline();
    expect(c.pos).toBe(2);
    c.nlFree = 1;
    c.skipInline();
    expect(c.peek()).toBe('x');
    expect(() => new TestCursor('/* open').skipAll()).toThrow('unterminated comment at 0');
  });

  it('reads identifiers with the dialect character set', () => {
    expect(new TestCursor('héllo-1 x').readIdent()).toBe('héllo-1');
    expect(new TestCursor('héllo', ASCII_IDENT).readIdent()).toBe('h');
    const c = new TestCursor('format in');
    expect(c.eatKeyword('for')).toBe(false);
    expect(c.readIdent()).toBe('format');
  });

  it('reads numbers and operators', () => {
    const c = new TestCursor('12.5e3+1');
    expect(readNumber(c)).toBe('12.5e3');
    expect(matchBinaryOp(c, 4, true)).toBe('+');
    expect(matchBinaryOp(new TestCursor('<<EOT'), 3, true)).toBeUndefined();
    expect(matchBinaryOp(new TestCursor('<<EOT'), 3, false)).toBe('<');
    expect(matchBinaryOp(new TestCursor('// c'), 5, false)).toBeUndefined();
  });

  it('scans literal runs, escapes of ${ and %{, and heredoc indentation', () => {
    const c = new TestCursor('a $${b} %%{c} d');
    expect(scanTemplate(c, noHooks, { quoted: false })).toEqual([{ kind: 'lit', text: 'a ${b} %{c} d' }]);
    const text = '    one\n      two\n    EOT\n';
    const bounds = findHeredocEnd(text, 0, 'EOT', true);
    expect(bounds).toMatchObject({ contentEnd: 18, after: 25, flushIndent: 4 });
    const h = new TestCursor(text);
    const tokens = scanTemplate(h, noHooks, { quoted: false, end: 18, flushIndent: 4 });
    expect(tokens).toEqual([{ kind: 'lit', text: 'one\n  two\n' }]);
  });

  it('stops quoted strings at the quote and reports newlines', () => {
    const c = new TestCursor('x\\ny" rest');
    const hooks = {
      ...noHooks,
      escape: () => {
        c.pos += 2;
        return '?';
      },
    };
    expect(scanTemplate(c, hooks, { quoted: true })).toEqual([{ kind: 'lit', text: 'x?y' }]);
    expect(c.peek()).toBe('"');
    expect(() => scanTemplate(new TestCursor('x\ny"'), noHooks, { quoted: true })).toThrow('newline');
    expect(() => scanTemplate(new TestCursor('xy'), noHooks, { quoted: true })).toThrow('unterminated');
  });

  it('decodes escapes and reports bad ones', () => {
    expect(readEscape(new TestCursor('\\u00e9'))).toEqual({ ok: true, text: 'é' });
    expect(readEscape(new TestCursor('\\u00'))).toEqual({ ok: false, selector: 'u', start: 0, hexLength: 4 });
    expect(readEscape(new TestCursor('\\q'))).toEqual({ ok: false, selector: 'q', start: 0 });
  });

  it('applies strip markers to neighbouring literals', () => {
    const tokens = [
      { kind: 'lit' as const, text: 'a  ' },
      { kind: 'interp' as const, expr: 1, stripL: true, stripR: true },
      { kind: 'lit' as const, text: '\n b' },
    ];
    applyStripMarkers(tokens);
    expect(tokens[0]).toEqual({ kind: 'lit', text: 'a' });
    expect(tokens[2]).toEqual({ kind: 'lit', text: 'b' });
  });
});
