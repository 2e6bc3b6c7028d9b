/**
 * Each example's `app` as its cdktf.json writes it (what `cdktf-sched deploy` and `cdktf synth` run, in
 * the example's directory): the other example tests run main.ts through the tsx CLI instead. Run this
 * way, an example gets `cdktf-sched` as built (dist/), as a user's app does: skipped with a message when
 * the project has not been built (`npm ci` builds it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './harness';

const EXAMPLES = readdirSync(path.join(REPO_ROOT, 'examples')).filter((e) =>
  existsSync(path.join(REPO_ROOT, 'examples', e, 'cdktf.json')),
);

const built = existsSync(path.join(REPO_ROOT, 'dist', 'src', 'index.js'));
if (!built) console.warn("skipping the examples' app commands: run `npm run build` first (npm ci does)");
const maybe = built ? describe : describe.skip;

maybe("the examples' app commands", () => {
  it.each(EXAMPLES)('%s synthesizes its stacks', (example) => {
    const dir = path.join(REPO_ROOT, 'examples', example);
    const { app } = JSON.parse(readFileSync(path.join(dir, 'cdktf.json'), 'utf8')) as { app: string };
    const outdir = mkdtempSync(path.join(tmpdir(), `cdktf-sched-app-${example}-`));
    try {
      const r = spawnSync(app, {
        cwd: dir,
        shell: true,
        encoding: 'utf8',
        env: { ...process.env, CDKTF_OUTDIR: outdir },
      });
      if (r.status !== 0) throw new Error(`${app} exited with ${r.status}:\n${r.stderr}`);
      const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as {
        stacks: Record<string, { synthesizedStackPath: string }>;
      };
      const stacks = Object.values(manifest.stacks);
      expect(stacks.length).toBeGreaterThan(0);
      for (const s of stacks) {
        const config = JSON.parse(readFileSync(path.join(outdir, s.synthesizedStackPath), 'utf8')) as {
          resource?: object;
        };
        expect(Object.keys(config.resource ?? {}).length).toBeGreaterThan(0);
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
