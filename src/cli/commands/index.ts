import type { Command } from 'commander';
import { register as registerApply } from './apply/command.js';
import { register as registerCompletion } from './completion/command.js';
import { register as registerCtl } from './ctl/command.js';
import { register as registerEmulator } from './emulator/command.js';
import { register as registerExport } from './export/command.js';
import { register as registerInit } from './init/command.js';
import { register as registerPlan } from './plan/command.js';
import { register as registerRun } from './run/command.js';
import { register as registerSchema } from './schema/command.js';
import { register as registerValidate } from './validate/command.js';

// Each command lives in its own module with `register(program)`; this list is the CLI's table of
// contents, in the order `wsync --help` shows them.
export function registerCommands(program: Command): void {
  registerInit(program);
  registerValidate(program);
  registerPlan(program);
  registerApply(program);
  registerRun(program);
  registerCtl(program);
  registerExport(program);
  registerEmulator(program);
  registerSchema(program);
  registerCompletion(program);
}
