import { GITHUB_COMMENT_LIMIT, renderMarkdown } from '../../../../src/engine/render/markdown';
import type { PlanModel, ResourceChange } from '../../../../src/engine/render/model';
import { SECRET, SECRET_2, fullPlan, webUpdate } from './fixtures';

/** A job whose jobspec diff is about `size` characters of rendered diff. */
function bigJob(i: number, size: number): ResourceChange {
  const env = (v: string) =>
    Object.fromEntries(Array.from({ length: Math.ceil(size / 40) }, (_, k) => [`VAR_${k}`, `${v}-${k}`]));
  return {
    ...webUpdate,
    address: `sched_job.web[${i}]`,
    index: i,
    constructPath: `app/web-${i}`,
    before: {
      id: `web-${i}`,
      jobspec: JSON.stringify({ ID: `web-${i}`, Env: env('a') }),
      vault_token: SECRET_2,
    },
    after: {
      id: `web-${i}`,
      jobspec: JSON.stringify({ ID: `web-${i}`, Env: env('b') }),
      vault_token: SECRET,
    },
    afterUnknown: [],
    diagnostics: [],
  };
}

function planOf(changes: ResourceChange[]): PlanModel {
  return { resourceChanges: changes, outputChanges: [], diagnostics: [] };
}

describe('Markdown comment', () => {
  it('starts with the summary and warns about destruction', () => {
    const md = renderMarkdown(fullPlan());
    expect(md.startsWith('**Plan:** 2 to add, 1 to change, 2 to destroy\n')).toBe(true);
    expect(md).toContain(
      '> [!WARNING]\n> This plan destroys 2 resources: `reg_namespace.team` (replace), `sched_namespace.old` (destroy).',
    );
    expect(md).toContain(
      '| 🔄 update | `sched_job.web` | `app/web` | Place 3, Destructive update 2 (canary 1), Stop 1 ⚠️ 2 not placed |',
    );
    expect(md).toContain('<details><summary>🔄 update <code>sched_job.web</code> (app/web)</summary>');
    expect(md).not.toContain(SECRET);
    expect(md).not.toContain(SECRET_2);
  });

  it('opens with the failure when planning failed, not with a summary that looks complete', () => {
    const md = renderMarkdown({ ...fullPlan(), errored: true });
    const first = md.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(first).toMatch(/^\*\*Plan failed\*\* \(see Diagnostics below\); what it found so far: \d+ to add/);
    expect(md).toContain('Planning failed; the changes listed are incomplete.');
  });

  it('says so when there are no changes, without a table or warning', () => {
    const md = renderMarkdown(planOf([]));
    expect(md).toBe('**Plan:** no changes. Your infrastructure matches the configuration.\n');
  });

  it('escapes table cells and uses a longer fence when a value contains backticks', () => {
    const rc: ResourceChange = {
      ...webUpdate,
      scheduler: undefined,
      constructPath: 'app/a|b',
      before: { note: 'x' },
      after: { note: 'has ``` inside' },
      beforeSensitive: [],
      afterSensitive: [],
      afterUnknown: [],
      diagnostics: [],
    };
    const md = renderMarkdown(planOf([rc]));
    expect(md).toContain('`app/a\\|b`');
    expect(md).toContain('````diff\n');
    expect(md).toContain('\n````\n');
  });

  it('fits 65,536 characters by shortening and leaving out diffs, with a notice', () => {
    const changes = Array.from({ length: 12 }, (_, i) => bigJob(i, 12_000));
    const full = renderMarkdown(planOf(changes), { maxLength: Number.MAX_SAFE_INTEGER });
    expect(full.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    const md = renderMarkdown(planOf(changes));
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    // Every row is still there; some diffs are not.
    for (let i = 0; i < 12; i++) expect(md).toContain(`| \`sched_job.web[${i}]\` |`);
    const shown = (md.match(/<details>/g) ?? []).length;
    const notice =
      /> (\d+) of 12 diffs were left out( and 1 diff was shortened)? to keep this comment under 65,536 characters\. Run `cdktf-sched plan` for the full plan\./.exec(
        md,
      );
    expect(notice).not.toBeNull();
    expect(Number(notice![1])).toBe(12 - shown);
    expect(md).not.toContain(SECRET);
  });

  it('shortens a single huge diff instead of dropping it', () => {
    const md = renderMarkdown(planOf([bigJob(0, 200_000)]));
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md).toContain('<details>');
    expect(md).toMatch(/… \d+ more lines not shown/);
    expect(md).toContain('1 diff was shortened');
  });

  it('drops table rows last, when even the table does not fit', () => {
    const changes = Array.from({ length: 40 }, (_, i) => bigJob(i, 100));
    const md = renderMarkdown(planOf(changes), { maxLength: 3_000 });
    expect(md.length).toBeLessThanOrEqual(3_000);
    expect(md).not.toContain('<details>');
    const rows = (md.match(/^\| 🔄 update \|/gm) ?? []).length;
    expect(rows).toBeGreaterThan(0);
    expect(md).toContain(
      `> ${40 - rows} of 40 resources were left out of this table and all 40 diffs were left out`,
    );
  });
});
