/**
 * cty values on the wire: the bytes Terraform's msgpack encoding gives (checked byte by byte where the
 * form matters: unknowns, sorted object keys, integer widths), round trips of every type our schemas
 * use, and the JSON forms of stored state.
 */
import {
  CtyError,
  blockType,
  ctyType,
  decodeJsonValue,
  decodeMsgpackValue,
  encodeJsonValue,
  encodeMsgpackValue,
  type CtyType,
} from '../../../src/plugin/cty';
import { MsgpackExt, MsgpackWriter, decodeMsgpack } from '../../../src/plugin/msgpack';
import { UNKNOWN, isUnknown } from '../../../src/provider/values';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('msgpack', () => {
  it('writes integers in their smallest form and other numbers as float64', () => {
    const w = new MsgpackWriter(1);
    for (const n of [0, 127, 128, 255, 256, 65536, -1, -32, -33, -200, 2 ** 40, 1.5]) w.number(n);
    expect(hex(w.bytes())).toBe(
      [
        '00',
        '7f',
        'cc80',
        'ccff',
        'cd0100',
        'ce00010000',
        'ff',
        'e0',
        'd0df',
        'd1ff38',
        'cf0000010000000000',
        'cb3ff8000000000000',
      ].join(''),
    );
  });

  it('reads what it writes, including long strings, large maps and extensions', () => {
    const w = new MsgpackWriter(4);
    const long = 'x'.repeat(70_000);
    w.arrayHeader(4);
    w.str(long);
    w.mapHeader(20);
    for (let i = 0; i < 20; i++) {
      w.str(`k${i}`);
      w.number(-i * 1000);
    }
    w.ext(12, new Uint8Array([0x81, 0x01, 0xc2]));
    w.bin(new Uint8Array([1, 2, 3]));
    const [s, m, e, b] = decodeMsgpack(w.bytes()) as [string, Map<string, number>, MsgpackExt, Uint8Array];
    expect(s).toBe(long);
    expect(m.get('k19')).toBe(-19000);
    expect(e).toBeInstanceOf(MsgpackExt);
    expect(e.type).toBe(12);
    expect([...b]).toEqual([1, 2, 3]);
  });

  it('rejects truncated data and trailing bytes', () => {
    expect(() => decodeMsgpack(Buffer.from('a3616263', 'hex').subarray(0, 3))).toThrow(/end of data/);
    expect(() => decodeMsgpack(Buffer.from('c0c0', 'hex'))).toThrow(/trailing/);
  });
});

