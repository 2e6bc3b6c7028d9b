import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Store } from '../../../src/agent/store';

const LOG = 'log.jsonl';
const SNAPSHOT = 'snapshot.json';

describe('Store persistence', () => {
  let dir: string;
  const open: Store[] = [];
  const openStore = (compactEvery?: number): Store => {
    const s = Store.open({ dataDir: dir, ...(compactEvery ? { compactEvery } : {}) });
    open.push(s);
    return s;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const logLines = (): string[] => fs.readFileSync(path.join(dir, LOG), 'utf8').split('\n').filter(Boolean);

  it('restores state and indexes across close and open, and continues the index', () => {
    const a = openStore();
    a.write((tx) => {
      tx.put('jobs', 'default/web', { ID: 'web', Meta: { owner: 'ünïcode ✓' } });
      tx.put('jobs', 'default/api', { ID: 'api' });
    }); // 2
    a.write((tx) => tx.putRaw('tokens', 't1', { CreateIndex: 77, Name: 't1' })); // 3
    a.write((tx) => tx.delete('jobs', 'default/api')); // 4
    a.write((tx) => tx.put('jobs', 'default/web', { ID: 'web', Version: 2 })); // 5
    expect(logLines()).toHaveLength(4);
    a.close();

    const b = openStore();
    expect(b.index).toBe(5);
    expect(b.get('jobs', 'default/web')).toEqual({ ID: 'web', Version: 2, CreateIndex: 2, ModifyIndex: 5 });
    expect(b.get('jobs', 'default/api')).toBeUndefined();
    expect(b.get('tokens', 't1')).toEqual({ CreateIndex: 77, Name: 't1' });
    expect(b.tableIndex('jobs')).toBe(5);
    expect(b.tableIndex('tokens')).toBe(3);
    expect(b.keyIndex('tokens', 't1')).toBe(3);
    expect(b.keyIndex('jobs', 'default/api')).toBe(4);
    expect(Object.isFrozen(b.get('jobs', 'default/web'))).toBe(true);
    expect(b.write((tx) => tx.put('jobs', 'x', { ID: 'x' })).index).toBe(6);
  });

  it('opens an empty data dir at index 1', () => {
    const s = openStore();
    expect(s.index).toBe(1);
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(true);
    s.close();
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
  });

  it('writes a snapshot every compactEvery commits and truncates the log', () => {
    const a = openStore(3);
    for (let n = 0; n < 7; n++) a.write((tx) => tx.put('jobs', `j${n}`, { ID: `j${n}` })); // 2..8
    a.write((tx) => tx.delete('jobs', 'j0')); // 9
    // Snapshots after commits 4 and 7 (3 commits each); commits 8 and 9 are in the log.
    expect(fs.existsSync(path.join(dir, SNAPSHOT))).toBe(true);
    expect(logLines().map((l) => JSON.parse(l.slice(9)).i)).toEqual([8, 9]);
    a.close();

    const b = openStore(3);
    expect(b.index).toBe(9);
    expect(b.list<{ ID: string }>('jobs').map((j) => j.ID)).toEqual(['j1', 'j2', 'j3', 'j4', 'j5', 'j6']);
    expect(b.get('jobs', 'j3')).toEqual({ ID: 'j3', CreateIndex: 5, ModifyIndex: 5 });
    expect(b.keyIndex('jobs', 'j3')).toBe(5);
    expect(b.keyIndex('jobs', 'j0')).toBe(9);
    b.write((tx) => tx.put('jobs', 'j7', { ID: 'j7' })); // 10: third since the snapshot at 7
    expect(logLines()).toHaveLength(0);
    b.close();
    const c = openStore(3);
    expect(c.index).toBe(10);
    expect(c.count('jobs')).toBe(7);
  });

  it('recovers when a crash hit between writing the snapshot and emptying the log', () => {
    const a = openStore(1000);
    for (let n = 0; n < 4; n++) a.write((tx) => tx.put('jobs', `j${n}`, { ID: `j${n}`, n })); // 2..5
    const before = fs.readFileSync(path.join(dir, LOG));
    a.compact();
    a.close();
    fs.writeFileSync(path.join(dir, LOG), before); // the log the snapshot already holds
    const b = openStore(1000);
    expect(b.index).toBe(5);
    expect(b.count('jobs')).toBe(4);
    b.write((tx) => tx.put('jobs', 'j1', { ID: 'j1', n: 10 })); // 6
    b.close();
    const c = openStore(1000);
    expect(c.index).toBe(6);
    expect(c.get('jobs', 'j1')).toEqual({ ID: 'j1', n: 10, CreateIndex: 3, ModifyIndex: 6 });
  });

  it('ignores a torn final line and keeps appending after the last good entry', () => {
    const a = openStore();
    a.write((tx) => tx.put('jobs', 'a', { ID: 'a' })); // 2
    a.write((tx) => tx.put('jobs', 'b', { ID: 'b' })); // 3
    a.close();
    const logFile = path.join(dir, LOG);
    // A crash in the middle of appending commit 4: half a line, no newline.
    const half = '0badc0de {"i":4,"c":[{"t":"jobs","k":"c","v":{"ID"';
    fs.appendFileSync(logFile, half);

    const b = openStore();
    expect(b.index).toBe(3);
    expect(b.get('jobs', 'c')).toBeUndefined();
    expect(fs.readFileSync(logFile, 'utf8')).not.toContain('"k":"c"');
    b.write((tx) => tx.put('jobs', 'd', { ID: 'd' })); // 4
    b.close();
    const c = openStore();
    expect(c.index).toBe(4);
    expect(c.list<{ ID: string }>('jobs').map((j) => j.ID)).toEqual(['a', 'b', 'd']);
  });

  it('ignores a complete final line whose checksum does not match (garbage at the tail)', () => {
    const a = openStore();
    a.write((tx) => tx.put('jobs', 'a', { ID: 'a' }));
    a.close();
    fs.appendFileSync(path.join(dir, LOG), '\0\0\0\0\0\0\0\0\0\0\0\0\n');
    const b = openStore();
    expect(b.index).toBe(2);
  });

  it('refuses to open when a line in the middle is corrupt', () => {
    const a = openStore();
    for (let n = 0; n < 3; n++) a.write((tx) => tx.put('jobs', `j${n}`, { ID: `j${n}`, Status: 'running' }));
    a.close();
    const logFile = path.join(dir, LOG);
    const original = fs.readFileSync(logFile, 'utf8');
    const lines = original.split('\n');
    lines[1] = lines[1]!.replace('running', 'rannimg'); // same length, different bytes
    fs.writeFileSync(logFile, lines.join('\n'));
    expect(() => Store.open({ dataDir: dir })).toThrow(/corrupt at line 2 .*checksum mismatch.*Refusing/);
    // The failed open released the lock and left the log as it was.
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
    expect(fs.readFileSync(logFile, 'utf8')).toContain('rannimg');
  });

  it('refuses a log with a gap in its indexes', () => {
    const a = openStore();
    for (let n = 0; n < 3; n++) a.write((tx) => tx.put('jobs', `j${n}`, { ID: `j${n}` }));
    a.close();
    const logFile = path.join(dir, LOG);
    const lines = fs.readFileSync(logFile, 'utf8').split('\n');
    lines.splice(1, 1);
    fs.writeFileSync(logFile, lines.join('\n'));
    expect(() => Store.open({ dataDir: dir })).toThrow(/index 4 after 2/);
  });

  it('refuses a damaged snapshot', () => {
    const a = openStore(2);
    for (let n = 0; n < 2; n++) a.write((tx) => tx.put('jobs', `j${n}`, { ID: `j${n}` }));
    a.close();
    const snap = path.join(dir, SNAPSHOT);
    fs.writeFileSync(snap, fs.readFileSync(snap, 'utf8').replace('j1', 'j9'));
    expect(() => Store.open({ dataDir: dir })).toThrow(/snapshot .* checksum mismatch/);
  });

  it('refuses a second store on the same data dir, naming the pid', () => {
    openStore();
    expect(() => Store.open({ dataDir: dir })).toThrow(
      new RegExp(`locked by another agent.*pid ${process.pid}`),
    );
  });

  describe('locks held by other processes', () => {
    let child: ChildProcess | undefined;
    afterEach(() => {
      child?.kill();
      child = undefined;
    });

    it('refuses a lock held by another live process', async () => {
      child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
      await new Promise((r) => child!.once('spawn', r));
      fs.writeFileSync(path.join(dir, 'LOCK'), `${child.pid}\n`);
      expect(() => Store.open({ dataDir: dir })).toThrow(
        new RegExp(`locked by another agent: pid ${child.pid}\\b`),
      );
    });

    it('takes over a lock left by a process that is gone', async () => {
      child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
      const pid = child.pid!;
      await new Promise((r) => child!.once('exit', r));
      fs.writeFileSync(path.join(dir, 'LOCK'), `${pid}\n`);
      const s = openStore();
      expect(fs.readFileSync(path.join(dir, 'LOCK'), 'utf8').trim()).toBe(String(process.pid));
      s.close();
    });
  });
});
