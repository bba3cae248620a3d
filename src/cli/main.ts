import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withOwnCredentials } from '../core/own-credentials.js';
import { packageRoot } from '../util/package-root.js';
import { registerCommands, soleCommand, type CommandContext } from './commands/index.js';
import { shortUsageErrors } from './help.js';
import { processIo, type CommandIo } from './io.js';
import { expandPruneSpellings, PolicyFlagError } from './policy.js';
import { expandKindLists } from './selection.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The program with every command, or with only `only` (a run that names its command: the others'
 * modules are not loaded).
 */
export async function createProgram(context: CommandContext = { io: processIo(), exit: () => undefined }, only?: string): Promise<Command> {
  const { io } = context;
  const program = new Command('wsync')
    .description('Keep an observability workspace equal to a directory of YAML files.')
    .version(version())
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    // Before the commands are added, so that they inherit it: a usage error or --help ends in an
    // exception main turns into the exit code, never in process.exit.
    .exitOverride();
  await registerCommands(program, context, only);
  shortUsageErrors(program);
  return program;
}

/**
 * Runs the CLI with `io` (the process's own by default); returns the exit code, which the command
 * returns rather than setting on the process. Long-running commands return when stopped.
 */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  // A run's own credentials are its own: another run in this process never sees them.
  return withOwnCredentials(() => runMain(argv, io));
}

/**
 * Runs the CLI as its process's one run (bin/wsync.js): nothing else in the process reads or
 * checks credentials, so the run's are the process's (own-credentials.ts, read outside any run)
 * and it needs no scope of its own, whose AsyncLocalStorage would follow every promise it makes.
 */
export function mainOfProcess(argv: string[]): Promise<number> {
  return runMain(argv, processIo());
}

async function runMain(argv: string[], io: CommandIo): Promise<number> {
  let exitCode = 0;
  const program = await createProgram({ io, exit: (code) => (exitCode = code) }, soleCommand(argv));
  try {
    await program.parseAsync(expandKindLists(expandPruneSpellings(argv)));
  } catch (err) {
    if (err instanceof PolicyFlagError) {
      io.stderr.write(`wsync: ${err.message}\n`);
      return 1;
    }
    const code = (err as { exitCode?: number }).exitCode;
    if (typeof code === 'number') return code === 0 ? 0 : exitCode || code;
    throw err;
  }
  return exitCode;
}
