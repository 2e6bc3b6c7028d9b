import { withFastShapes } from '../../../src/agent/sched/jobs/fast-shape';

function wide(prefix: string, n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[`${prefix}${String(i).padStart(2, '0')}`] = i;
  return Object.assign(o, extra);
}

describe('withFastShapes: big objects of a job tree are copied, everything else is kept', () => {
  it('keeps the JSON text (keys, order, values) and copies only objects past the key limit', () => {
    const small = { Attempts: 2, Mode: 'fail' };
    const task = wide('T', 20, { RestartPolicy: small, Config: { args: ['a'] } });
    const tasks = [task];
    const group = wide('G', 15, { Tasks: tasks });
    const groups = [group];
    const job = wide('J', 30, { TaskGroups: groups, Meta: null });
    const text = JSON.stringify(job);

    const out = withFastShapes(job);

    expect(JSON.stringify(out)).toBe(text);
    expect(out).not.toBe(job);
    expect(out['TaskGroups']).toBe(groups);
    expect(groups[0]).not.toBe(group);
    expect(tasks[0]).not.toBe(task);
    expect((tasks[0] as Record<string, unknown>)['RestartPolicy']).toBe(small);
  });

  it('keeps a "__proto__" key an own data key of the copy', () => {
    const job = JSON.parse(
      `{${Array.from({ length: 14 }, (_, i) => `"k${i}":${i}`).join(',')},"__proto__":{"x":1}}`,
    );
    const out = withFastShapes(job) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toContain('__proto__');
    expect(JSON.stringify(out)).toBe(JSON.stringify(job));
  });
});
