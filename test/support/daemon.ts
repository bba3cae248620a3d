// `wsync run` as a real process against an in-process emulator, read through its JSON log lines
// (or the daemon in this process, useInProcessDaemons). Nothing of ours is mocked.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { Daemon, type DaemonConfig } from '../../src/daemon/daemon.js';
import { spawnCli, type RunningCli } from './cli.js';
import { startTestEmulator, type EmulatorClient, type TestEmulator } from './emulator.js';
import { removeDir, tempDir } from './tree.js';
import { waitUntil } from './wait.js';
import { MONITOR_DATASETS } from './yaml.js';

export type LogLine = Record<string, unknown> & { msg?: string; level?: string; time?: string };

export interface WaitForOptions {
  /** Default 15 s. */
  timeoutMs?: number;
  /** Look at lines from this index on (a `mark`). */
  from?: number;
  what?: string;
}

export interface ReconcileMatch {
  trigger?: string;
  result?: string;
  revision?: string;
}

export class DaemonProcess {
  readonly lines: LogLine[] = [];
  private readonly cli: RunningCli;
  private exitCode: number | null | undefined = undefined;
  private waiters: (() => void)[] = [];

  /** `wsync run --listen 127.0.0.1:0 --log-format json ...args`. */
  constructor(args: string[], env: Record<string, string | undefined>) {
    this.cli = spawnCli(['run', '--listen', '127.0.0.1:0', '--log-format', 'json', ...args], { env, timeoutMs: 300_000 });
    let buffer = '';
    this.cli.child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (text.trim() !== '') this.lines.push(parseLine(text));
      }
      this.wake();
    });
    this.cli.child.stderr?.on('data', () => this.wake());
    void this.cli.done.then(
      (result) => this.exited(result.code),
      () => this.exited(null),
    );
  }

  get child(): RunningCli['child'] {
    return this.cli.child;
  }

  /** What the daemon wrote to stderr so far. */
  get stderr(): string {
    return this.cli.stderr();
  }

  /** The index the next log line will have: wait for lines after this point. */
  get mark(): number {
    return this.lines.length;
  }

  /** Waits for a log line matching `pred` among those from `from` on. */
  async waitFor(pred: (line: LogLine) => boolean, options: WaitForOptions = {}): Promise<LogLine> {
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    for (;;) {
      const found = this.lines.slice(options.from ?? 0).find(pred);
      if (found) return found;
      const what = options.what ?? 'a log line';
      if (this.exitCode !== undefined) throw new Error(`daemon exited (${this.exitCode}) before ${what}\n${this.dump()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}\n${this.dump()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next reconcile summary from `from` on, optionally with a given trigger, result or revision. */
  waitReconcile(from: number, match: ReconcileMatch = {}, timeoutMs?: number): Promise<LogLine> {
    return this.waitFor((line) => isReconcile(line, match), { from, timeoutMs, what: `reconcile ${JSON.stringify(match)}` });
  }

  /** The reconcile summaries logged from `from` on. */
  reconciles(from = 0): LogLine[] {
    return this.lines.slice(from).filter((line) => line.msg === 'reconcile');
  }

  /** The URL of its HTTP server, once it listens. */
  async url(): Promise<string> {
    const line = await this.waitFor((l) => l.msg === 'listening', { what: 'listening' });
    return String(line.url);
  }

  /** Waits until it listens and has logged its first reconcile (trigger start) matching `match`. */
  async ready(match: Omit<ReconcileMatch, 'trigger'> = {}): Promise<{ url: string; first: LogLine }> {
    const url = await this.url();
    return { url, first: await this.waitReconcile(0, { trigger: 'start', ...match }) };
  }

  /** Sends the signal and resolves with the exit code; kills it and throws if it does not exit in time. */
  async signal(signal: NodeJS.Signals, timeoutMs = 15_000): Promise<number | null> {
    this.child.kill(signal);
    return this.waitExit(timeoutMs, `${signal}`);
  }

  /** Waits for the process to end by itself. */
  async waitExit(timeoutMs = 10_000, after = 'start'): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const result = await Promise.race([this.cli.done, timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      this.child.kill('SIGKILL');
      throw new Error(`daemon still running ${timeoutMs} ms after ${after}\n${this.dump()}`);
    }
    return result.code;
  }

  async kill(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGKILL');
    await this.cli.done.catch(() => undefined);
  }

  /** The last log lines and stderr, for failure messages. */
  dump(): string {
    return [...this.lines.slice(-40).map((l) => JSON.stringify(l)), this.stderr].join('\n');
  }

  private exited(code: number | null): void {
    this.exitCode = code;
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

function parseLine(text: string): LogLine {
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return { msg: `(not JSON) ${text}` };
  }
}

function isReconcile(line: LogLine, match: ReconcileMatch): boolean {
  return (
    line.msg === 'reconcile' &&
    (match.trigger === undefined || line.trigger === match.trigger) &&
    (match.result === undefined || line.result === match.result) &&
    (match.revision === undefined || line.revision === match.revision)
  );
}

export interface DaemonSuite {
  /** One emulator for the whole file. */
  readonly emulator: TestEmulator;
  /** A temporary directory for the file's trees and state. */
  readonly tmp: string;
  /** Starts a daemon pointed at the emulator; every daemon is killed after the file's tests. */
  start(args: string[], extraEnv?: Record<string, string>): DaemonProcess;
}

/** An emulator, a temporary directory and daemons for one test file: set up in beforeAll, stopped in afterAll. */
export function useDaemonSuite(): DaemonSuite {
  let emulator: TestEmulator | undefined;
  let tmp: string | undefined;
  const daemons: DaemonProcess[] = [];
  beforeAll(async () => {
    emulator = await startTestEmulator();
    await emulator.seed(MONITOR_DATASETS);
    tmp = await tempDir('wsync-daemon-');
  });
  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.kill()));
    await emulator?.close();
    if (tmp) await removeDir(tmp);
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useDaemonSuite: used before its beforeAll ran');
    return value;
  };
  return {
    get emulator() {
      return started(emulator);
    },
    get tmp() {
      return started(tmp);
    },
    start(args, extraEnv = {}) {
      const daemon = new DaemonProcess(args, { ...started(emulator).env, ...extraEnv });
      daemons.push(daemon);
      return daemon;
    },
  };
}

/** A daemon in this process (`Daemon.start`), its JSON log lines kept in `lines`. */
export interface InProcessDaemon {
  daemon: Daemon;
  lines: LogLine[];
  /** Waits for a log line matching `pred`. */
  waitFor(pred: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

/**
 * Daemons started in this process against `emulator` (enforce mode, no schedule, no debounce unless
 * `config` says otherwise); every one is stopped after the file's tests. For engine behaviour
 * (what the daemon reads, writes and shows); spawn `wsync run` (useDaemonSuite) for the process.
 */
export function useInProcessDaemons(emulator: EmulatorClient): (config: Pick<DaemonConfig, 'dir' | 'stateDir'> & Partial<DaemonConfig>) => Promise<InProcessDaemon> {
  const daemons: Daemon[] = [];
  afterAll(async () => {
    for (const daemon of daemons.splice(0)) await daemon.stop('test over');
  });
  return async (config) => {
    const lines: LogLine[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString().split('\n')) if (text.trim() !== '') lines.push(parseLine(text));
        done();
      },
    });
    const daemon = await Daemon.start({
      listen: { host: '127.0.0.1', port: 0 },
      resync: null,
      debounceMs: 0,
      policy: DEFAULT_POLICY,
      env: {},
      connection: { url: emulator.url, token: () => emulator.token, retryBaseMs: 1 },
      reloadConfig: () => ({ connection: { url: emulator.url, token: () => emulator.token }, freeze: [] }),
      logger: pino({ level: 'info' }, sink),
      ...config,
    });
    daemons.push(daemon);
    const waitFor = async (pred: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> => {
      let found: LogLine | undefined;
      await waitUntil(() => (found = lines.find(pred)) !== undefined, { timeoutMs, what: 'a daemon log line' });
      return found as LogLine;
    };
    return { daemon, lines, waitFor };
  };
}
