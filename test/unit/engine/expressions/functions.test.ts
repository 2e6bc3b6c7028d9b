import { isUnknown } from '../../../../src/engine/expressions';
import { ev, scopeOf } from './helpers';

const scope = scopeOf({ vars: { m: { b: 2, a: 1 }, l: ['x', 'y', 'z'], csv: 'a,b,,c' } });
const call = (expr: string): unknown => ev(`\${${expr}}`, scope);

describe('encoding functions', () => {
  it('jsonencode sorts keys and escapes like Go', () => {
    expect(call('jsonencode({b = 1, a = [true, null, "x"]})')).toBe('{"a":[true,null,"x"],"b":1}');
    expect(call('jsonencode("<a&b>")')).toBe('"\\u003ca\\u0026b\\u003e"');
    expect(call('jsonencode(1.5)')).toBe('1.5');
  });

  it('jsondecode parses JSON and reports bad input', () => {
    expect(call('jsondecode("{\\"a\\":{\\"b\\":[1,2]}}").a.b[1]')).toBe(2);
    expect(() => call('jsondecode("{nope")')).toThrow(/Call to function "jsondecode" failed: invalid JSON/);
  });

  it('base64 round-trips UTF-8 and rejects invalid data', () => {
    expect(call('base64encode("héllo")')).toBe('aMOpbGxv');
    expect(call('base64decode("aMOpbGxv")')).toBe('héllo');
    expect(() => call('base64decode("not base64!")')).toThrow(/not valid base64/);
    expect(() => call('base64decode("/w==")')).toThrow(/not valid UTF-8/);
  });

  it('urlencode escapes like Go query escaping', () => {
    expect(call('urlencode("a b&c=d/é")')).toBe('a+b%26c%3Dd%2F%C3%A9');
  });
});

describe('conversion functions', () => {
  it('tostring / tonumber / tobool convert primitives and pass null', () => {
    expect(call('tostring(12)')).toBe('12');
    expect(call('tostring(true)')).toBe('true');
    expect(call('tostring(null)')).toBeNull();
    expect(call('tonumber("42.5")')).toBe(42.5);
    expect(call('tobool("true")')).toBe(true);
    expect(() => call('tonumber("forty")')).toThrow(/cannot convert "forty" to number/);
    expect(() => call('tostring([1])')).toThrow(/cannot convert tuple to string/);
  });

  it('tolist / toset / tomap unify element types; toset sorts and de-duplicates', () => {
    expect(call('tolist([1, "a"])')).toEqual(['1', 'a']);
    expect(call('toset(["b", "a", "b"])')).toEqual(['a', 'b']);
    expect(call('toset([3, 1, 3])')).toEqual([1, 3]);
    expect(call('tomap({a = 1, b = "x"})')).toEqual({ a: '1', b: 'x' });
    expect(() => call('tolist({a = 1})')).toThrow(/cannot convert object to list/);
    expect(() => call('tolist([1, true])')).toThrow(/must all have the same type/);
  });
});

describe('collection functions', () => {
  it('length of strings, lists and maps', () => {
    expect(call('length("héllo")')).toBe(5);
    expect(call('length(var.l)')).toBe(3);
    expect(call('length(var.m)')).toBe(2);
    expect(() => call('length(5)')).toThrow(/collection type/);
  });

  it('lookup and element', () => {
    expect(call('lookup(var.m, "a")')).toBe(1);
    expect(call('lookup(var.m, "zz", "dflt")')).toBe('dflt');
    expect(call('element(var.l, 4)')).toBe('y');
    expect(() => call('element([], 0)')).toThrow(/empty list/);
  });

  it('concat, merge, keys, values, contains, distinct, flatten, zipmap', () => {
    expect(call('concat(["a"], ["b", "c"], [])')).toEqual(['a', 'b', 'c']);
    expect(call('merge(var.m, {a = 10, c = 3}, null)')).toEqual({ a: 10, b: 2, c: 3 });
    expect(call('keys(var.m)')).toEqual(['a', 'b']);
    expect(call('values(var.m)')).toEqual([1, 2]);
    expect(call('contains(var.l, "y")')).toBe(true);
    expect(call('contains(var.l, "q")')).toBe(false);
    expect(call('distinct(["a", "b", "a"])')).toEqual(['a', 'b']);
    expect(call('flatten([["a", ["b"]], [], "c"])')).toEqual(['a', 'b', 'c']);
    expect(call('zipmap(["a", "b"], [1, 2])')).toEqual({ a: 1, b: 2 });
    expect(() => call('zipmap(["a"], [1, 2])')).toThrow(/does not match/);
  });

  it('coalesce skips nulls and empty strings', () => {
    expect(call('coalesce(null, "", "x", "y")')).toBe('x');
    expect(call('coalesce(null, 2)')).toBe(2);
    expect(() => call('coalesce(null, "")')).toThrow(/no non-null, non-empty-string arguments/);
  });

  it('range, slice, reverse, sort, compact, index, one, sum, alltrue, anytrue, chunklist', () => {
    expect(call('range(3)')).toEqual([0, 1, 2]);
    expect(call('range(1, 7, 2)')).toEqual([1, 3, 5]);
    expect(call('range(3, 0)')).toEqual([3, 2, 1]);
    expect(() => call('range(0, 5000)')).toThrow(/more than 1024 values/);
    expect(call('slice(var.l, 1, 3)')).toEqual(['y', 'z']);
    expect(call('reverse(var.l)')).toEqual(['z', 'y', 'x']);
    expect(call('sort(["b", "a", "c"])')).toEqual(['a', 'b', 'c']);
    expect(call('compact(split(",", var.csv))')).toEqual(['a', 'b', 'c']);
    expect(call('index(var.l, "z")')).toBe(2);
    expect(call('one([])')).toBeNull();
    expect(call('sum([1, 2, 3.5])')).toBe(6.5);
    expect(call('alltrue([true, "true"])')).toBe(true);
    expect(call('anytrue([false])')).toBe(false);
    expect(call('chunklist(["a", "b", "c"], 2)')).toEqual([['a', 'b'], ['c']]);
  });

  it('set operations', () => {
    expect(call('setunion(["b"], ["a", "b"])')).toEqual(['a', 'b']);
    expect(call('setintersection(["a", "b"], ["b", "c"])')).toEqual(['b']);
    expect(call('setsubtract(["a", "b"], ["b"])')).toEqual(['a']);
  });
});