describe('cty msgpack', () => {
  const objType: CtyType = [
    'object',
    { name: 'string', count: 'number', tags: ['list', 'string'], meta: ['map', 'string'], on: 'bool' },
  ];

  it('writes an unknown as cty does (fixext1 of type 0) and objects with sorted keys', () => {
    expect(hex(encodeMsgpackValue(UNKNOWN, 'string'))).toBe('d40000');
    const bytes = encodeMsgpackValue({ on: true, name: 'a' }, objType);
    // map of 5: count nil, meta nil, name "a", on true, tags nil (alphabetical)
    expect(hex(bytes)).toBe(
      '85' + 'a5636f756e74c0' + 'a46d657461c0' + 'a46e616d65a161' + 'a26f6ec3' + 'a474616773c0',
    );
  });

  it('round-trips objects, lists, sets, maps, nulls and unknowns at any depth', () => {
    const t: CtyType = [
      'object',
      {
        a: ['list', ['object', { x: 'string', y: ['set', 'number'] }]],
        b: ['map', 'bool'],
        c: 'dynamic',
        d: ['tuple', ['string', 'number']],
      },
    ];
    const value = {
      a: [
        { x: 'one', y: [1, 2.5] },
        { x: UNKNOWN, y: null },
      ],
      b: { yes: true, no: false },
      c: { any: ['thing', 1] },
      d: ['s', 7],
    };
    const back = decodeMsgpackValue(encodeMsgpackValue(value, t), t) as typeof value;
    expect(isUnknown(back.a[1]!.x)).toBe(true);
    expect({ ...back, a: [back.a[0], { ...back.a[1], x: 'u' }] }).toEqual({
      ...value,
      a: [value.a[0], { x: 'u', y: null }],
    });
  });

  it('reads unknowns with refinements (extension 12) as plain unknowns', () => {
    // {"s": unknown refined as not null}
    const raw = Buffer.from('81a173' + 'c7030c' + '8101c2', 'hex');
    const v = decodeMsgpackValue(raw, ['object', { s: 'string' }]) as { s: unknown };
    expect(isUnknown(v.s)).toBe(true);
  });

  it('writes whole numbers as integers, large ones as floats, and reads numbers sent as strings', () => {
    expect(hex(encodeMsgpackValue(300, 'number'))).toBe('cd012c');
    expect(hex(encodeMsgpackValue(0.25, 'number'))).toBe('cb3fd0000000000000');
    expect(decodeMsgpackValue(encodeMsgpackValue('1e21', 'string'), 'number')).toBe(1e21);
    expect(hex(encodeMsgpackValue(2 ** 60, 'number'))).toBe('cb43b0000000000000');
  });

  it('writes free-form JSON values of string attributes as their JSON text', () => {
    const bytes = encodeMsgpackValue({ Nodes: { a: 1 } }, 'string');
    expect(decodeMsgpackValue(bytes, 'string')).toBe('{"Nodes":{"a":1}}');
  });

  it('reads map keys that are not valid as object properties safely', () => {
    const w = new MsgpackWriter();
    w.mapHeader(1);
    w.str('__proto__');
    w.str('x');
    const m = decodeMsgpackValue(w.bytes(), ['map', 'string']) as Record<string, string>;
    expect(Object.keys(m)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });

  it('names the path of a value that does not fit its type', () => {
    expect(() => encodeMsgpackValue({ tags: 'nope' }, objType)).toThrow(CtyError);
    expect(() => encodeMsgpackValue({ tags: 'nope' }, objType)).toThrow(/^tags: expected a list/);
    expect(() =>
      decodeMsgpackValue(encodeMsgpackValue({ zzz: 1 }, ['object', { zzz: 'number' }]), objType),
    ).toThrow(/zzz: unsupported attribute/);
  });
});

describe('cty JSON', () => {
  it('reads stored state, dropping attributes the schema no longer has', () => {
    const t: CtyType = ['object', { name: 'string', n: 'number', gone: 'string' }];
    const v = decodeJsonValue({ name: 'x', n: 3, old: 'dropped' }, t);
    expect(v).toEqual({ name: 'x', n: 3, gone: null });
  });

  it('writes sorted objects and refuses unknowns', () => {
    const t: CtyType = ['object', { b: 'string', a: ['map', 'number'] }];
    expect(JSON.stringify(encodeJsonValue({ b: 'x', a: { z: 1, y: 2 } }, t))).toBe(
      '{"a":{"y":2,"z":1},"b":"x"}',
    );
    expect(() => encodeJsonValue({ b: UNKNOWN }, t)).toThrow(/unknown/);
  });

  it('reads dynamic values in their {"value","type"} form', () => {
    expect(decodeJsonValue({ value: ['a'], type: ['list', 'string'] }, 'dynamic')).toEqual(['a']);
  });
});

describe('schema types', () => {
  it('gives blocks as objects, lists and sets of their own object type', () => {
    const t = blockType({
      attributes: { id: { type: 'string', computed: true } },
      block_types: {
        rule: { nesting_mode: 'list', block: { attributes: { sel: { type: 'string', optional: true } } } },
        timeouts: {
          nesting_mode: 'single',
          block: { attributes: { create: { type: 'string', optional: true } } },
        },
        tag: { nesting_mode: 'set', block: { attributes: { k: { type: 'string', required: true } } } },
      },
    });
    expect(t).toEqual([
      'object',
      {
        id: 'string',
        rule: ['list', ['object', { sel: 'string' }]],
        timeouts: ['object', { create: 'string' }],
        tag: ['set', ['object', { k: 'string' }]],
      },
    ]);
  });

  it('refuses types it does not know', () => {
    expect(() => ctyType(['frob', 'string'])).toThrow(/unsupported type/);
  });
});
