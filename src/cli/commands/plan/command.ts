import { addEnvironmentOption } from '../../environment.js';
import { Option, type Command } from 'commander';
import { addConnectionOptions, addTrustConfigOption } from '../../connection.js';
import { addHelpFooter, CONNECTION_VARIABLES, TREE_VARIABLES } from '../../help.js';
import { addLimitOptions, type LimitFlags } from '../../limits.js';
import { addPolicyOptions, type PolicyFlags } from '../../policy.js';
import { addSelectionOptions, type SelectionFlags } from '../../selection.js';
import type { CommandContext } from '../index.js';
import type { SettingsFlags } from '../../settings.js';

export interface PlanFlags extends PolicyFlags, SettingsFlags, LimitFlags, SelectionFlags {
  format: 'text' | 'json' | 'markdown';
  out?: string;
  color: boolean;
  verbose: boolean;
  detailedExitcode: boolean;
  stats: boolean;
  tokenOutputDir?: string;
  base?: string;
  baseDir?: string;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('plan')
    .description('read live state and print what apply would do; never writes')
    .argument('[dir]', 'directory of resource files', '.')
    .option('--state-dir <dir>', 'inventory of owned objects (default: DIR/.wsync)')
    .option('--secrets-dir <dir>', 'root for ${file:PATH} secrets (env WSYNC_SECRETS_DIR)')
    .option('--token-output-dir <dir>', 'where apply writes API token secrets: a token whose secret is not there is regenerated (default: STATE_DIR/tokens)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .option('--out <file>', 'also write the plan as JSON to FILE (for apply --plan)')
    .option('--no-color', 'no ANSI colours, even on a terminal')
    .option('--verbose', 'list unchanged objects too', false)
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error', false)
    .option('--stats', 'print the API requests made and the time of each phase (read, parse, validate, live, plan, references, render) to stderr', false)
    .option('--base <ref>', "the base of the change (a pull request's target, a git revision of DIR's repository): what it declares and DIR does not is planned as deleted by the change")
    .option('--base-dir <dir>', 'like --base, with the base as a directory of files');
  addConnectionOptions(cmd);
  addTrustConfigOption(cmd);
  addEnvironmentOption(cmd);
  addPolicyOptions(cmd);
  addSelectionOptions(cmd);
  addLimitOptions(cmd);
  addHelpFooter(cmd, {
    variables: [...CONNECTION_VARIABLES, ...TREE_VARIABLES, 'WSYNC_STATE_DIR'],
    examples: [
      ['wsync plan workspace', 'what apply would change'],
      ['wsync plan --base origin/main --format markdown workspace > plan.md', "a pull request's plan, deletes by the change included, as a comment"],
      ['wsync plan --out plan.json --detailed-exitcode workspace', 'save the plan for apply --plan; exit 2 when there are changes'],
      ["wsync plan --kind Monitor --target 'Notifier/oncall-*' workspace", 'only the monitors and the oncall notifiers'],
    ],
  });
  cmd.action(async (dir: string, options: PlanFlags) => {
    // Loaded when run: start-up of the other commands never pays for the client and the planner.
    const { runPlan } = await import('./action.js');
    context.exit(await runPlan(dir, options, context.io));
  });
}
