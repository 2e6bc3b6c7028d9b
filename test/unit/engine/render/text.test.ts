import type { PlanModel } from '../../../../src/engine/render/model';
import { stripAnsi, wantsColor } from '../../../../src/engine/render/style';
import { renderText } from '../../../../src/engine/render/text';
import { SECRET, SECRET_2, fullPlan, sameNoop, webUpdate } from './fixtures';

describe('terminal text', () => {
  it('colours only when asked, with the same text underneath', () => {
    const plain = renderText(fullPlan(), { color: false });
    const colored = renderText(fullPlan(), { color: true });
    expect(colored).toMatch(/\x1b\[32m/); // eslint-disable-line no-control-regex
    expect(stripAnsi(colored)).toBe(plain);
  });

  it('ends the resource section with the Terraform summary line', () => {
    expect(renderText(fullPlan(), { color: false })).toContain(
      '\nPlan: 2 to add, 1 to change, 2 to destroy.\n',
    );
  });

  it('says when there is nothing to do, but still reports scheduler trouble on unchanged jobs', () => {
    const noChanges: PlanModel = { resourceChanges: [sameNoop], outputChanges: [], diagnostics: [] };
    expect(renderText(noChanges, { color: false })).toBe(
      'No changes. Your infrastructure matches the configuration.\n',
    );
    const stuck: PlanModel = {
      resourceChanges: [
        { ...sameNoop, scheduler: { ...webUpdate.scheduler!, desiredTGUpdates: { web: { Ignore: 2 } } } },
      ],
      outputChanges: [],
      diagnostics: [],
    };
    const text = renderText(stuck, { color: false });
    expect(text).toContain('# sched_job.same has no changes');
    expect(text).toContain('Task group web: 2 not placed: Resources exhausted on 3 nodes (memory)');
  });

  it('shows output-only changes without a resource section', () => {
    const plan: PlanModel = {
      resourceChanges: [sameNoop],
      outputChanges: [
        { name: 'url', action: 'update', before: 'a', after: 'b', afterUnknown: false, sensitive: false },
      ],
      diagnostics: [],
    };
    expect(renderText(plan, { color: false })).toBe('Changes to Outputs:\n  ~ url = "a" -> "b"\n');
  });

  it('lists only the symbols in use and never prints secrets', () => {
    const text = renderText(fullPlan(), { color: false });
    expect(text).toContain(' <= read (data resources)');
    expect(text).not.toContain('create replacement and then destroy');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SECRET_2);
  });

  it('shows a scheduler line per task group when a job has several', () => {
    const plan: PlanModel = {
      resourceChanges: [
        {
          ...webUpdate,
          scheduler: {
            ...webUpdate.scheduler!,
            failedTGAllocs: null,
            desiredTGUpdates: { web: { InPlaceUpdate: 2 }, cache: { Ignore: 1 } },
          },
        },
      ],
      outputChanges: [],
      diagnostics: [],
    };
    const text = renderText(plan, { color: false });
    expect(text).toContain(
      '    Scheduler:\n      task group cache: Ignore 1\n      task group web: In-place update 2\n',
    );
  });
});

describe('wantsColor', () => {
  it('is true only for a TTY outside CI without NO_COLOR', () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, { CI: 'true' })).toBe(false);
    expect(wantsColor({ isTTY: true }, { CI: 'false' })).toBe(true);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});
