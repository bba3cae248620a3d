import { Option, type Command } from 'commander';

export function register(program: Command): void {
  program
    .command('validate')
    .description('parse, schema-check and reference-check every resource file; no network')
    .argument('[dir]', 'directory of resource files', '.')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--secrets-dir <dir>', 'directory that ${file:PATH} reads from (default: $WSYNC_SECRETS_DIR)')
    .option('-q, --quiet', 'print errors only')
    .action(async (dir: string, options: { format: 'text' | 'json'; secretsDir?: string; quiet?: boolean }) => {
      // Loaded here, not at start-up: the other commands never pay for yaml and ajv.
      const { runValidate } = await import('../../source/validate-report.js');
      const result = await runValidate(dir, options);
      process.stdout.write(result.output);
      process.exitCode = result.exitCode;
    });
}
