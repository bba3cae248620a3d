import type { Command } from 'commander';
import { addConnectionOptions } from '../../api/connection.js';

export function register(program: Command): void {
  const cmd = program
    .command('export')
    .description('write the live workspace as resource files that plan then reports as "no changes"')
    .argument('[dir]', 'output directory (same as --out)')
    .option('--out <dir>', 'output directory; must be empty or absent unless --force')
    .option('--kinds <list>', 'comma-separated kinds to export, e.g. Monitor,Notifier (default: every kind)')
    .option('--force', 'write into a non-empty directory, replacing the folders of the exported kinds', false)
    .option('--adopt', 'record the exported objects in the inventory as owned by wsync', false)
    .option('--state-dir <dir>', 'inventory for --adopt (default: OUT/.wsync)')
    .option('--schema-base <url|path>', 'where the files\' $schema lines point (default: the installed schemas/ folder)');
  addConnectionOptions(cmd);
  cmd.action(async (dir: string | undefined, options: Record<string, unknown>) => {
    const { runExport } = await import('../../export/run.js');
    process.exitCode = await runExport(dir, options);
  });
}
