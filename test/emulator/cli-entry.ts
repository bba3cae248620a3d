// A minimal program holding only the emulator command, so the CLI test does not depend on the rest
// of the CLI (src/cli/main.ts) being built.
import { Command } from 'commander';
import { register } from '../../src/cli/commands/emulator/command.js';

const program = new Command('wsync');
register(program);
await program.parseAsync(process.argv);
