import type { Command } from 'commander';
import type { CommandIo } from '../io.js';

/** What every command's action gets: its streams, environment and signals, and where its exit code goes. */
export interface CommandContext {
  io: CommandIo;
  exit(code: number): void;
}

interface CommandModule {
  register(program: Command, context: CommandContext): void;
}

// Each command lives in its own module with `register(program, context)`; this list is the CLI's
// table of contents, in the order `wsync --help` shows them. The modules are loaded when the
// program is built (registerCommands), only the one needed when a run names its command.
const COMMANDS: readonly (readonly [string, () => Promise<CommandModule>])[] = [
  ['init', () => import('./init/command.js')],
  ['validate', () => import('./validate/command.js')],
  ['plan', () => import('./plan/command.js')],
  ['apply', () => import('./apply/command.js')],
  ['diff', () => import('./diff/command.js')],
  ['run', () => import('./run/command.js')],
  ['ctl', () => import('./ctl/command.js')],
  ['export', () => import('./export/command.js')],
  ['pull', () => import('./pull/command.js')],
  ['emulator', () => import('./emulator/command.js')],
  ['schema', () => import('./schema/command.js')],
  ['completion', () => import('./completion/command.js')],
];

/**
 * The one command a run needs (`wsync validate ...`: argv[2] names it), or undefined when it needs
 * them all: `wsync`, `wsync --help`, `wsync help plan`, a mistyped command (its did-you-mean names
 * the others), and `wsync completion`, whose script lists every command.
 */
export function soleCommand(argv: readonly string[]): string | undefined {
  const name = argv[2];
  return name !== 'completion' && COMMANDS.some(([known]) => known === name) ? name : undefined;
}

/**
 * Registers the commands on `program`, in table order: `only` alone when given (its help, options
 * and errors are those of the full table), every one otherwise. Loading the other commands'
 * modules (and what their flags import) is start-up time every run would pay for nothing.
 */
export async function registerCommands(program: Command, context: CommandContext, only?: string): Promise<void> {
  const modules = await Promise.all(COMMANDS.filter(([name]) => only === undefined || name === only).map(([, load]) => load()));
  for (const module of modules) module.register(program, context);
}
