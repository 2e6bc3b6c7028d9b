/**
 * Each example's `app` as its cdktf.json writes it (what `cdktf-sched deploy` and `cdktf synth` run, in
 * the example's directory): the other example tests run main.ts through the tsx CLI instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './harness';

const EXAMPLES = readdirSync(path.join(REPO_ROOT, 'examples')).filter((e) =>
  existsSync(path.join(REPO_ROOT, 'examples', e, 'cdktf.json')),
);

describe("the examples' app commands", () => {
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
