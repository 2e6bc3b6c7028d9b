/** The shared provider helpers in src/provider/common (no agent needed). */
import { z } from 'zod';
import { attr } from '../../../../src/provider/schema';
import { UNKNOWN } from '../../../../src/provider/values';
import { durationString, sameDuration } from '../../../../src/provider/common/duration';
import { redactor } from '../../../../src/provider/common/errors';
import { sameStringMap, validateShape } from '../../../../src/provider/common/shape';
import { deadline, operationTimeoutMs } from '../../../../src/provider/common/timeouts';

describe('provider common helpers', () => {
  it('compares durations by length and checks their bounds', () => {
    expect(sameDuration('60s', '1m')).toBe(true);
    expect(sameDuration('1h30m', '90m')).toBe(true);
    expect(sameDuration('1m', '61s')).toBe(false);
    expect(sameDuration(null, '')).toBe(true);
    expect(sameDuration(undefined, '0s')).toBe(false);
    const ttl = durationString({ minMs: 60_000, maxMs: 86_400_000 });
    expect(ttl.safeParse('30m').success).toBe(true);
    expect(ttl.safeParse('30s').error?.issues[0]?.message).toBe('must be at least 1m0s');
    expect(ttl.safeParse('25h').error?.issues[0]?.message).toBe('must be at most 24h0m0s');
    expect(ttl.safeParse('later').error?.issues[0]?.message).toMatch(/^must be a duration/);
    expect(durationString({ nonZero: true }).safeParse('0s').error?.issues[0]?.message).toBe(
      'must be greater than 0',
    );
  });

  it('redacts every secret, longest first, and leaves short or empty ones alone', () => {
    const redact = redactor(['abcd1234', 'abcd1234-extra', undefined, '', 'ab']);
    expect(redact('a abcd1234-extra b abcd1234 c ab')).toBe('a [redacted] b [redacted] c ab');
    expect(redactor([])('unchanged')).toBe('unchanged');
  });

  it('validates a configuration against a shape, skipping unknown values', () => {
    const shape = {
      name: attr(z.string().min(2), { required: true }),
      size: attr(z.number().int().nullish(), { optional: true }),
      id: attr(z.string().nullish(), { computed: true }),
    };
    expect(validateShape(shape, { name: UNKNOWN, size: UNKNOWN })).toEqual([]);
    expect(validateShape(shape, { name: 'x', size: 1.5, id: 'i', other: 1 }).map((d) => d.summary)).toEqual([
      'Unsupported argument "other"',
      'Invalid value for "name"',
      'Invalid value for "size"',
      '"id" is set by the provider and cannot be configured',
    ]);
    expect(validateShape(shape, { name: 'ok', id: 'i' }, { allowComputed: true })).toEqual([]);
    expect(sameStringMap(null, {})).toBe(true);
    expect(sameStringMap({ a: '1' }, { a: '2' })).toBe(false);
  });

  it('reads operation timeouts and enforces them with an abortable deadline', async () => {
    expect(operationTimeoutMs({ create: '2m' }, 'create', 5)).toBe(120_000);
    expect(operationTimeoutMs({ create: '2m' }, 'delete', 5)).toBe(5);
    expect(operationTimeoutMs(null, 'update', 7)).toBe(7);
    const d = deadline(20);
    await new Promise((r) => d.signal.addEventListener('abort', r));
    expect(d.expired()).toBe(true);
    expect(d.remainingMs()).toBe(0);
    d.dispose();
    const parent = new AbortController();
    const child = deadline(60_000, parent.signal);
    parent.abort(new Error('user cancelled'));
    expect(child.signal.aborted).toBe(true);
    expect(child.expired()).toBe(false);
    child.dispose();
  });
});
