/**
 * One exec session: a child process bridged to a WebSocket with the frames of spec 4.3. Output goes
 * out as base64 `stdout`/`stderr` data frames, then their `close` frames, then `exited` with the
 * exit code. The process runs in its own process group so a signal, a restart or the end of the
 * session reaches everything the command started.
 *
 * With `tty=true` there is no pseudo-terminal (that needs a native module): stderr is sent as stdout,
 * as one terminal would show both, the terminal size is recorded and announced with SIGWINCH, and
 * Ctrl-C / Ctrl-\ in the input become SIGINT / SIGQUIT as a terminal's line discipline would make them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import WebSocket from 'ws';
import { ExecAuthFrameSchema, ExecRequestFrameSchema } from '../../../api/sched/schemas';

export const CLOSE_NORMAL = 1000;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY = 1008;
export const CLOSE_INTERNAL = 1011;

export interface SessionSpec {
  allocId: string;
  task: string;
  command: string[];
  tty: boolean;
  cwd: string;
  env: Record<string, string>;
  heartbeatMs: number;
}

/** Close frames carry at most 123 bytes of reason. */
export function closeWith(ws: WebSocket, code: number, reason: string): void {
  let r = reason;
  while (Buffer.byteLength(r) > 123) r = r.slice(0, -1);
  if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, r);
}

function signalNumber(name: string): number {
  return (constants.signals as Record<string, number | undefined>)[name] ?? 0;
}

export class ExecSession {
  private child: ChildProcess | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private finished = false;
  private readonly closedStreams = new Set<'stdout' | 'stderr'>();
  /** Last `tty_size` frame; kept for the process's environment and for inspection. */
  ttySize: { height: number; width: number } | undefined;

  constructor(
    private readonly ws: WebSocket,
    readonly spec: SessionSpec,
    private readonly onEnd: (s: ExecSession) => void,
  ) {}

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    const { command, cwd, tty } = this.spec;
    const env = { ...this.spec.env };
    if (tty) {
      env['TERM'] ??= 'xterm-256color';
      if (this.ttySize) {
        env['COLUMNS'] = String(this.ttySize.width);
        env['LINES'] = String(this.ttySize.height);
      }
    }
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdin!.on('error', () => undefined); // EPIPE after the process has gone is not news
    child.stdout!.on('data', (d: Buffer) => this.send({ stdout: { data: d.toString('base64') } }));
    child.stdout!.on('end', () => this.closeStream('stdout'));
    child.stderr!.on('data', (d: Buffer) =>
      this.send(
        tty ? { stdout: { data: d.toString('base64') } } : { stderr: { data: d.toString('base64') } },
      ),
    );
    child.stderr!.on('end', () => {
      if (!tty) this.closeStream('stderr');
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      // The command could not be started at all: report it as a shell would.
      const code = err.code === 'ENOENT' ? 127 : err.code === 'EACCES' ? 126 : 1;
      const what = err.code === 'ENOENT' ? 'executable file not found' : err.message;
      const text = Buffer.from(`exec: "${command[0]}": ${what}\n`).toString('base64');
      this.send(tty ? { stdout: { data: text } } : { stderr: { data: text } });
      this.closeStream('stdout');
      if (!tty) this.closeStream('stderr');
      this.exit(code);
    });
    child.on('close', (code, signal) => {
      this.exit(code ?? (signal ? 128 + signalNumber(signal) : 1));
    });
    this.ws.on('message', (raw: WebSocket.RawData) => this.deliver(raw.toString()));
    this.ws.on('close', () => this.kill('SIGKILL'));
    this.heartbeat = setInterval(() => this.send({}), this.spec.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Delivers a signal to the process group. */
  signal(name: string): void {
    const pid = this.child?.pid;
    if (pid === undefined || !this.running) return;
    try {
      process.kill(-pid, name as NodeJS.Signals);
    } catch {
      // Already gone.
    }
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.signal(signal);
  }

  /** Ends the session from the agent's side (shutdown): kill, then close once the exit is sent. */
  terminate(): void {
    this.kill('SIGKILL');
    if (!this.child) closeWith(this.ws, CLOSE_GOING_AWAY, 'agent shutting down');
  }

  /** Handles one client frame (also the ones that arrived before the session started). */
  deliver(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      closeWith(this.ws, CLOSE_POLICY, 'invalid frame: not JSON');
      this.kill();
      return;
    }
    if (ExecAuthFrameSchema.safeParse(parsed).success) return; // a repeated handshake changes nothing
    const r = ExecRequestFrameSchema.safeParse(parsed);
    if (!r.success) {
      closeWith(this.ws, CLOSE_POLICY, `invalid frame: ${r.error.issues[0]?.message ?? 'unexpected shape'}`);
      this.kill();
      return;
    }
    const frame = r.data;
    const stdin = this.child?.stdin;
    if (frame.stdin?.data && stdin && !stdin.destroyed) {
      let bytes: Buffer = Buffer.from(frame.stdin.data, 'base64');
      if (this.spec.tty) bytes = this.lineDiscipline(bytes);
      if (bytes.length > 0) stdin.write(bytes);
    }
    if (frame.stdin?.close && stdin && !stdin.destroyed) stdin.end();
    if (frame.tty_size) {
      this.ttySize = { height: frame.tty_size.height, width: frame.tty_size.width };
      if (this.spec.tty) this.signal('SIGWINCH');
    }
  }

  private lineDiscipline(bytes: Buffer): Buffer {
    const kept: number[] = [];
    for (const b of bytes) {
      if (b === 0x03) this.signal('SIGINT');
      else if (b === 0x1c) this.signal('SIGQUIT');
      else kept.push(b);
    }
    return kept.length === bytes.length ? bytes : Buffer.from(kept);
  }

  private exit(code: number): void {
    if (this.finished) return;
    this.finished = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.send({ exited: true, result: { exit_code: code } });
    closeWith(this.ws, CLOSE_NORMAL, '');
    this.onEnd(this);
  }

  private closeStream(name: 'stdout' | 'stderr'): void {
    if (this.closedStreams.has(name)) return;
    this.closedStreams.add(name);
    this.send({ [name]: { close: true } });
  }

  private send(frame: object): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }
}
