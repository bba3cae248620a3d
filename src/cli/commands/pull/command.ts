import type { Command } from 'commander';
import { addConnectionOptions, addTrustConfigOption } from '../../connection.js';
import { addEnvironmentOption } from '../../environment.js';
import { addHelpFooter, CONNECTION_VARIABLES, TREE_VARIABLES } from '../../help.js';
import { addLimitOptions, type LimitFlags } from '../../limits.js';
import { addSelectionOptions, type SelectionFlags } from '../../selection.js';
import type { SettingsFlags } from '../../settings.js';
import type { CommandContext } from '../index.js';

export interface PullFlags extends SettingsFlags, LimitFlags, SelectionFlags {
  dryRun: boolean;
  force: boolean;
  prune: boolean;
  base?: string;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('pull')
    .description("bring the live workspace's differences into the tree, in place (comments, anchors, placeholders kept)")
    .argument('[dir]', 'directory of resource files', '.')
    .option('--dry-run', 'print the file diff it would write; write nothing', false)
    .option('--force', 'write files that have uncommitted changes in git', false)
    .option('--prune', 'remove from the files the owned objects deleted in the workspace (without it they are reported)', false)
    .option('--base <ref>', 'the git revision the tree was last merged at: a field changed since is a local edit, never overwritten (default: where HEAD left origin/HEAD, else HEAD)')
    .option('--state-dir <dir>', 'inventory of owned objects (default: DIR/.wsync)')
    .option('--secrets-dir <dir>', 'root for ${file:PATH} secrets (env WSYNC_SECRETS_DIR)');
  addEnvironmentOption(cmd, 'the environment of wsync.yaml the workspace is: its changes go to its variables and its overlays in environments/NAME/ (env WSYNC_ENV); needed when wsync.yaml declares environments');
  addSelectionOptions(cmd, 'pull');
  addConnectionOptions(cmd);
  addTrustConfigOption(cmd);
  addLimitOptions(cmd);
  addHelpFooter(cmd, {
    variables: [...CONNECTION_VARIABLES, ...TREE_VARIABLES, 'WSYNC_STATE_DIR'],
    examples: [
      ['wsync pull --dry-run workspace', 'the diff a pull would write'],
      ['wsync pull workspace && git -C workspace diff', 'edits made in the UI, as a change to review'],
      ['wsync pull --kind Dashboard workspace', 'only the dashboards'],
      ['wsync pull --base origin/main workspace', 'keep the edits of this branch that are not merged and applied yet'],
      ['wsync pull --env prod workspace', "prod's changes into its variables and environments/prod/"],
    ],
  });
  cmd.action(async (dir: string, options: PullFlags) => {
    // Loaded when run: start-up of the other commands never pays for the client and the editor.
    const { runPullCommand } = await import('./action.js');
    context.exit(await runPullCommand(dir, options, context.io));
  });
}
