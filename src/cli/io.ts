// What a command reads and writes outside its arguments: output streams, environment, working
// directory and signals. bin/wsync.js hands over the process's own; the tests hand over buffers, a
// clean environment and no process, and run the CLI in theirs (test/support/cli.ts).

/** Where a command prints: process.stdout, or a test's buffer. */
export interface OutputStream {
  /** false when the stream's buffer is full (then wait for 'drain'). */
  write(text: string): unknown;
  /** A terminal: colours and pretty logs by default. */
  readonly isTTY?: boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

/**
 * Pieces of output, each redacted, written as they come and no faster than the stream takes them:
 * a pipe that reads slowly would otherwise hold the whole output in its queue (a 28 MB plan).
 */
export async function writeChunks(stream: OutputStream, chunks: Iterable<string>, redact: (text: string) => string): Promise<void> {
  for (const chunk of chunks) {
    if (chunk === '') continue;
    if (stream.write(redact(chunk)) === false && stream.once) {
      const once = stream.once.bind(stream);
      await new Promise<void>((resolve) => once('drain', resolve));
    }
  }
}

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The signals a command listens to while it runs (apply, run, emulator). */
export interface SignalSource {
  on(signal: StopSignal, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: StopSignal, listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface CommandIo {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Read for every setting; never process.env below the CLI. */
  env: Readonly<Record<string, string | undefined>>;
  /** Relative paths in arguments and flags resolve against it. */
  cwd: string;
  signals: SignalSource;
  /**
   * Present when the command is the whole process: only then may it exit at once (a second signal
   * during apply), kill itself (test crash points) or take over process-wide hooks.
   */
  process?: NodeJS.Process;
}

/** The process's own streams, environment, working directory and signals. */
export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), signals: process, process };
}
