import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { registerCommands } from './commands/index.js';
import { shortUsageErrors } from './help.js';
import { expandPruneSpellings, PolicyFlagError } from './policy.js';
import { expandKindLists } from './selection.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export function createProgram(): Command {
  const program = new Command('wsync')
    .description('Keep an observability workspace equal to a directory of YAML files.')
    .version(version())
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  registerCommands(program);
  shortUsageErrors(program);
  return program;
}

/** Runs the CLI; returns the exit code. Commands set process.exitCode; long-running ones return when stopped. */
export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  program.exitOverride();
  try {
    await program.parseAsync(expandKindLists(expandPruneSpellings(argv)));
  } catch (err) {
    if (err instanceof PolicyFlagError) {
      process.stderr.write(`wsync: ${err.message}\n`);
      return 1;
    }
    const code = (err as { exitCode?: number }).exitCode;
    if (typeof code === 'number') return code === 0 ? 0 : (process.exitCode as number | undefined) ?? code;
    throw err;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
