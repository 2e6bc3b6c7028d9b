/**
 * Persists a StateFile while an apply runs. Resources finish concurrently; each completion changes
 * the in-memory state at once and asks for a write. Writes never overlap: a request made while a
 * write is in flight joins the next one, which picks up every change made until it starts. Each
 * write that changes content bumps the serial exactly once; one that changes nothing is skipped.
 *
 * The file being replaced by the first write of a writer is kept as `<path>.backup`, as Terraform's
 * local backend keeps the state from before the run.
 *
 * An apply records finished resources with `updateSoon`: the change is in memory at once and on disk
 * within a pause of about nine times the last write's duration, so writing a large state stays near a
 * tenth of the run instead of growing with every resource (each write encodes the whole file); a write
 * someone waits for (update, settle) ends that pause at once. What a
 * kill in that pause loses is recovered: creates are in the pending journal, and the next refresh sees
 * what updates and deletes did.
 */
import { removeStaleTemps, writeFileAtomic } from './atomic';
import { PendingJournal } from './pending-journal';
import type { InstanceAddress } from './address';
import type { StateStore } from './backends/types';
import type { InstanceObject, StateFile } from './state-file';

export interface StateWriterOptions {
  /** Where the previous state is kept; default `<path>.backup`; false for none. */
  backupPath?: string | false;
  /**
   * Fingerprint of what is on disk, when the state in memory holds more (creates merged from the
   * pending journal): then the first write happens even if nothing else changes.
   */
  persistedFingerprint?: string;
  /**
   * Where the state goes (a backend's workspace, see backends/); without one, the file at `path`.
   * The store keeps its own backup and journal.
   */
  store?: StateStore;
}

type PendingSink = Pick<StateStore, 'appendPending' | 'markPendingStarted' | 'removePending'>;

/** A create's line journaled ahead: its token, and when it is on disk. */
export interface AheadLine {
  token: string;
  done: Promise<void>;
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Writers made by this process so far (see StateWriter.runId). */
let writersStarted = 0;

/** Writes pause for this many times the last write's duration, up to MAX_PAUSE_MS. */
const PAUSE_FACTOR = 9;
const MAX_PAUSE_MS = 2_000;

export class StateWriter {
  private persisted: string;
  private inFlight: Promise<void> = Promise.resolve();
  private queued: Deferred | null = null;
  private backedUp = false;
  private writes = 0;
  private lastWriteMs = 0;
  private lastWriteEnd = 0;
  /** A failed paced write, reported by the next call that can throw. */
  private failure: { error: unknown } | undefined;
  /** Without a store: the journal beside the file at `path`, as the local store keeps it. */
  private ownJournal: PendingSink | undefined;
  /**
   * Tokens of lines journaled ahead: unique to this writer within the journal file. The clock alone
   * is not: two writers of one process (a later run in a test) can start within the same millisecond.
   */
  private readonly runId = `${Date.now().toString(36)}-${(++writersStarted).toString(36)}`;
  private aheadCount = 0;
  /** Whether the queued write waits for the pause (until someone waits for the write itself). */
  private queuedPaced = false;
  /** Set while a paced write waits out its pause. */
  private endPause: (() => void) | undefined;

  /** `state` must be what is on disk at `path` now (as loaded), so an unchanged state is not rewritten. */
  constructor(
    readonly path: string,
    readonly state: StateFile,
    private readonly opts: StateWriterOptions = {},
  ) {
    this.persisted = opts.persistedFingerprint ?? state.fingerprint();
  }

  /** Number of writes that reached the disk. */
  get writeCount(): number {
    return this.writes;
  }

  /** Changes the state and persists it; resolves when a write containing the change is on disk. */
  update(mutate: (state: StateFile) => void): Promise<void> {
    this.throwIfFailed();
    mutate(this.state);
    return this.persist();
  }

