import { InvalidArgumentError, Option, type Command } from 'commander';
import { addHelpFooter } from '../../help.js';
import type { CommandContext } from '../index.js';

export interface EmulatorFlags {
  port: number;
  host: string;
  /** Absent: WSYNC_EMULATOR_TOKEN, else DEFAULT_TOKEN. */
  token?: string;
  rateLimit?: number;
  rateWindow: number;
  seed?: number;
  faultRate?: number;
  latency?: [number, number];
  resetRate?: number;
  dropAfterWriteRate?: number;
  state?: string;
  seedFile?: string;
  logRequests?: boolean;
  rbac: boolean;
}

function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}, got "${value}"`);
    }
    return parsed;
  };
}

function probability(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !(parsed >= 0 && parsed <= 1)) {
    throw new InvalidArgumentError(`expected a probability from 0 to 1, got "${value}"`);
  }
  return parsed;
}

/** The longest delay a Node timer keeps (the emulator refuses more). */
const MAX_LATENCY_MS = 2 ** 31 - 1;

/** `MIN-MAX` or a single `MS`, in milliseconds. */
function latencyRange(value: string): [number, number] {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value);
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || min > max) throw new InvalidArgumentError(`expected MIN-MAX milliseconds such as 10-50, got "${value}"`);
  if (max > MAX_LATENCY_MS) throw new InvalidArgumentError(`at most ${MAX_LATENCY_MS} ms (what a timer can wait), got "${value}"`);
  return [min, max];
}

/** The admin token when neither --token nor WSYNC_EMULATOR_TOKEN gives one. */
export const DEFAULT_TOKEN = 'wsync-emulator-admin';

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('emulator')
    .description('serve a local, in-memory Workspace API v2 for tests, demos and CI')
    .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').argParser(integerIn(0, 65535)).default(0))
    .option('--host <host>', 'address to bind', '127.0.0.1')
    // The environment is the command's (context.io.env), not commander's process.env.
    .option('--token <token>', `admin token, with every capability (env WSYNC_EMULATOR_TOKEN; default "${DEFAULT_TOKEN}")`)
    .addOption(new Option('--rate-limit <n>', 'requests per rate window (a minute, as the service) before answering 429').argParser(integerIn(1, 1_000_000)))
    .addOption(new Option('--rate-window <seconds>', 'length of a rate window').default(60).argParser(integerIn(1, 3600)))
    .addOption(new Option('--seed <n>', 'seed for fault decisions and ids, so runs repeat').argParser(integerIn(0, 2 ** 32 - 1)))
    .addOption(new Option('--fault-rate <p>', 'probability of answering a random 500/502/503').argParser(probability))
    .addOption(new Option('--latency <min-max>', 'added delay per request, in ms (e.g. 10-50)').argParser(latencyRange))
    .addOption(new Option('--reset-rate <p>', 'probability of destroying the connection before any answer').argParser(probability))
    .addOption(
      new Option('--drop-after-write-rate <p>', 'probability of applying a write, then destroying the connection').argParser(
        probability,
      ),
    )
    .option('--state <file>', 'persist the workspace to FILE (JSON) and reload it at start')
    .option('--seed-file <file>', 'preload objects from FILE (the seed-file format); ignored when --state reloads')
    .option('--log-requests', 'print one line per request to stderr', false)
    .option('--no-rbac', 'a workspace without the RBAC add-on: /v2/rbac/* answers 403')
    .action(async (flags: EmulatorFlags) => {
      // Loaded when run: start-up of the other commands never pays for the emulator.
      const { runEmulator } = await import('./action.js');
      await runEmulator(flags, context.io);
    });
  addHelpFooter(cmd, {
    variables: ['WSYNC_EMULATOR_TOKEN'],
    examples: [
      ['wsync emulator --port 8080 --token dev', 'a local workspace: WSYNC_URL=http://127.0.0.1:8080 WSYNC_TOKEN=dev'],
      ['wsync emulator --state emu.json --fault-rate 0.05 --latency 10-50', 'kept across restarts, with faults and latency, for a CI rehearsal'],
    ],
  });
}
