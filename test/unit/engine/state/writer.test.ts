import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateFile } from '../../../../src/engine/state/state-file';
import { StateWriter } from '../../../../src/engine/state/writer';
import { writeFileAtomic } from '../../../../src/engine/state/atomic';
import { readPending } from '../../../../src/engine/state/pending';

const obj = (id: string) => ({ schemaVersion: 0, attributes: { id } });

describe('StateWriter', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'writer-'));
    path = join(dir, 'terraform.tfstate');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes nothing while nothing changes, then bumps the serial once per write', async () => {
    const w = new StateWriter(path, await StateFile.load(path));
    await w.persist();
    await expect(stat(path)).rejects.toThrow();
    await w.setInstance('sched_job.a', obj('a'));
    expect(JSON.parse(await readFile(path, 'utf8')).serial).toBe(1);
    await w.persist(); // unchanged: no new serial
    await w.setInstance('sched_job.a', obj('a')); // same content: no new serial
    expect(JSON.parse(await readFile(path, 'utf8')).serial).toBe(1);
    await w.removeInstance('sched_job.a');
    const onDisk = JSON.parse(await readFile(path, 'utf8'));
    expect(onDisk.serial).toBe(2);
    expect(onDisk.resources).toEqual([]);
    expect(w.writeCount).toBe(2);
  });

  it('serializes concurrent callers; every caller resolves after its change is on disk', async () => {
    const w = new StateWriter(path, await StateFile.load(path));
    const seen: string[][] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        w.setInstance(`sched_job.web[${i}]`, obj(`w${i}`)).then(async () => {
          const disk = StateFile.parse(await readFile(path, 'utf8'));
          seen.push(disk.addresses());
          expect(disk.has(`sched_job.web[${i}]`)).toBe(true);
        }),
      ),
    );
    const final = StateFile.parse(await readFile(path, 'utf8'));
    expect(final.addresses()).toHaveLength(20);
    // Changes made while a write was in flight share the next write: fewer writes than callers.
    expect(w.writeCount).toBeLessThan(20);
    expect(final.serial).toBe(w.writeCount);
    expect(seen).toHaveLength(20);
  });

  it('updateSoon: the change is in memory at once and on disk after a pause, many changes in few writes', async () => {
    const w = new StateWriter(path, await StateFile.load(path));
    await w.setInstance('sched_job.first', obj('first')); // gives the pause a measured write
    for (let i = 0; i < 50; i++) w.updateSoon((s) => s.set(`sched_job.web[${i}]`, obj(`w${i}`)));
    expect(w.state.has('sched_job.web[49]')).toBe(true);
    await w.settle();
    const disk = StateFile.parse(await readFile(path, 'utf8'));
    expect(disk.addresses()).toHaveLength(51);
    expect(w.writeCount).toBeLessThan(10);
  });

  it('updateSoon: a write that fails is reported by the next create start and by settle', async () => {
    const w = new StateWriter(join(dir, 'missing-dir', 'terraform.tfstate'), StateFile.empty());
    w.updateSoon((s) => s.set('sched_job.a', obj('a')));
    expect(w.state.has('sched_job.a')).toBe(true);
    await w.flush();
    await expect(w.recordPending('sched_job.b', obj('b'))).rejects.toThrow(/ENOENT/);
    await expect(w.settle()).rejects.toThrow(/ENOENT/);
  });

  it('settle does not wait out the pause of a paced write', async () => {
    const w = new StateWriter(path, await StateFile.load(path));
    await w.setInstance('sched_job.first', obj('first')); // gives the pause a measured write
    // The pause's timer never fires here: only a settle that ends the pause can resolve.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'performance'] });
    try {
      w.updateSoon((s) => s.set('sched_job.last', obj('last')));
      await w.settle();
    } finally {
      jest.useRealTimers();
    }
    expect(StateFile.parse(await readFile(path, 'utf8')).has('sched_job.last')).toBe(true);
  });

  it('journalAhead: the line is on disk before the create starts, and counts only once it started', async () => {
    const w = new StateWriter(path, await StateFile.load(path));
    const ahead = w.journalAhead('sched_job.next', obj('next'));
    expect(ahead).toBeDefined();
    await ahead!.done;
    expect((await readFile(`${path}.pending`, 'utf8')).split('\n')[0]).toContain('"sched_job.next"');
    // Not started yet: a run killed now left no create in flight.
    expect(await readPending(path)).toEqual([]);
    expect(w.state.has('sched_job.next')).toBe(false);
    await w.recordPending('sched_job.next', obj('next'), { ahead: ahead! });
    expect(w.state.isCreatePending('sched_job.next')).toBe(true);
    // Started, and recorded once: the create did not append its object a second time.
    const lines = await readPending(path);
    expect(lines.map((l) => l.address)).toEqual(['sched_job.next']);
    expect(lines[0]).not.toHaveProperty('ahead');
    // A line whose create never started leaves nothing behind once the run settles.
    await w.journalAhead('sched_job.never', obj('never'))!.done;
    expect((await readPending(path)).map((l) => l.address)).toEqual(['sched_job.next']);
    await w.settle();
    expect(StateFile.parse(await readFile(path, 'utf8')).has('sched_job.never')).toBe(false);
    expect(await readPending(path)).toEqual([]);
  });

  it('journalAhead: a started mark of one line does not start another line of the same address', async () => {
    const w1 = new StateWriter(path, await StateFile.load(path));
    const first = w1.journalAhead('sched_job.a', obj('a'))!;
    await w1.recordPending('sched_job.a', obj('a'), { ahead: first });
    // A later run (its writer) journals the same address ahead and is killed before it starts.
    const w2 = new StateWriter(path, await StateFile.load(path));
    await w2.journalAhead('sched_job.a', obj('a2'))!.done;
    const lines = await readPending(path);
    expect(lines.map((l) => l.object.attributes.id)).toEqual(['a']);
  });

  it('keeps the state from before the run as .backup and does not overwrite it during the run', async () => {
    const first = await StateFile.load(path);
    const w1 = new StateWriter(path, first);
    await w1.setInstance('sched_job.a', obj('before-run'));
    const before = await readFile(path, 'utf8');

    const w2 = new StateWriter(path, await StateFile.load(path));
    await w2.setInstance('sched_job.a', obj('run-1'));
    await w2.setInstance('sched_job.a', obj('run-2'));
    expect(await readFile(`${path}.backup`, 'utf8')).toBe(before);
    expect(StateFile.parse(await readFile(path, 'utf8')).get('sched_job.a')!.attributes.id).toBe('run-2');
  });

  it('leaves no temporary files behind and creates the state readable by its owner only', async () => {
    const w = new StateWriter(path, await StateFile.load(path));
    await w.setInstance('sched_job.a', obj('a'));
    await w.setInstance('sched_job.b', obj('b'));
    expect(await readdir(dir)).toEqual(['terraform.tfstate']); // nothing existed to back up
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('a failed write rejects its callers and does not consume a serial', async () => {
    const bad = join(dir, 'missing-dir', 'x.tfstate');
    const s = StateFile.empty();
    const w = new StateWriter(bad, s);
    await expect(w.setInstance('sched_job.a', obj('a'))).rejects.toThrow(/ENOENT/);
    expect(s.serial).toBe(0);
  });
});

describe('writeFileAtomic', () => {
  it('replaces content and keeps the old file as backup when asked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atomic-'));
    try {
      const p = join(dir, 'f');
      await writeFileAtomic(p, 'one', { backupPath: `${p}.bak` });
      await expect(stat(`${p}.bak`)).rejects.toThrow(); // nothing to back up yet
      await writeFileAtomic(p, 'two', { backupPath: `${p}.bak` });
      expect(await readFile(p, 'utf8')).toBe('two');
      expect(await readFile(`${p}.bak`, 'utf8')).toBe('one');
      await writeFileAtomic(p, 'three');
      expect(await readFile(`${p}.bak`, 'utf8')).toBe('one');
      expect((await readdir(dir)).sort()).toEqual(['f', 'f.bak']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
