import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schemas of the resource files (for editors: yaml-language-server)')
    .argument('[kind]', 'a kind (Monitor, monitors, ...) or "envelope"; without it, list them')
    .option('--all', 'print every schema as one JSON object keyed by file name')
    .action(async (kind: string | undefined, options: { all?: boolean }) => {
      const { renderSchemas } = await import('./report.js');
      const result = renderSchemas(kind, options);
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      process.exitCode = result.exitCode;
    });
}
