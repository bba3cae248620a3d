import { Option, type Command } from 'commander';
import { addHelpFooter, TREE_VARIABLES } from '../../help.js';
import { addLimitOptions, type LimitFlags } from '../../limits.js';
import type { CommandContext } from '../index.js';

export interface DiffFlags extends LimitFlags {
  format: 'text' | 'json';
  detailedExitcode: boolean;
  live?: boolean;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('diff')
    .description("what differs between two environments' rendered resources (only in one, field by field); no network")
    .argument('<a>', 'an environment of wsync.yaml')
    .argument('<b>', 'another environment of wsync.yaml')
    .argument('[dir]', 'directory of resource files', '.')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--detailed-exitcode', 'exit 0 when they render the same, 2 when they differ, 1 on error', false)
    .option('--live', "compare the two live workspaces instead, each read as export reads it; each environment's connection its own (WSYNC_URL_<ENV> and the like, as for run --env A --env B); writes nothing");
  addLimitOptions(cmd);
  addHelpFooter(cmd, {
    variables: [...TREE_VARIABLES.filter((name) => name !== 'WSYNC_ENV'), 'WSYNC_URL_<ENV>'],
    examples: [
      ['wsync diff staging prod workspace', 'what staging has that prod lacks, and what differs'],
      ['wsync diff --format json staging prod', 'the same for a bot'],
      ['WSYNC_URL_STAGING=... WSYNC_URL_PROD=... wsync diff --live staging prod', 'what the staging workspace has that prod lacks, live'],
    ],
  });
  cmd.action(async (a: string, b: string, dir: string, options: DiffFlags) => {
    const { runDiff } = await import('./action.js');
    context.exit(await runDiff(a, b, dir, options, context.io));
  });
}
