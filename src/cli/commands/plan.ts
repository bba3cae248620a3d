import { Option, type Command } from 'commander';
import { addConnectionOptions } from '../../api/connection.js';
import { addLimitOptions } from '../limit-options.js';
import { addPolicyOptions } from '../policy-options.js';

export function register(program: Command): void {
  const cmd = program
    .command('plan')
    .description('read live state and print what apply would do; never writes')
    .argument('[dir]', 'directory of resource files', '.')
    .option('--state-dir <dir>', 'inventory of owned objects (default: DIR/.wsync)')
    .option('--secrets-dir <dir>', 'root for ${file:PATH} secrets (env WSYNC_SECRETS_DIR)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .option('--out <file>', 'also write the plan as JSON to FILE (for apply --plan)')
    .option('--no-color', 'no ANSI colours, even on a terminal')
    .option('--verbose', 'list unchanged objects too', false)
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error', false)
    .option('--stats', 'print the API requests made to stderr', false);
  addConnectionOptions(cmd);
  addPolicyOptions(cmd);
  addLimitOptions(cmd);
  cmd.action(async (dir: string, options: Record<string, unknown>) => {
    const { runPlan } = await import('../plan-action.js');
    process.exitCode = await runPlan(dir, options);
  });
}
