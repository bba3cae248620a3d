import type { Command } from 'commander';
import { addConnectionOptions, type ConnectionFlags } from '../../connection.js';
import { addEnvironmentOption, type EnvironmentFlags } from '../../environment.js';
import { addHelpFooter, CONNECTION_VARIABLES } from '../../help.js';
import { collect } from '../../policy.js';
import type { CommandContext } from '../index.js';

export interface ExportFlags extends ConnectionFlags, EnvironmentFlags {
  out?: string;
  kind?: string[];
  force?: boolean;
  adopt?: boolean;
  stateDir?: string;
  schemaBase?: string;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('export')
    .description('write the live workspace as resource files that plan then reports as "no changes"')
    .argument('[dir]', 'output directory (same as --out)')
    .option('--out <dir>', 'output directory; must be empty or absent unless --force')
    .option('--kind <KIND>', 'export only the objects of this kind; repeatable (--kinds A,B too; default: every kind)', collect)
    .option('--force', 'write into a non-empty directory, replacing the folders of the exported kinds', false)
    .option('--adopt', 'record the exported objects in the inventory as owned by wsync (the default)')
    .option('--no-adopt', 'leave the inventory alone: the next plan shows each exported object as "adopt"')
    .option('--state-dir <dir>', 'the inventory the exported objects are recorded in (default: OUT/.wsync, where plan looks)')
    .option('--schema-base <url|path>', 'where the files\' $schema lines point (default: the schemas, written to OUT/.schemas)');
  addConnectionOptions(cmd);
  addEnvironmentOption(cmd, 'the environment of the tree this workspace is (env WSYNC_ENV): the exported objects are adopted into OUT/.wsync/NAME, where plan --env NAME looks');
  addHelpFooter(cmd, {
    variables: [...CONNECTION_VARIABLES.filter((name) => name !== 'WSYNC_TRUST_CONFIG'), 'WSYNC_ENV'],
    examples: [
      ['wsync export --out workspace', 'start a tree from the workspace as it is'],
      ['wsync export --kind Dashboard --force workspace', 'bring dashboards edited in the UI back into the tree'],
      ['wsync export --kinds Monitor,Notifier --no-adopt --out review', 'a copy to look at, leaving ownership alone'],
    ],
  });
  cmd.action(async (dir: string | undefined, options: ExportFlags) => {
    // Loaded when run: start-up of the other commands never pays for the client and the exporter.
    const { runExport } = await import('./action.js');
    context.exit(await runExport(dir, options, context.io));
  });
}
