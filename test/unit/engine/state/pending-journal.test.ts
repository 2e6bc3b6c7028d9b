import { mkdir, mkdtemp, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PendingJournal } from '../../../../src/engine/state/pending-journal';
import { pendingPathFor, readPending, type PendingLine } from '../../../../src/engine/state/pending';

const line = (n: number): PendingLine => ({
  address: `sched_job.j${n}`,
  object: { schemaVersion: 0, attributes: { id: `j${n}` } },
});

describe('PendingJournal', () => {
  let dir: string;
  let statePath: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-'));
    statePath = join(dir, 'terraform.tfstate');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has every line of appends made side by side in the file once each of them resolved', async () => {
    const journal = new PendingJournal(statePath);
    const lines = Array.from({ length: 40 }, (_, n) => line(n));
    // Each append, as it resolves, finds its own line in the file already.
    await Promise.all(
      lines.map(async (l) => {
        await journal.append(l);
        expect((await readPending(statePath)).map((p) => p.address)).toContain(l.address);
      }),
    );
    expect((await readPending(statePath)).map((p) => p.address).sort()).toEqual(
      lines.map((l) => l.address).sort(),
    );
    await journal.close();
  });

  it('appends after a close (a new descriptor) and deletes the file on remove', async () => {
    const journal = new PendingJournal(statePath);
    await journal.append(line(1));
    await journal.close();
    await journal.append(line(2));
    expect((await readPending(statePath)).map((p) => p.address)).toEqual(['sched_job.j1', 'sched_job.j2']);
    expect((await stat(pendingPathFor(statePath))).mode & 0o777).toBe(0o600);
    await journal.remove();
    await expect(stat(pendingPathFor(statePath))).rejects.toThrow(/ENOENT/);
  });

  it('rejects the appends a failed write held, and writes later ones once the file can be opened', async () => {
    const journal = new PendingJournal(statePath);
    // A directory where the journal should be: opening it for appending fails.
    await mkdir(pendingPathFor(statePath));
    await expect(Promise.all([journal.append(line(1)), journal.append(line(2))])).rejects.toThrow(/EISDIR/);
    await rmdir(pendingPathFor(statePath));
    await journal.append(line(3));
    expect(await readFile(pendingPathFor(statePath), 'utf8')).toBe(`${JSON.stringify(line(3))}\n`);
    await journal.close();
  });
});
