/**
 * What an app loads: the constructs validate with their provider's handlers, loaded when a resource
 * of that provider is validated, so an app of scheduler resources never loads the registry's provider,
 * and the scheduler's handlers come without the scheduler's client (validation makes no request).
 * Run in a Node process of its own (as an app runs) to see its whole module cache.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

/** Synthesizes a stack built by `body` (`s`: the stack) and lists the providers, handlers and clients loaded. */
function providersLoaded(body: string): string[] {
  const script = `
    const { App, TerraformStack } = require('cdktf');
    const { Job, SchedNamespace, SchedProvider, RegNamespace, RegProvider } = require('./constructs');
    const app = new App({ outdir: require('node:os').tmpdir() + '/cdktf-sched-loading-' + process.pid });
    const s = new TerraformStack(app, 'loading');
    ${body}
    app.synth();
    require('node:fs').rmSync(app.outdir, { recursive: true, force: true });
    const loaded = Object.keys(require.cache).map((f) => /src\\/((provider|api)\\/\\w+\\/(provider|handlers|client))\\.ts$/.exec(f)?.[1]);
    process.stdout.write(JSON.stringify(loaded.filter(Boolean).sort()));
  `;
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
    cwd: REPO,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`the app exited with ${r.status}:\n${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

describe('the providers an app loads', () => {
  it("a scheduler stack loads the scheduler's handlers only, when its resources validate", () => {
    const sched = `
      new SchedProvider(s, 'sched', {});
      new SchedNamespace(s, 'apps', { name: 'apps' });`;
    expect(providersLoaded(sched)).toEqual(['provider/sched/handlers']);
    expect(providersLoaded(`new SchedProvider(s, 'sched', {});`)).toEqual([]);
  });

  it("a stack of both services loads the registry's provider too", () => {
    const both = `
      new SchedProvider(s, 'sched', {});
      new RegProvider(s, 'reg', {});
      new SchedNamespace(s, 'apps', { name: 'apps' });
      new RegNamespace(s, 'team', { name: 'team' });`;
    expect(providersLoaded(both)).toEqual([
      'api/reg/client',
      'provider/reg/provider',
      'provider/sched/handlers',
    ]);
  });
});
