import { SerialGuard, metaOf } from '../../../../../src/engine/state/backends/serial-guard';
import { heapAfterGc } from '../../../../helpers/heap';

const LINEAGE = '0f6a4b1e-5d2c-4e8a-9b7f-3c1d2e4f5a6b';

/** A state text of `mb` megabytes, flat (a regex match flattens a concatenation in place anyway). */
function bigStateText(mb: number): string {
  const text = `{"version":4,"serial":7,"lineage":"${LINEAGE}","pad":"${'x'.repeat(mb * 1_000_000)}"}`;
  return JSON.parse(JSON.stringify(text)) as string;
}

const heapMB = (): number => heapAfterGc() / 1e6;

test('metaOf reads lineage and serial', () => {
  expect(metaOf(bigStateText(1))).toEqual({ lineage: LINEAGE, serial: 7 });
  expect(metaOf('{"version":4}')).toBeUndefined();
});

test('a guard that observed a state does not keep its text alive', () => {
  const guard = new SerialGuard('state');
  const base = heapMB();
  let text: string | undefined = bigStateText(64);
  guard.observe(text);
  // The text is alive here (half of it is margin: a full collection may also free some of what the
  // base counted, which made an exact 60 MB fail on a clean CI checkout).
  expect(heapMB() - base).toBeGreaterThan(32);
  text = undefined;
  // V8 keeps the subject of the last regex match (RegExp.lastMatch) until the next one.
  /./.exec('.');
  // The lineage a match gives is a slice of the whole text; the guard keeps a copy instead.
  expect(heapMB() - base).toBeLessThan(8);
  expect(() => guard.check({ lineage: 'other', serial: 8 })).toThrow(/lineage/);
  guard.check({ lineage: LINEAGE, serial: 8 });
});
