// `wsync diff A B [DIR]`: both environments rendered from the files (secrets as written: nothing
// secret is read, so nothing secret can be shown) and compared.
import { resolve } from 'node:path';
import { ConfigError } from '../../../api/errors.js';
import { formatDiagnostic, sortDiagnostics } from '../../../core/diagnostics.js';
import { readWorkspaceConfig } from '../../../source/config.js';
import { readDesired } from '../../../source/index.js';
import { diffEnvironments, hasDifferences } from '../../../plan/environment-diff.js';
import { renderEnvironmentDiff } from '../../../render/environment-diff.js';
import { chosenEnvironment } from '../../environment.js';
import type { CommandIo } from '../../io.js';
import { treeLimitsOf } from '../../limits.js';
import type { DiffFlags } from './command.js';

export async function runDiff(a: string, b: string, dirArg: string, flags: DiffFlags, io: CommandIo): Promise<number> {
  const dir = resolve(io.cwd, dirArg);
  const config = readWorkspaceConfig(dir);
  if (config.diagnostics.length > 0) {
    for (const d of config.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
    return 1;
  }
  try {
    for (const name of [a, b]) chosenEnvironment(config.config, name);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr.write(`diff: ${err.message.replace(/^--env /, '')}\n`);
    return 1;
  }
  const limits = treeLimitsOf(flags, io.env);
  const read = (environment: string) => readDesired(dir, { env: io.env, environment, secretsAsWritten: true, limits });
  const [left, right] = [await read(a), await read(b)];
  const errors = sortDiagnostics([...left.diagnostics, ...right.diagnostics].filter((d) => d.severity === 'error'));
  if (errors.length > 0) {
    for (const d of errors) io.stderr.write(`${formatDiagnostic(d)}\n`);
    io.stderr.write('diff: the files do not validate in both environments (wsync validate says the same)\n');
    return 1;
  }
  const diff = diffEnvironments([a, b], left, right);
  io.stdout.write(flags.format === 'json' ? `${JSON.stringify({ version: 1, ...diff }, null, 2)}\n` : renderEnvironmentDiff(diff));
  return flags.detailedExitcode && hasDifferences(diff) ? 2 : 0;
}
