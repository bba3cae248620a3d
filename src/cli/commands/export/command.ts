import type { Command } from 'commander';
import { addConnectionOptions, type ConnectionFlags } from '../../connection.js';

export interface ExportFlags extends ConnectionFlags {
  out?: string;
  kinds?: string;
  force?: boolean;
  adopt?: boolean;
  stateDir?: string;
  schemaBase?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('export')
    .description('write the live workspace as resource files that plan then reports as "no changes"')
    .argument('[dir]', 'output directory (same as --out)')
    .option('--out <dir>', 'output directory; must be empty or absent unless --force')
    .option('--kinds <list>', 'comma-separated kinds to export, e.g. Monitor,Notifier (default: every kind)')
    .option('--force', 'write into a non-empty directory, replacing the folders of the exported kinds', false)
    .option('--adopt', 'record the exported objects in the inventory as owned by wsync (the default)')
    .option('--no-adopt', 'leave the inventory alone: the next plan shows each exported object as "adopt"')
    .option('--state-dir <dir>', 'the inventory the exported objects are recorded in (default: OUT/.wsync, where plan looks)')
    .option('--schema-base <url|path>', 'where the files\' $schema lines point (default: the schemas, written to OUT/.schemas)');
  addConnectionOptions(cmd);
  cmd.action(async (dir: string | undefined, options: ExportFlags) => {
    // Loaded when run: start-up of the other commands never pays for the client and the exporter.
    const { runExport } = await import('./action.js');
    process.exitCode = await runExport(dir, options);
  });
}
