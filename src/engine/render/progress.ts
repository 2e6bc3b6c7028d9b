/**
 * Live progress of a deploy. Handlers report ProgressEvents (a message, per-group deployment
 * counts); this turns them into lines. Interactive (a TTY, not CI): finished lines scroll up as
 * usual and the resources still in flight are kept in a block at the bottom, redrawn in place
 * (ANSI cursor movement) when something changes or the elapsed time ticks. Otherwise: plain
 * append-only lines, written only when a resource's line actually changes, never on a timer.
 *
 * No library: log-update (the usual choice) is ESM-only from v5 and this package is CommonJS on
 * Node 20; the three escape sequences needed are written here.
 */
import type { ProgressEvent } from '../../provider/resource';
import type { ChangeAction } from './model';
import { Redactor } from './sensitive';
import { makeStyle, stripAnsi, type Style } from './style';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  stream: ProgressStream;
  /** Redraw in place. Default: the stream is a TTY. Callers should pass false under CI. */
  interactive?: boolean;
  color?: boolean;
  /** Clock (ms), for tests. */
  now?: () => number;
  /** Elapsed-time refresh while interactive; 0 disables the timer. Default 1000 ms. */
  tickMs?: number;
  /** Secret values that must not be printed (messages may quote configuration). */
  secrets?: Iterable<string>;
  /**
   * Hold what is written until the current turn of the event loop ends and write it as one chunk
   * (close() writes what is held). A deploy reports a few lines per resource, often several in one
   * turn; each write to a piped stderr is a system call through every stream layer. Interactive
   * redraws wait for the end of the turn too, so a burst of events redraws the block once.
   */
  coalesce?: boolean;
}

export type Outcome = { ok: true; id?: string } | { ok: false; error: string };

interface Running {
  address: string;
  action: ChangeAction;
  startedAt: number;
  detail?: string;
  /** Last line written for it in append-only mode. */
  lastWritten?: string;
}

const VERB: Record<ChangeAction, [doing: string, done: string, noun: string]> = {
  create: ['Creating...', 'Creation complete', 'Creation'],
  update: ['Modifying...', 'Modifications complete', 'Modification'],
  replace: ['Replacing...', 'Replacement complete', 'Replacement'],
  delete: ['Destroying...', 'Destruction complete', 'Destruction'],
  read: ['Reading...', 'Read complete', 'Read'],
  noop: ['Checking...', 'Check complete', 'Check'],
  forget: ['Forgetting...', 'Forget complete', 'Forget'],
};

