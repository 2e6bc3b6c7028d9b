/** service-splitter checks (Consul's ServiceSplitterConfigEntry.Validate). */
import { invalidField } from '../../http/errors';
import type { Body } from '../request';

export function normalizeSplitter(e: Body): void {
  const splits = e['Splits'];
  if (!Array.isArray(splits) || splits.length === 0)
    throw invalidField('Splits', 'at least one split is required (rule: required)');
  const seen = new Set<string>();
  let total = 0;
  e['Splits'] = splits.map((raw, i) => {
    const s = raw as Body;
    const w = s['Weight'];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0 || w > 100)
      throw invalidField(
        `Splits[${i}].Weight`,
        `must be a number from 0 to 100; got ${JSON.stringify(w)} (rule: weight)`,
      );
    const key = JSON.stringify([s['Service'] || e['Name'], s['ServiceSubset'] ?? '', s['Namespace'] ?? '']);
    if (seen.has(key))
      throw invalidField(`Splits[${i}]`, 'the same destination occurs more than once (rule: unique)');
    seen.add(key);
    const scaled = Math.round(w * 100);
    total += scaled;
    return { ...s, Weight: scaled / 100 };
  });
  if (total !== 10000)
    throw invalidField(
      'Splits',
      `the weights must add up to 100; they add up to ${total / 100} (rule: weights-sum)`,
    );
}