describe('string functions', () => {
  it('join, split, upper, lower, title', () => {
    expect(call('join("-", var.l)')).toBe('x-y-z');
    expect(call('join(",", ["a"], ["b"])')).toBe('a,b');
    expect(call('split(",", "a,b")')).toEqual(['a', 'b']);
    expect(call('upper("abc")')).toBe('ABC');
    expect(call('lower("ABC")')).toBe('abc');
    expect(call('title("hello world")')).toBe('Hello World');
  });

  it('replace with plain substrings and /regex/ patterns', () => {
    expect(call('replace("a.b.c", ".", "-")')).toBe('a-b-c');
    expect(call('replace("web-01", "/(\\\\w+)-(\\\\d+)/", "$2:$1")')).toBe('01:web');
    expect(call('replace("v1.2", "/(?P<maj>\\\\d)\\\\.(\\\\d)/", "$${maj}_$$")')).toBe('v1_$');
  });

  it('trimming and substrings', () => {
    expect(call('trimspace("  a b \\n")')).toBe('a b');
    expect(call('trim("?!hello?!", "!?")')).toBe('hello');
    expect(call('trimprefix("prod-web", "prod-")')).toBe('web');
    expect(call('trimsuffix("web.service", ".service")')).toBe('web');
    expect(call('chomp("line\\n\\n")')).toBe('line');
    expect(call('substr("hello world", 1, 4)')).toBe('ello');
    expect(call('substr("hello world", -5, -1)')).toBe('world');
    expect(call('startswith("prod-web", "prod")')).toBe(true);
    expect(call('strcontains("prod-web", "d-w")')).toBe(true);
  });

  it('format and formatlist follow Go verbs', () => {
    expect(call('format("%s has %d jobs (%.2f%%)", "web", 3, 12.5)')).toBe('web has 3 jobs (12.50%)');
    expect(call('format("%05d|%-4s|%x|%q|%t|%v", 42, "a", 255, "q", true, [1])')).toBe(
      '00042|a   |ff|"q"|true|[1]',
    );
    expect(call('format("%[2]s-%[1]s", "a", "b")')).toBe('b-a');
    expect(call('format("%e", 1500)')).toBe('1.500000e+03');
    expect(() => call('format("%d", "x")')).toThrow(/number required/);
    expect(() => call('format("%s %s", "x")')).toThrow(/not enough arguments/);
    expect(call('formatlist("%s=%d", ["a", "b"], [1, 2])')).toEqual(['a=1', 'b=2']);
  });
});

describe('numeric and hash functions', () => {
  it('min, max, abs, ceil, floor, pow, parseint', () => {
    expect(call('min(3, 1, 2)')).toBe(1);
    expect(call('max(3, 1, 2)')).toBe(3);
    expect(call('abs(-4)')).toBe(4);
    expect(call('ceil(1.2)')).toBe(2);
    expect(call('floor(1.8)')).toBe(1);
    expect(call('pow(2, 10)')).toBe(1024);
    expect(call('parseint("ff", 16)')).toBe(255);
    expect(() => call('parseint("zz", 10)')).toThrow(/cannot parse/);
  });

  it('hashes the UTF-8 bytes of a string', () => {
    expect(call('md5("hello")')).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(call('sha1("hello")')).toBe('aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d');
    expect(call('sha256("hello")')).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(call('base64sha256("hello")')).toBe('LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=');
  });

  it('makes impure functions unknown while planning', () => {
    expect(isUnknown(call('uuid()'))).toBe(true);
    expect(isUnknown(call('timestamp()'))).toBe(true);
    expect(isUnknown(call('bcrypt("x")'))).toBe(true);
  });
});