export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(s % 60).padStart(2, '0')}s`;
}

/** "web: 2/3 healthy, 1 canary; api: 1/1 healthy" from a ProgressEvent's groups. */
export function describeGroups(groups: NonNullable<ProgressEvent['groups']>): string {
  return Object.keys(groups)
    .sort()
    .map((name) => {
      const g = groups[name]!;
      const parts = [`${g.healthy}/${g.desired} healthy`];
      if (g.placed < g.desired) parts.push(`${g.placed} placed`);
      if (g.canaries > 0) parts.push(`${g.canaries} canar${g.canaries === 1 ? 'y' : 'ies'}`);
      if (g.unhealthy > 0) parts.push(`${g.unhealthy} unhealthy`);
      return `${name}: ${parts.join(', ')}`;
    })
    .join('; ');
}

export class DeployProgress {
  private readonly running = new Map<string, Running>();
  private readonly st: Style;
  private readonly interactive: boolean;
  private readonly now: () => number;
  private readonly redact: Redactor;
  /** Lines of the live block currently on screen. */
  private drawn: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly tickMs: number;
  /** Coalescing: what was written this turn, and whether the live block must be redrawn. */
  private held: string[] = [];
  private flushing: NodeJS.Immediate | undefined;
  private redrawDue = false;

  constructor(private readonly opts: ProgressOptions) {
    this.interactive = opts.interactive ?? Boolean(opts.stream.isTTY);
    this.st = makeStyle(opts.color ?? false);
    this.now = opts.now ?? Date.now;
    this.tickMs = opts.tickMs ?? 1000;
    this.redact = new Redactor(opts.secrets ?? []);
  }

  start(address: string, action: ChangeAction): void {
    this.running.set(address, { address, action, startedAt: this.now() });
    this.permanent(`${this.st.bold(address)}: ${VERB[action][0]}`);
    if (this.interactive && this.tickMs > 0 && !this.timer) {
      this.timer = setInterval(() => this.tick(), this.tickMs);
      this.timer.unref();
    }
  }

  event(address: string, e: ProgressEvent): void {
    let r = this.running.get(address);
    if (!r) {
      r = { address, action: 'update', startedAt: this.now() };
      this.running.set(address, r);
    }
    const groups = e.groups && Object.keys(e.groups).length > 0 ? describeGroups(e.groups) : '';
    r.detail = [e.message, groups].filter(Boolean).join(' — ');
    if (this.interactive) this.redrawSoon();
    else {
      const line = this.line(r, false);
      if (line !== r.lastWritten) {
        r.lastWritten = line;
        this.write(`${line}\n`);
      }
    }
  }

  /** A handler callback for one resource (ApplyContext.onProgress). */
  reporter(address: string): (e: ProgressEvent) => void {
    return (e) => this.event(address, e);
  }

  finish(address: string, outcome: Outcome): void {
    const r = this.running.get(address) ?? { address, action: 'update' as const, startedAt: this.now() };
    this.running.delete(address);
    const elapsed = formatElapsed(this.now() - r.startedAt);
    const [, done, noun] = VERB[r.action];
    this.permanent(
      outcome.ok
        ? `${this.st.bold(address)}: ${this.st.green(done)} after ${elapsed}${outcome.id ? ` [id=${outcome.id}]` : ''}`
        : `${this.st.bold(address)}: ${this.st.red(`${noun} failed after ${elapsed}: ${outcome.error}`)}`,
    );
    if (this.running.size === 0) this.stopTimer();
  }

  /** A line outside any resource (e.g. "Acquiring state lock..."). */
  note(message: string): void {
    this.permanent(message);
  }

  /** Re-renders elapsed times (interactive only); called by the timer. */
  tick(): void {
    if (this.interactive) this.redraw();
  }

  /** Clears the live block, stops the timer and writes what is held. */
  close(): void {
    this.stopTimer();
    this.redrawDue = false;
    if (this.interactive) this.erase();
    this.flush();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private line(r: Running, withElapsed: boolean): string {
    const elapsed = withElapsed
      ? ` ${this.st.dim(`[${formatElapsed(this.now() - r.startedAt)} elapsed]`)}`
      : '';
    return `${this.st.bold(r.address)}: ${r.detail ?? VERB[r.action][0]}${elapsed}`;
  }

  private write(s: string): void {
    if (!this.opts.coalesce) {
      this.opts.stream.write(this.redact.text(s));
      return;
    }
    this.held.push(s);
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Redraws the live block now, or at the end of the turn when coalescing. */
  private redrawSoon(): void {
    if (!this.opts.coalesce) this.redraw();
    else {
      this.redrawDue = true;
      this.flushing ??= setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    if (this.redrawDue) {
      this.redrawDue = false;
      this.redraw();
    }
    this.flushing = undefined;
    const text = this.held.join('');
    this.held = [];
    if (text !== '') this.opts.stream.write(this.redact.text(text));
  }

  private permanent(line: string): void {
    if (!this.interactive) {
      this.write(`${line}\n`);
      return;
    }
    this.erase();
    this.write(`${line}\n`);
    if (this.opts.coalesce) this.redrawSoon();
    else this.redraw(true);
  }

  private fit(line: string): string {
    // Wrapped lines would break the cursor arithmetic: cut to the terminal width.
    const width = this.opts.stream.columns ?? 0;
    if (width <= 0 || stripAnsi(line).length < width) return line;
    return `${stripAnsi(line).slice(0, Math.max(1, width - 2))}…`;
  }

  private erase(): void {
    if (this.drawn.length === 0) return;
    this.write(`\x1b[${this.drawn.length}A\r\x1b[J`);
    this.drawn = [];
  }

  private redraw(afterErase = false): void {
    const lines = [...this.running.values()].map((r) => this.fit(this.line(r, true)));
    if (!afterErase && lines.length === this.drawn.length && lines.every((l, i) => l === this.drawn[i]))
      return;
    if (!afterErase) this.erase();
    if (lines.length > 0) this.write(`${lines.join('\n')}\n`);
    this.drawn = lines;
  }
}

export function createProgress(opts: ProgressOptions): DeployProgress {
  return new DeployProgress(opts);
}
