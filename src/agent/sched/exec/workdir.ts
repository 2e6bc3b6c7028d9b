/**
 * Working directories of allocations, where exec'd commands run: `<base>/<alloc id>/<task>` beside a
 * shared `<base>/<alloc id>/alloc`, as a Nomad client lays out an allocation directory. Created on
 * the first exec, removed when the allocation stops. Without a data dir the base lives under the OS
 * temporary directory and goes away with the agent.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ALLOC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class WorkDirs {
  private base: string | undefined;
  private readonly created = new Set<string>();

  constructor(private readonly dataDir: string | undefined) {}

  /** Creates (if needed) and returns the task's directory and the allocation's shared directory. */
  ensure(allocId: string, task: string): { taskDir: string; allocDir: string } {
    if (!ALLOC_ID.test(allocId)) throw new Error(`not an allocation ID: ${allocId}`);
    const root = join(this.root(), allocId);
    const allocDir = join(root, 'alloc');
    // Task names may hold characters a path must not; the directory name only needs to be stable.
    const taskDir = join(root, encodeURIComponent(task).replace(/^\.+/, '_'));
    mkdirSync(allocDir, { recursive: true });
    mkdirSync(join(taskDir, 'local'), { recursive: true });
    this.created.add(allocId);
    return { taskDir, allocDir };
  }

  has(allocId: string): boolean {
    return this.created.has(allocId);
  }

  remove(allocId: string): void {
    if (!this.base || !ALLOC_ID.test(allocId)) return;
    this.created.delete(allocId);
    rmSync(join(this.base, allocId), { recursive: true, force: true });
  }

  /** Removes directories of allocations that are no longer live (left by an earlier run). */
  prune(isLive: (allocId: string) => boolean): void {
    if (!this.dataDir) return;
    let entries: string[];
    try {
      entries = readdirSync(join(this.dataDir, 'exec'));
    } catch {
      return;
    }
    this.base = join(this.dataDir, 'exec');
    for (const e of entries) {
      if (!ALLOC_ID.test(e)) continue;
      if (isLive(e)) this.created.add(e);
      else this.remove(e);
    }
  }

  /** Drops the whole base when it is a temporary one. */
  close(): void {
    if (this.base && !this.dataDir) rmSync(this.base, { recursive: true, force: true });
    this.base = undefined;
    this.created.clear();
  }

  private root(): string {
    if (!this.base) {
      if (this.dataDir) {
        this.base = join(this.dataDir, 'exec');
        mkdirSync(this.base, { recursive: true });
      } else this.base = mkdtempSync(join(tmpdir(), 'cdktf-sched-exec-'));
    }
    return this.base;
  }
}
