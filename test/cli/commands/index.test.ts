// A run that names its command registers only that one (the others' modules are start-up time for
// nothing); what it sees of its command must be what the full table builds.
import { describe, expect, it } from 'vitest';
import { soleCommand } from '../../../src/cli/commands/index.js';
import { createProgram } from '../../../src/cli/main.js';
import { helpOf, runCli } from '../../support/cli.js';

const full = (await createProgram()).commands;

describe('the command table', () => {
  it('a run that names a command needs only that one; help, a mistyped command and completion need them all', () => {
    expect(soleCommand(['node', 'wsync', 'validate', 'dir'])).toBe('validate');
    expect(soleCommand(['node', 'wsync', 'plan', '--help'])).toBe('plan');
    expect(soleCommand(['node', 'wsync'])).toBeUndefined();
    expect(soleCommand(['node', 'wsync', '--help'])).toBeUndefined();
    expect(soleCommand(['node', 'wsync', 'help', 'plan'])).toBeUndefined();
    expect(soleCommand(['node', 'wsync', 'valdate'])).toBeUndefined();
    expect(soleCommand(['node', 'wsync', '--version'])).toBeUndefined();
    expect(soleCommand(['node', 'wsync', 'completion', 'bash'])).toBeUndefined();
  });

  it.each(full.map((c) => [c.name(), c] as const))('%s alone is the command of the full table: its help, options and arguments', async (name, cmd) => {
    const alone = await createProgram(undefined, name);
    expect(alone.commands.map((c) => c.name())).toEqual([name]);
    const [only] = alone.commands;
    expect(helpOf(only!)).toBe(helpOf(cmd));
    expect(only!.options.map((o) => [o.flags, o.defaultValue, o.argChoices])).toEqual(cmd.options.map((o) => [o.flags, o.defaultValue, o.argChoices]));
    expect(only!.registeredArguments.map((a) => [a.name(), a.required, a.variadic])).toEqual(cmd.registeredArguments.map((a) => [a.name(), a.required, a.variadic]));
  });

  it('a run of one command answers a mistyped option as the full table does, and a mistyped command with every command to suggest', async () => {
    const option = await runCli(['validate', '--strikt']);
    expect(option.stderr).toBe("error: unknown option '--strikt'\n(Did you mean --strict?)\n(see wsync validate --help)\n");
    expect(option.code).toBe(1);
    const command = await runCli(['valdate']);
    expect(command.stderr).toBe("error: unknown command 'valdate'\n(Did you mean validate?)\n(see wsync --help)\n");
    expect(command.code).toBe(1);
  });
});
