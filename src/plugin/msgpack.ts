/**
 * The subset of MessagePack that Terraform's values use (nil, bool, numbers, str, bin, arrays, maps and
 * extension types), as a writer driven by the cty encoder and a reader that yields a plain tree. Written
 * here rather than taken from a library because cty needs control the generic encoders do not give:
 * integers versus floats, map key order, and extension values standing for unknowns.
 */

/** An extension value (cty uses type 0, and 12 for unknowns with refinements). */
export class MsgpackExt {
  constructor(
    readonly type: number,
    readonly data: Uint8Array,
  ) {}
}

/** A decoded msgpack map: keys in wire order, any key type. */
export type MsgpackMap = Map<unknown, unknown>;

export class MsgpackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MsgpackError';
  }
}

export class MsgpackWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initialSize = 256) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  private byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  nil(): void {
    this.byte(0xc0);
  }

  bool(v: boolean): void {
    this.byte(v ? 0xc3 : 0xc2);
  }

  /** A number: the smallest integer encoding for safe integers, float64 otherwise. */
  number(v: number): void {
    if (Number.isSafeInteger(v)) this.int(v);
    else this.float64(v);
  }

  int(v: number): void {
    if (v >= 0) {
      if (v < 0x80) return this.byte(v);
      if (v <= 0xff) {
        this.ensure(2);
        this.buf[this.pos++] = 0xcc;
        this.buf[this.pos++] = v;
        return;
      }
      if (v <= 0xffff) {
        this.ensure(3);
        this.buf[this.pos++] = 0xcd;
        this.buf.writeUInt16BE(v, this.pos);
        this.pos += 2;
        return;
      }
      if (v <= 0xffffffff) {
        this.ensure(5);
        this.buf[this.pos++] = 0xce;
        this.buf.writeUInt32BE(v, this.pos);
        this.pos += 4;
        return;
      }
      this.ensure(9);
      this.buf[this.pos++] = 0xcf;
      this.buf.writeBigUInt64BE(BigInt(v), this.pos);
      this.pos += 8;
      return;
    }
    if (v >= -32) return this.byte(v & 0xff);
    if (v >= -128) {
      this.ensure(2);
      this.buf[this.pos++] = 0xd0;
      this.buf.writeInt8(v, this.pos++);
      return;
    }
    if (v >= -32768) {
      this.ensure(3);
      this.buf[this.pos++] = 0xd1;
      this.buf.writeInt16BE(v, this.pos);
      this.pos += 2;
      return;
    }
    if (v >= -2147483648) {
      this.ensure(5);
      this.buf[this.pos++] = 0xd2;
      this.buf.writeInt32BE(v, this.pos);
      this.pos += 4;
      return;
    }
    this.ensure(9);
    this.buf[this.pos++] = 0xd3;
    this.buf.writeBigInt64BE(BigInt(v), this.pos);
    this.pos += 8;
  }

  float64(v: number): void {
    this.ensure(9);
    this.buf[this.pos++] = 0xcb;
    this.buf.writeDoubleBE(v, this.pos);
    this.pos += 8;
  }

  str(s: string): void {
    const len = Buffer.byteLength(s, 'utf8');
    if (len < 32) this.byte(0xa0 | len);
    else if (len <= 0xff) {
      this.ensure(2);
      this.buf[this.pos++] = 0xd9;
      this.buf[this.pos++] = len;
    } else if (len <= 0xffff) {
      this.ensure(3);
      this.buf[this.pos++] = 0xda;
      this.buf.writeUInt16BE(len, this.pos);
      this.pos += 2;
    } else {
      this.ensure(5);
      this.buf[this.pos++] = 0xdb;
      this.buf.writeUInt32BE(len, this.pos);
      this.pos += 4;
    }
    this.ensure(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
  }

  bin(data: Uint8Array): void {
    const len = data.length;
    if (len <= 0xff) {
      this.ensure(2);
      this.buf[this.pos++] = 0xc4;
      this.buf[this.pos++] = len;
    } else if (len <= 0xffff) {
      this.ensure(3);
      this.buf[this.pos++] = 0xc5;
      this.buf.writeUInt16BE(len, this.pos);
      this.pos += 2;
    } else {
      this.ensure(5);
      this.buf[this.pos++] = 0xc6;
      this.buf.writeUInt32BE(len, this.pos);
      this.pos += 4;
    }
    this.raw(data);
  }

  arrayHeader(n: number): void {
    this.header(n, 0x90, 0xdc, 0xdd);
  }

  mapHeader(n: number): void {
    this.header(n, 0x80, 0xde, 0xdf);
  }

  ext(type: number, data: Uint8Array): void {
    const fixed: Record<number, number> = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 };
    const code = fixed[data.length];
    if (code !== undefined) {
      this.ensure(2);
      this.buf[this.pos++] = code;
      this.buf.writeInt8(type, this.pos++);
    } else {
      if (data.length <= 0xff) {
        this.ensure(3);
        this.buf[this.pos++] = 0xc7;
        this.buf[this.pos++] = data.length;
      } else if (data.length <= 0xffff) {
        this.ensure(4);
        this.buf[this.pos++] = 0xc8;
        this.buf.writeUInt16BE(data.length, this.pos);
        this.pos += 2;
      } else {
        this.ensure(6);
        this.buf[this.pos++] = 0xc9;
        this.buf.writeUInt32BE(data.length, this.pos);
        this.pos += 4;
      }
      this.buf.writeInt8(type, this.pos++);
    }
    this.raw(data);
  }

  private header(n: number, fix: number, b16: number, b32: number): void {
    if (n < 16) return this.byte(fix | n);
    if (n <= 0xffff) {
      this.ensure(3);
      this.buf[this.pos++] = b16;
      this.buf.writeUInt16BE(n, this.pos);
      this.pos += 2;
      return;
    }
    this.ensure(5);
    this.buf[this.pos++] = b32;
    this.buf.writeUInt32BE(n, this.pos);
    this.pos += 4;
  }

  private raw(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  /** The bytes written so far (a copy, so the writer may be reused). */
  bytes(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

/**
 * Decodes one msgpack value into a tree: null, boolean, number (64-bit integers beyond 2^53 lose
 * precision, as cty numbers that large travel as strings anyway), string, Uint8Array, arrays, Maps and
 * MsgpackExt. Trailing bytes are an error.
 */
export function decodeMsgpack(data: Uint8Array): unknown {
  const reader = new Reader(data);
  const value = reader.value();
  if (reader.pos !== data.length) throw new MsgpackError(`${data.length - reader.pos} trailing bytes`);
  return value;
}

class Reader {
  pos = 0;
  private readonly view: DataView;

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  private need(n: number): void {
    if (this.pos + n > this.data.length) throw new MsgpackError('unexpected end of data');
  }

  private u8(): number {
    this.need(1);
    return this.data[this.pos++]!;
  }

  private u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  private u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  private bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  private str(n: number): string {
    return Buffer.from(this.bytes(n)).toString('utf8');
  }

  private array(n: number): unknown[] {
    const out: unknown[] = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = this.value();
    return out;
  }

  private map(n: number): MsgpackMap {
    const out: MsgpackMap = new Map();
    for (let i = 0; i < n; i++) {
      const k = this.value();
      out.set(k, this.value());
    }
    return out;
  }

  private ext(n: number): MsgpackExt {
    this.need(1);
    const type = this.view.getInt8(this.pos++);
    return new MsgpackExt(type, this.bytes(n));
  }

  value(): unknown {
    const b = this.u8();
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    if ((b & 0xf0) === 0x80) return this.map(b & 0x0f);
    if ((b & 0xf0) === 0x90) return this.array(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return this.str(b & 0x1f);
    switch (b) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.bytes(this.u8());
      case 0xc5:
        return this.bytes(this.u16());
      case 0xc6:
        return this.bytes(this.u32());
      case 0xc7:
        return this.ext(this.u8());
      case 0xc8:
        return this.ext(this.u16());
      case 0xc9:
        return this.ext(this.u32());
      case 0xca: {
        this.need(4);
        const v = this.view.getFloat32(this.pos);
        this.pos += 4;
        return v;
      }
      case 0xcb: {
        this.need(8);
        const v = this.view.getFloat64(this.pos);
        this.pos += 8;
        return v;
      }
      case 0xcc:
        return this.u8();
      case 0xcd:
        return this.u16();
      case 0xce:
        return this.u32();
      case 0xcf: {
        this.need(8);
        const v = this.view.getBigUint64(this.pos);
        this.pos += 8;
        return Number(v);
      }
      case 0xd0: {
        this.need(1);
        return this.view.getInt8(this.pos++);
      }
      case 0xd1: {
        this.need(2);
        const v = this.view.getInt16(this.pos);
        this.pos += 2;
        return v;
      }
      case 0xd2: {
        this.need(4);
        const v = this.view.getInt32(this.pos);
        this.pos += 4;
        return v;
      }
      case 0xd3: {
        this.need(8);
        const v = this.view.getBigInt64(this.pos);
        this.pos += 8;
        return Number(v);
      }
      case 0xd4:
        return this.ext(1);
      case 0xd5:
        return this.ext(2);
      case 0xd6:
        return this.ext(4);
      case 0xd7:
        return this.ext(8);
      case 0xd8:
        return this.ext(16);
      case 0xd9:
        return this.str(this.u8());
      case 0xda:
        return this.str(this.u16());
      case 0xdb:
        return this.str(this.u32());
      case 0xdc:
        return this.array(this.u16());
      case 0xdd:
        return this.array(this.u32());
      case 0xde:
        return this.map(this.u16());
      case 0xdf:
        return this.map(this.u32());
      default:
        throw new MsgpackError(`unsupported msgpack byte 0x${b.toString(16)}`);
    }
  }
}
