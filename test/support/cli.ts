// The real CLI as a child process: `node bin/wsync.js ...` (which loads dist/; build first), with a
// clean environment so no WSYNC_* setting of the machine running the tests leaks in.
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, BIN, ROOT } from './paths.js';

export interface CliOptions {
  /** Added to the clean environment (PATH, HOME, NO_COLOR); an undefined value is left out. */
  env?: Record<string, string | undefined>;
  /** Default: the repository root. */
  cwd?: string;
  /** Written to stdin, which is then closed; without it stdin is empty. */
  stdin?: string;
  /** The process is killed (SIGKILL) and the run fails after this long. Default 60 s. */
  timeoutMs?: number;
  /** Node options before bin/wsync.js, e.g. ['--import', file]. */
  nodeArgs?: string[];
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  /** Resolves when the process has exited and its output is closed. */
  done: Promise<CliResult>;
  /** The first line printed on stdout (rejects if the process exits before one). */
  firstLine(): Promise<string>;
  stdout(): string;
  stderr(): string;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** `nodeArgs` that shorten the client's retry backoff to milliseconds (see fast-retry.mjs). */
export const FAST_RETRY = ['--import', join(ROOT, 'test', 'support', 'fast-retry.mjs')];

/** Only what Node needs, plus `extra`; no colours. */
export function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: tmpdir(), NO_COLOR: '1' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

/** Starts the CLI and returns at once; for runs a test signals, kills or reads while they go on. */
export function spawnCli(args: string[], options: CliOptions = {}): RunningCli {
  assertBuilt();
  return spawnNode([...(options.nodeArgs ?? []), BIN, ...args], options);
}

/** Runs the CLI to its end: exit code, signal, stdout and stderr. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return spawnCli(args, options).done;
}

/** Any Node script as a child process, with the same environment and bookkeeping as the CLI. */
export function spawnNode(args: string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    env: cliEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const lineWaiters: { resolve: (line: string) => void; reject: (err: Error) => void }[] = [];
  const settleLines = (): void => {
    const nl = stdout.indexOf('\n');
    if (nl >= 0) for (const waiter of lineWaiters.splice(0)) waiter.resolve(stdout.slice(0, nl));
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    settleLines();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin?.on('error', () => undefined); // a process that exits without reading stdin
  child.stdin?.end(options.stdin ?? '');

  let exited = false;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')}: still running after ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      exited = true;
      const early = new Error(`the process exited (${String(code ?? signal)}) before printing a line; stderr: ${stderr}`);
      for (const waiter of lineWaiters.splice(0)) waiter.reject(early);
      resolve({ code, signal, stdout, stderr });
    });
  });
  // A test that only reads firstLine must not see an unhandled rejection from `done`.
  done.catch(() => undefined);

  return {
    child,
    done,
    firstLine: () =>
      new Promise<string>((resolve, reject) => {
        const nl = stdout.indexOf('\n');
        if (nl >= 0) return resolve(stdout.slice(0, nl));
        if (exited) return reject(new Error(`the process exited before printing a line; stderr: ${stderr}`));
        lineWaiters.push({ resolve, reject });
      }),
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
