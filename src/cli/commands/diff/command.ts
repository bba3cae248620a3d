import { Option, type Command } from 'commander';
import { addHelpFooter, TREE_VARIABLES } from '../../help.js';
import { addLimitOptions, type LimitFlags } from '../../limits.js';
import type { CommandContext } from '../index.js';

export interface DiffFlags extends LimitFlags {
  format: 'text' | 'json';
  detailedExitcode: boolean;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('diff')
    .description("what differs between two environments' rendered resources (only in one, field by field); no network")
    .argument('<a>', 'an environment of wsync.yaml')
    .argument('<b>', 'another environment of wsync.yaml')
    .argument('[dir]', 'directory of resource files', '.')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--detailed-exitcode', 'exit 0 when they render the same, 2 when they differ, 1 on error', false);
  addLimitOptions(cmd);
  addHelpFooter(cmd, {
    variables: TREE_VARIABLES.filter((name) => name !== 'WSYNC_ENV'),
    examples: [
      ['wsync diff staging prod workspace', 'what staging has that prod lacks, and what differs'],
      ['wsync diff --format json staging prod', 'the same for a bot'],
    ],
  });
  cmd.action(async (a: string, b: string, dir: string, options: DiffFlags) => {
    const { runDiff } = await import('./action.js');
    context.exit(await runDiff(a, b, dir, options, context.io));
  });
}
