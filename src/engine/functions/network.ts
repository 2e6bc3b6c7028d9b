/**
 * CIDR functions for IPv4 and IPv6, on BigInt addresses so IPv6 arithmetic is exact. Messages follow
 * Terraform's (`invalid CIDR expression: ...`, `prefix extension of N does not accommodate ...`).
 */
import { isIP } from 'node:net';
import { argInt, argStr } from './args';
import { between, fixed, FunctionError, type FunctionTable } from './registry';

interface Prefix {
  /** Network address (host bits cleared, as Go's ParseCIDR returns it). */
  base: bigint;
  bits: number;
  /** 32 or 128. */
  width: number;
}

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (
    parts.length !== 4 ||
    parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255 || (p.length > 1 && p.startsWith('0')))
  )
    return undefined;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function parseV6(s: string): bigint | undefined {
  if (isIP(s) !== 6) return undefined;
  let text = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = parseV4(v4[1]!);
    if (n === undefined) return undefined;
    text = `${text.slice(0, v4.index)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

function parsePrefix(text: string): Prefix {
  const [addr = '', len, extra] = text.split('/');
  const v4 = parseV4(addr);
  const value = v4 ?? parseV6(addr);
  const width = v4 !== undefined ? 32 : 128;
  if (
    value === undefined ||
    len === undefined ||
    extra !== undefined ||
    !/^\d+$/.test(len) ||
    Number(len) > width
  )
    throw new FunctionError(`invalid CIDR expression: invalid CIDR address: ${text}`);
  const bits = Number(len);
  const mask = ((1n << BigInt(width)) - 1n) ^ ((1n << BigInt(width - bits)) - 1n);
  return { base: value & mask, bits, width };
}

function formatAddress(n: bigint, width: number): string {
  if (width === 32) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  // The longest run of two or more zero groups becomes "::" (the first such run on a tie), as Go prints.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

function cidrhost(text: string, hostnum: number): string {
  const p = parsePrefix(text);
  const hostBits = BigInt(p.width - p.bits);
  const size = 1n << hostBits;
  const n = BigInt(hostnum);
  if (n >= size || n < -size)
    throw new FunctionError(`prefix of ${p.bits} does not accommodate a host numbered ${hostnum}`);
  return formatAddress(p.base + (n < 0n ? size + n : n), p.width);
}

function cidrnetmask(text: string): string {
  const p = parsePrefix(text);
  if (p.width !== 32) throw new FunctionError(`IPv6 addresses cannot have a netmask: ${text}`);
  const mask = ((1n << 32n) - 1n) ^ ((1n << BigInt(32 - p.bits)) - 1n);
  return formatAddress(mask, 32);
}

function subnet(p: Prefix, newbits: number, netnum: bigint): Prefix {
  const bits = p.bits + newbits;
  if (newbits < 0) throw new FunctionError('must extend prefix by at least one bit');
  if (bits > p.width)
    throw new FunctionError(`insufficient address space to extend prefix of ${p.bits} by ${newbits}`);
  const max = 1n << BigInt(newbits);
  if (netnum < 0n || netnum >= max)
    throw new FunctionError(
      `prefix extension of ${newbits} does not accommodate a subnet numbered ${netnum}`,
    );
  return { base: p.base | (netnum << BigInt(p.width - bits)), bits, width: p.width };
}

const show = (p: Prefix): string => `${formatAddress(p.base, p.width)}/${p.bits}`;

/** `cidrsubnets`: consecutive subnets of the given sizes, each aligned after the previous one. */
function cidrsubnets(text: string, sizes: number[]): string[] {
  const p = parsePrefix(text);
  const out: string[] = [];
  let next = p.base;
  for (const newbits of sizes) {
    if (newbits < 1) throw new FunctionError('must extend prefix by at least one bit');
    const bits = p.bits + newbits;
    if (bits > p.width)
      throw new FunctionError(
        `would extend prefix to ${bits} bits, which is too long for an IPv${p.width === 32 ? 4 : 6} address`,
      );
    const step = 1n << BigInt(p.width - bits);
    const start = ((next + step - 1n) / step) * step;
    if (start + step > p.base + (1n << BigInt(p.width - p.bits)))
      throw new FunctionError(
        `not enough remaining address space for a subnet with a prefix of ${bits} bits after ${out[out.length - 1] ?? show(p)}`,
      );
    out.push(show({ base: start, bits, width: p.width }));
    next = start + step;
  }
  return out;
}

export const networkFunctions: FunctionTable = {
  cidrhost: fixed(2, (a) => cidrhost(argStr(a, 0), argInt(a, 1))),
  cidrnetmask: fixed(1, (a) => cidrnetmask(argStr(a, 0))),
  cidrsubnet: fixed(3, (a) => show(subnet(parsePrefix(argStr(a, 0)), argInt(a, 1), BigInt(argInt(a, 2))))),
  cidrsubnets: between(1, Infinity, (a) =>
    cidrsubnets(
      argStr(a, 0),
      a.slice(1).map((_, i) => argInt(a, i + 1)),
    ),
  ),
};
