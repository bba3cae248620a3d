import { Option, type Command } from 'commander';
import { addEnvironmentOption, type EnvironmentFlags } from '../../environment.js';
import { addHelpFooter, TREE_VARIABLES } from '../../help.js';
import { addLimitOptions, type LimitFlags } from '../../limits.js';
import type { CommandContext } from '../index.js';

export interface ValidateFlags extends LimitFlags, EnvironmentFlags {
  format: 'text' | 'json';
  secretsDir?: string;
  secretsAsWritten?: boolean;
  quiet?: boolean;
  strict?: boolean;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('validate')
    .description('parse, schema-check and reference-check every resource file; no network')
    .argument('[paths...]', 'directories of resource files (each with its wsync.yaml), or single files (default: ".")')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--secrets-dir <dir>', 'directory that ${file:PATH} reads from (default: $WSYNC_SECRETS_DIR)')
    .option('--secrets-as-written', 'check ${env:} and ${file:} references as written and read none (a run without the secrets, e.g. a pull request from a fork)')
    .option('-q, --quiet', 'print errors only')
    .option('--strict', 'warnings are errors: a reference to a name the tree does not declare (it must exist live) fails the check');
  addEnvironmentOption(cmd, 'check only this environment of wsync.yaml (env WSYNC_ENV); without it, a tree with environments is checked in every one');
  addLimitOptions(cmd);
  addHelpFooter(cmd, {
    variables: TREE_VARIABLES,
    examples: [
      ['wsync validate', 'check the tree in the current directory'],
      ['wsync validate monitors/checkout.yaml dashboards/checkout.yaml', 'check the files a commit changes (a pre-commit hook)'],
      ['wsync validate --secrets-as-written --format json workspace', 'in a pull request from a fork, without the secrets; JSON for a bot'],
      ['wsync validate --strict workspace', 'also fail on warnings (a tree that must declare everything it names)'],
      ['wsync validate --env prod workspace', 'check only the prod environment of a tree with environments'],
    ],
  });
  cmd.action(async (paths: string[], options: ValidateFlags) => {
    // Loaded here, not at start-up: the other commands never pay for yaml and ajv.
    const { validateCommand } = await import('./action.js');
    context.exit(await validateCommand(paths, options, context.io));
  });
}
