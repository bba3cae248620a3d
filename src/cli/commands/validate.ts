import { Option, type Command } from 'commander';
import { addLimitOptions, type LimitFlags } from '../limit-options.js';

export function register(program: Command): void {
  const cmd = program
    .command('validate')
    .description('parse, schema-check and reference-check every resource file; no network')
    .argument('[dir]', 'directory of resource files', '.')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--secrets-dir <dir>', 'directory that ${file:PATH} reads from (default: $WSYNC_SECRETS_DIR)')
    .option('-q, --quiet', 'print errors only');
  addLimitOptions(cmd);
  cmd.action(async (dir: string, options: { format: 'text' | 'json'; secretsDir?: string; quiet?: boolean } & LimitFlags) => {
    // Loaded here, not at start-up: the other commands never pay for yaml and ajv.
    const { runValidate } = await import('../../source/validate-report.js');
    const { treeLimitsOf } = await import('../limit-options.js');
    const { ConfigError } = await import('../../api/errors.js');
    try {
      const result = await runValidate(dir, { ...options, limits: treeLimitsOf(options, process.env) });
      process.stdout.write(result.output);
      process.exitCode = result.exitCode;
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(`validate: ${err.message}\n`);
      process.exitCode = 1;
    }
  });
}
