import { addEnvironmentOption } from '../../environment.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseHeldFingerprint } from '../../../core/held-fingerprint.js';
import { addConnectionOptions, addTrustConfigOption } from '../../connection.js';
import { addHelpFooter, CONNECTION_VARIABLES, TREE_VARIABLES } from '../../help.js';
import { addLimitOptions, type LimitFlags } from '../../limits.js';
import { addPolicyOptions, type PolicyFlags } from '../../policy.js';
import { addRevisionMarkOptions, REVISION_MARK_VARIABLES, type RevisionMarkFlags } from '../../revision-mark-options.js';
import { addSelectionOptions, type SelectionFlags } from '../../selection.js';
import type { CommandContext } from '../index.js';
import type { SettingsFlags } from '../../settings.js';

export interface ApplyFlags extends PolicyFlags, SettingsFlags, LimitFlags, SelectionFlags, RevisionMarkFlags {
  tokenOutputDir?: string;
  concurrency: number;
  plan?: string;
  approve?: string;
  format: 'text' | 'json';
  color: boolean;
  verbose: boolean;
}

function heldFingerprint(value: string): string {
  try {
    return parseHeldFingerprint(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function concurrency(value: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError(`expected an integer from 1 to 64, got "${value}"`);
  return n;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('apply')
    .description('plan, then converge the workspace with POST/PUT/DELETE; non-interactive')
    .argument('[dir]', 'directory of resource files', '.')
    .option('--state-dir <dir>', 'inventory of owned objects, locked while apply runs (default: DIR/.wsync)')
    .option('--secrets-dir <dir>', 'root for ${file:PATH} secrets (env WSYNC_SECRETS_DIR)')
    .option('--token-output-dir <dir>', 'where API token secrets are written, mode 0600 (default: STATE_DIR/tokens)')
    .option('--concurrency <n>', 'changes written at once within a dependency level', concurrency, 4)
    .option('--plan <file>', 'apply only if this saved plan (wsync plan --out) still matches the files and the workspace')
    .option('--approve <fingerprint>', 'let exactly the held changes with this fingerprint through (a plan prints it); nothing is written if they differ', heldFingerprint)
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'no ANSI colours, even on a terminal')
    .option('--verbose', 'list unchanged objects in the plan too', false);
  addConnectionOptions(cmd);
  addTrustConfigOption(cmd);
  addEnvironmentOption(cmd);
  addPolicyOptions(cmd);
  addSelectionOptions(cmd);
  addLimitOptions(cmd);
  addRevisionMarkOptions(cmd, { revision: true });
  addHelpFooter(cmd, {
    variables: [...CONNECTION_VARIABLES, ...TREE_VARIABLES, 'WSYNC_STATE_DIR', ...REVISION_MARK_VARIABLES, 'WSYNC_REVISION'],
    examples: [
      ['wsync apply workspace', 'make the workspace equal to the files (deletes nothing)'],
      ['wsync apply --plan plan.json workspace', 'apply a reviewed plan, only if nothing it was made from has moved'],
      ['wsync apply --prune workspace', 'also delete the objects wsync owns that the files no longer declare'],
      ['wsync apply --prune --approve held-0123456789ab-cdef01234567 workspace', 'also apply the changes a safety rule held, exactly those the plan printed'],
      ['wsync apply --kinds Monitor,Notifier workspace', 'only these kinds (nothing is pruned)'],
      ['WSYNC_GITHUB_REPOSITORY=acme/workspace wsync apply --annotate --commit-status workspace', 'mark the applied commit on the datasets written and on GitHub'],
    ],
  });
  cmd.action(async (dir: string, options: ApplyFlags) => {
    // Loaded when run: start-up of the other commands never pays for the client and apply.
    const { runApply } = await import('./action.js');
    context.exit(await runApply(dir, options, context.io));
  });
}
