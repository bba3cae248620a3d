// The real CLI, two ways. runCli runs it in this process by default: main() from src/ with buffers
// for stdout and stderr, a clean environment object (no WSYNC_* of the machine running the tests
// leaks in) and signals nobody sends; it fails the test if the run left process-wide state behind.
// spawnCli runs `node bin/wsync.js ...` (which loads dist/; build first) for the tests that are about
// the process: signals, crash points, exit, the README block, the image (files named *.e2e.test.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Command } from 'commander';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { DEFAULT_BACKOFF } from '../../src/api/retry.js';
import type { CommandIo, SignalSource } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { assertBuilt, BIN, ROOT } from './paths.js';

export interface CliOptions {
  /** Added to the clean environment (PATH, HOME, NO_COLOR); an undefined value is left out. */
  env?: Record<string, string | undefined>;
  /** Default: the repository root. */
  cwd?: string;
  /** Written to stdin, which is then closed; without it stdin is empty. runCli spawns the CLI when given. */
  stdin?: string;
  /** The run fails after this long (a process is killed with SIGKILL, a run in process gets SIGTERM). Default 60 s. */
  timeoutMs?: number;
  /** Node options before bin/wsync.js, e.g. ['--import', file]. runCli spawns the CLI when given. */
  nodeArgs?: string[];
  /**
   * The client's retry backoff drops from 200 ms doubling up to 10 s to 1 ms doubling up to 20 ms.
   * In process only: a spawned CLI runs dist/bundle/, whose copy of the settings no preload reaches.
   */
  fastRetry?: boolean;
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

const FAST_BACKOFF = { baseMs: 1, capMs: 20 };

/** Only what Node needs, plus `extra`; no colours. */
export function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: tmpdir(), NO_COLOR: '1' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

/** Starts the CLI and returns at once; for runs a test signals, kills or reads while they go on. */
export function spawnCli(args: string[], options: CliOptions = {}): RunningCli {
  assertBuilt();
  if (options.fastRetry === true) throw new Error('spawnCli: fastRetry works in process only (runCli without nodeArgs or stdin)');
  return spawnNode([...(options.nodeArgs ?? []), BIN, ...args], options);
}

/**
 * Runs the CLI to its end: exit code, signal (always null in process), stdout and stderr. In this
 * process unless `nodeArgs` or `stdin` ask for a process.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (options.nodeArgs !== undefined || options.stdin !== undefined) return spawnCli(args, options).done;
  return runInProcess(args, options);
}

/** What a run may not leave behind in the test's process; compared before and after each run. */
interface ProcessState {
  cwd: string;
  exitCode: typeof process.exitCode;
  listeners: string;
  backoff: string;
}

// Not 'exit': src/state/lock.ts registers one handler for the whole process when first loaded.
const WATCHED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'unhandledRejection', 'uncaughtException'] as const;

function processState(): ProcessState {
  return {
    cwd: process.cwd(),
    exitCode: process.exitCode,
    listeners: WATCHED_EVENTS.map((event) => `${event}:${process.listenerCount(event)}`).join(' '),
    backoff: JSON.stringify(DEFAULT_BACKOFF),
  };
}

let running = 0;

async function runInProcess(args: string[], options: CliOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const signals = new EventEmitter();
  const io: CommandIo = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env: cliEnv(options.env),
    cwd: options.cwd ?? ROOT,
    signals: signals as SignalSource,
  };
  // Code below the CLI still names paths relative to the process's working directory (the state
  // directory and token files in messages): the run has it for its duration. Runs in one file
  // follow one another, so nothing else sees it.
  if (running > 0 && (options.cwd !== undefined || options.fastRetry === true)) {
    throw new Error('runCli: a run with cwd or fastRetry changes the process for its duration; run it alone');
  }
  const before = processState();
  running += 1;
  if (options.cwd !== undefined) process.chdir(options.cwd);
  if (options.fastRetry === true) Object.assign(DEFAULT_BACKOFF, FAST_BACKOFF);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      signals.emit('SIGTERM', 'SIGTERM');
      reject(new Error(`${args.join(' ')}: still running after ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
  });
  // What bin/wsync.js does with an error no command caught.
  const ran = main(['node', 'wsync', ...args], io).catch((err: unknown) => {
    stderr += `wsync: ${err instanceof Error ? err.message : String(err)}\n`;
    return 1;
  });
  let code: number;
  try {
    code = await Promise.race([ran, timedOut]);
  } finally {
    clearTimeout(timer);
    running -= 1;
    Object.assign(DEFAULT_BACKOFF, JSON.parse(before.backoff) as object);
    if (options.cwd !== undefined) process.chdir(before.cwd);
  }
  const after = processState();
  for (const key of Object.keys(before) as (keyof ProcessState)[]) {
    if (before[key] !== after[key]) {
      throw new Error(`wsync ${args.join(' ')} changed the test process's ${key} (${String(before[key])} -> ${String(after[key])}): state that a run in process must not leave behind`);
    }
  }
  return { code, signal: null, stdout, stderr };
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

/** What `--help` prints for `cmd` (a command of createProgram()). */
export function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}
