/**
 * Renderers against golden files in test/golden. After an intended change to the output, rewrite
 * them with `UPDATE_GOLDEN=1 npx jest test/unit/engine/render/golden` and review the diff.
 * The `.golden` suffix keeps `prettier --write .` from reformatting them (they are byte-exact).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderJson } from '../../../../src/engine/render/json';
import { renderMarkdown } from '../../../../src/engine/render/markdown';
import { renderText } from '../../../../src/engine/render/text';
import { SECRET, SECRET_2, fullPlan, priorState } from './fixtures';

const GOLDEN = join(__dirname, '..', '..', '..', 'golden');

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  if (!existsSync(path)) throw new Error(`missing golden file ${path}; create it with UPDATE_GOLDEN=1`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

function expectNoSecret(rendered: string): void {
  for (const secret of [SECRET, SECRET_2]) {
    expect(rendered).not.toContain(secret);
    expect(rendered).not.toContain(JSON.stringify(secret).slice(1, -1));
  }
}

describe('golden renderings of one plan', () => {
  it('terminal text without colour', () => {
    const text = renderText(fullPlan(), { color: false });
    expect(text).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
    expectNoSecret(text);
    golden('plan.txt.golden', text);
  });

  it('JSON plan (Terraform format 1.2 + cdktf_sched), with prior state', () => {
    const json = renderJson(fullPlan(), { indent: 2, priorState: priorState() });
    expectNoSecret(json);
    expect(() => JSON.parse(json)).not.toThrow();
    golden('plan.json.golden', json);
  });

  it('Markdown pull-request comment', () => {
    const md = renderMarkdown(fullPlan(), { title: 'Stack app' });
    expectNoSecret(md);
    golden('plan.md.golden', md);
  });
});
