import type { Command } from 'commander';
import type { CommandIo } from '../io.js';
import { register as registerApply } from './apply/command.js';
import { register as registerCompletion } from './completion/command.js';
import { register as registerCtl } from './ctl/command.js';
import { register as registerDiff } from './diff/command.js';
import { register as registerEmulator } from './emulator/command.js';
import { register as registerExport } from './export/command.js';
import { register as registerInit } from './init/command.js';
import { register as registerPlan } from './plan/command.js';
import { register as registerPull } from './pull/command.js';
import { register as registerRun } from './run/command.js';
import { register as registerSchema } from './schema/command.js';
import { register as registerValidate } from './validate/command.js';

/** What every command's action gets: its streams, environment and signals, and where its exit code goes. */
export interface CommandContext {
  io: CommandIo;
  exit(code: number): void;
}

// Each command lives in its own module with `register(program, context)`; this list is the CLI's
// table of contents, in the order `wsync --help` shows them.
export function registerCommands(program: Command, context: CommandContext): void {
  registerInit(program, context);
  registerValidate(program, context);
  registerPlan(program, context);
  registerApply(program, context);
  registerDiff(program, context);
  registerRun(program, context);
  registerCtl(program, context);
  registerExport(program, context);
  registerPull(program, context);
  registerEmulator(program, context);
  registerSchema(program, context);
  registerCompletion(program, context);
}