  /**
   * Changes the state now and writes it after the pause (see above) without waiting for it; a write
   * that fails is reported by the next update, recordPending or settle.
   */
  updateSoon(mutate: (state: StateFile) => void): void {
    // Never throws: the change happened on the cluster, so it belongs in the state in memory whatever
    // the disk does; a failed write stops the next create (recordPending) and fails the settle.
    mutate(this.state);
    this.persist(true).catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  setInstance(
    address: string | InstanceAddress,
    obj: InstanceObject,
    opts?: { provider?: string },
  ): Promise<void> {
    return this.update((s) => s.set(address, obj, opts));
  }

  removeInstance(address: string | InstanceAddress): Promise<void> {
    return this.update((s) => {
      s.remove(address);
    });
  }

  /**
   * Records that a create of `address` is about to start: in memory (later writes carry it) and in
   * the pending journal at once, without writing the whole state. Resolves once the line is on disk.
   * `ahead`: the line journalAhead wrote for it, which this marks as started.
   */
  async recordPending(
    address: string,
    obj: InstanceObject,
    opts: { provider?: string; ahead?: AheadLine } = {},
  ): Promise<void> {
    this.throwIfFailed();
    const { ahead, ...setOpts } = opts;
    this.state.set(address, { ...obj, createPending: true }, setOpts);
    if (ahead) {
      await ahead.done;
      return this.pending().markPendingStarted?.(ahead.token);
    }
    // No cheap journal there (a database row, an HTTP endpoint): the state itself carries the record.
    return this.pending().appendPending?.({ address, ...setOpts, object: obj }) ?? this.persist();
  }

  /**
   * Journals a create next in line, before it starts, leaving the state in memory as it is: its
   * recordPending, handed the result, then need not wait for the disk, only mark the line as started.
   * A line never marked is dropped when the journal is read (see ../pending.ts). undefined: the store
   * keeps no journal with marks, so the record must wait for recordPending.
   */
  journalAhead(
    address: string,
    obj: InstanceObject,
    opts: { provider?: string } = {},
  ): AheadLine | undefined {
    const journal = this.pending();
    if (this.failure || !journal.appendPending || !journal.markPendingStarted) return undefined;
    const token = `${process.pid.toString(36)}.${this.runId}.${++this.aheadCount}`;
    const done = journal.appendPending({ address, ...opts, object: obj, ahead: token });
    return { token, done };
  }

  /** Where pending creates are journaled: the store's journal, or without a store the file's own. */
  private pending(): PendingSink {
    if (this.opts.store) return this.opts.store;
    if (this.ownJournal) return this.ownJournal;
    const journal = new PendingJournal(this.path);
    return (this.ownJournal = {
      appendPending: (line) => journal.append(line),
      markPendingStarted: (token) => journal.markStarted(token),
      removePending: () => journal.remove(),
    });
  }

  /**
   * Writes what is left and removes the pending journal once the state file holds everything the
   * journal says (a run that ends leaves no journal behind).
   */
  async settle(): Promise<void> {
    await this.persist();
    await this.flush();
    this.throwIfFailed();
    if (this.state.fingerprint() !== this.persisted) return;
    await this.pending().removePending?.();
  }

  /**
   * Writes the current state if it differs from what was last written; `paced`: not before the pause
   * after the last write (changes made meanwhile join this write).
   */
  persist(paced = false): Promise<void> {
    if (this.queued) {
      // Someone waits for this write (the end of a run, a record without a journal): no pause.
      if (!paced) {
        this.queuedPaced = false;
        this.endPause?.();
      }
      return this.queued.promise;
    }
    const d = deferred();
    this.queued = d;
    this.queuedPaced = paced;
    const previous = this.inFlight;
    this.inFlight = (async () => {
      await previous.catch(() => undefined);
      if (this.queuedPaced) await this.pause();
      this.queued = null;
      try {
        await this.writeNow();
        d.resolve();
      } catch (e) {
        d.reject(e);
      }
    })();
    return d.promise;
  }

  /** The pause of a paced write after the last write; endPause cuts it short. */
  private pause(): Promise<void> {
    const wait =
      this.lastWriteEnd + Math.min(MAX_PAUSE_MS, PAUSE_FACTOR * this.lastWriteMs) - performance.now();
    if (wait <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.endPause?.(), wait);
      this.endPause = () => {
        this.endPause = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Waits for every requested write. */
  async flush(): Promise<void> {
    await this.inFlight;
  }

  private async writeNow(): Promise<void> {
    // Temp files of writers killed earlier would pile up; clear them once, before the first write.
    if (!this.backedUp && !this.opts.store) await removeStaleTemps(this.path);
    const started = performance.now();
    const serial = this.state.serial;
    this.state.serial = serial + 1;
    const { text, fingerprint: fp } = this.state.snapshot();
    if (fp === this.persisted) {
      this.state.serial = serial;
      return;
    }
    try {
      const backup =
        this.opts.backupPath === false ? undefined : (this.opts.backupPath ?? `${this.path}.backup`);
      if (this.opts.store)
        await this.opts.store.write(text, { lineage: this.state.lineage, serial: serial + 1 });
      else
        await writeFileAtomic(this.path, text, {
          ...(backup && !this.backedUp ? { backupPath: backup } : {}),
        });
    } catch (e) {
      this.state.serial = serial;
      throw e;
    }
    this.backedUp = true;
    this.persisted = fp;
    this.writes++;
    this.lastWriteEnd = performance.now();
    this.lastWriteMs = this.lastWriteEnd - started;
  }
}
