// Runs `node bin/wsync.js run ...` as a real process against the in-process emulator, and reads its
// JSON log lines. The daemon tests are end-to-end: nothing of ours is mocked.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS_PATH } from '../../src/core/writer-lease-record.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'wsync.js');
export const TOKEN = 'daemon-test-admin-token';

/** The daemon tests run the built CLI: `npm run build` (part of `npm test`) must have run. */
export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'run', 'action.js'))) {
    throw new Error('dist/ is missing the daemon: run `npm run build` first');
  }
}

export type LogLine = Record<string, unknown> & { msg?: string; level?: string; time?: string };

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class DaemonProcess {
  readonly lines: LogLine[] = [];
  readonly stderr: string[] = [];
  readonly child: ChildProcess;
  private exitCode: number | null | undefined = undefined;
  private readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, 'run', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (text.trim() === '') continue;
        try {
          this.lines.push(JSON.parse(text) as LogLine);
        } catch {
          this.lines.push({ msg: `(not JSON) ${text}` });
        }
      }
      this.wake();
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderr.push(chunk);
      this.wake();
    });
    this.exited = new Promise((done) => {
      this.child.on('exit', (code) => {
        this.exitCode = code;
        this.wake();
        done(code);
      });
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits for a log line matching `pred` among those from index `from` on. */
  async waitFor(pred: (l: LogLine) => boolean, opts: { timeoutMs?: number; from?: number; what?: string } = {}): Promise<LogLine> {
    const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
    for (;;) {
      const found = this.lines.slice(opts.from ?? 0).find(pred);
      if (found) return found;
      if (this.exitCode !== undefined) throw new Error(`daemon exited (${this.exitCode}) before: ${opts.what ?? 'expected log line'}\n${this.dump()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for: ${opts.what ?? 'log line'}\n${this.dump()}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /** The next reconcile summary from index `from` on, optionally with a given trigger/result. */
  waitReconcile(from: number, match: { trigger?: string; result?: string; revision?: string } = {}, timeoutMs?: number): Promise<LogLine> {
    return this.waitFor(
      (l) =>
        l.msg === 'reconcile' &&
        (match.trigger === undefined || l.trigger === match.trigger) &&
        (match.result === undefined || l.result === match.result) &&
        (match.revision === undefined || l.revision === match.revision),
      { from, timeoutMs, what: `reconcile ${JSON.stringify(match)}` },
    );
  }

  reconciles(from = 0): LogLine[] {
    return this.lines.slice(from).filter((l) => l.msg === 'reconcile');
  }

  async url(): Promise<string> {
    const line = await this.waitFor((l) => l.msg === 'listening', { what: 'listening' });
    return String(line.url);
  }

  get mark(): number {
    return this.lines.length;
  }

  /** Sends the signal and resolves with the exit code and how long the exit took. */
  async signal(sig: NodeJS.Signals, timeoutMs = 15_000): Promise<{ code: number | null; ms: number }> {
    const start = Date.now();
    this.child.kill(sig);
    const code = await Promise.race([this.exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      this.child.kill('SIGKILL');
      throw new Error(`daemon did not exit within ${timeoutMs} ms of ${sig}\n${this.dump()}`);
    }
    return { code, ms: Date.now() - start };
  }

  /** Waits for the process to end by itself. */
  async waitExit(timeoutMs = 10_000): Promise<number | null> {
    const code = await Promise.race([this.exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
    if (code === 'timeout') throw new Error(`daemon still running after ${timeoutMs} ms\n${this.dump()}`);
    return code;
  }

  async kill(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  dump(): string {
    return [...this.lines.slice(-40).map((l) => JSON.stringify(l)), ...this.stderr].join('\n');
  }
}

export interface Env {
  emulator: RunningEmulator;
  tmp: string;
  daemons: DaemonProcess[];
  start(args: string[], extraEnv?: Record<string, string>): DaemonProcess;
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  writes(): Promise<{ method: string; path: string; status: number; at: string }[]>;
  state(): Promise<Record<string, Record<string, unknown>[]>>;
  close(): Promise<void>;
}

/** An emulator, a temporary directory, and daemons that are all stopped by close(). */
export async function createEnv(): Promise<Env> {
  const emulator = await startEmulator({ port: 0, token: TOKEN, seed: 1 });
  const tmp = await mkdtemp(join(tmpdir(), 'wsync-daemon-'));
  const daemons: DaemonProcess[] = [];
  async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }
  return {
    emulator,
    tmp,
    daemons,
    start(args, extraEnv = {}) {
      const d = new DaemonProcess(['--listen', '127.0.0.1:0', '--log-format', 'json', ...args], {
        WSYNC_URL: emulator.url,
        WSYNC_TOKEN: TOKEN,
        ...extraEnv,
      });
      daemons.push(d);
      return d;
    },
    api,
    async writes() {
      const r = await api<{ method: string; path: string; status: number; at: string }[]>('GET', '/_emulator/requests');
      // The writer lease (src/reconcile/writer-lease.ts) is wsync marking the workspace, not a change to it.
      return r.body.filter((e) => e.method !== 'GET' && !e.path.startsWith(GROUPS_PATH));
    },
    async state() {
      return (await api<Record<string, Record<string, unknown>[]>>('GET', '/_emulator/state')).body;
    },
    async close() {
      await Promise.all(daemons.map((d) => d.kill()));
      await emulator.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

/** Polls `fn` until it returns true. */
export async function eventually(fn: () => Promise<boolean> | boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export function monitorYaml(name: string, threshold: number, notifier = 'team-email'): string {
  return `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: ${name}
spec:
  type: Threshold
  aplQuery: "['app'] | where status >= 500 | summarize count() by bin_auto(_time)"
  operator: Above
  threshold: ${threshold}
  intervalMinutes: 5
  rangeMinutes: 10
  notifiers: [${notifier}]
`;
}

export function notifierYaml(name: string): string {
  return `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: ${name}
spec:
  properties:
    email:
      emails: [oncall@example.com]
`;
}
