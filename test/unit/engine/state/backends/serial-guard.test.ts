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
  let text: string | undefined = bigStateText(64);
  guard.observe(text);
  // Measured around the drop alone, with no turn of the event loop between: a heap measured earlier
  // could still count what other test files in this worker left, freed meanwhile (a flake in full runs).
  const alive = heapMB();
  text = undefined;
  // V8 keeps the subject of the last regex match (RegExp.lastMatch) until the next one.
  /./.exec('.');
  // The lineage a match gives is a slice of the whole text, which would keep all 64 MB; the guard
  // keeps a copy instead, so dropping the text frees it.
  expect(alive - heapMB()).toBeGreaterThan(56);
  expect(() => guard.check({ lineage: 'other', serial: 8 })).toThrow(/lineage/);
  guard.check({ lineage: LINEAGE, serial: 8 });
});
