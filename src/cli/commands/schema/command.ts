import type { Command } from 'commander';
import { addHelpFooter } from '../../help.js';
import type { CommandContext } from '../index.js';

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('schema')
    .description('print the JSON Schemas of the resource files (for editors: yaml-language-server)')
    .argument('[kind]', 'a kind (Monitor, monitors, ...) or "envelope"; without it, list them')
    .option('--all', 'print every schema as one JSON object keyed by file name')
    .option('--write <dir>', 'write every schema file into DIR, for `# yaml-language-server: $schema=DIR/monitor.json`')
    .action(async (kind: string | undefined, options: { all?: boolean; write?: string }) => {
      const { renderSchemas, writeSchemaFiles } = await import('./report.js');
      let result;
      if (options.write === undefined) result = renderSchemas(kind, options);
      else if (kind !== undefined || options.all === true) {
        result = { stdout: '', stderr: 'wsync schema: --write writes every schema; give no KIND and no --all with it\n', exitCode: 1 };
      } else result = await writeSchemaFiles(options.write, context.io.cwd);
      context.io.stdout.write(result.stdout);
      context.io.stderr.write(result.stderr);
      context.exit(result.exitCode);
    });
  addHelpFooter(cmd, {
    examples: [
      ['wsync schema', 'list the kinds and their schema files'],
      ['wsync schema --write .schemas', 'copy the schemas into the tree for the editor (# yaml-language-server: $schema=../.schemas/monitor.json)'],
      ['wsync schema Monitor', "print one kind's schema"],
    ],
  });
}
