import { JobspecError, parseJsonJobspec } from '../../../src/provider/sched/job/jobspec';

describe('parseJsonJobspec: repeated parses of one text', () => {
  const text = JSON.stringify({
    ID: 'cached',
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }],
  });

  it('hands every caller its own copy', () => {
    const a = parseJsonJobspec(text);
    a.TaskGroups![0]!.Name = 'changed by a caller';
    a.ID = 'other';
    const b = parseJsonJobspec(text);
    expect(b).not.toBe(a);
    expect(b.ID).toBe('cached');
    expect(b.TaskGroups![0]!.Name).toBe('g');
  });

  it('reports the same errors every time, in errors of their own', () => {
    const bad = JSON.stringify({ ID: 'bad', TaskGroups: [] });
    const failure = (): JobspecError => {
      try {
        parseJsonJobspec(bad);
      } catch (e) {
        if (e instanceof JobspecError) return e;
        throw e;
      }
      throw new Error('expected a JobspecError');
    };
    const first = failure();
    expect(first.message).toMatch(/the job needs at least one task group/);
    first.diagnostics[0]!.summary = 'changed by a caller';
    const second = failure();
    expect(second).not.toBe(first);
    expect(second.diagnostics[0]!.summary).toBe('Invalid jobspec');
  });

  it('still parses a text after many others took its place among the recent ones', () => {
    for (let i = 0; i < 200; i++) parseJsonJobspec(text.replace('cached', `job-${i}`));
    expect(parseJsonJobspec(text).ID).toBe('cached');
  });
});
