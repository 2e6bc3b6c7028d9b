import {
  base64Encode,
  hashHex,
  lower,
  strrev,
  trimCutset,
  trimPrefix,
  trimSuffix,
  upper,
} from '../../../src/hcl/functions';

describe('shared HCL function implementations', () => {
  it('works on code points', () => {
    expect(strrev('a🙂b')).toBe('b🙂a');
    expect(trimCutset('🙂xa🙂x', 'x🙂')).toBe('a');
    // Go maps case rune by rune, so ß (whose upper case is two letters) stays: terraform prints STRAßE.
    expect(upper('straße')).toBe('STRAßE');
    expect(lower('ÀB')).toBe('àb');
  });

  it('trims prefixes and suffixes only when present', () => {
    expect(trimPrefix('prefix-name', 'prefix-')).toBe('name');
    expect(trimPrefix('name', 'prefix-')).toBe('name');
    expect(trimSuffix('name.txt', '.txt')).toBe('name');
    expect(trimSuffix('name', '')).toBe('name');
  });

  it('encodes and hashes UTF-8 bytes', () => {
    expect(base64Encode('é')).toBe('w6k=');
    expect(hashHex('md5', '')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hashHex('sha256', 'abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
