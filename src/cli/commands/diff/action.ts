// `wsync diff A B [DIR]`: both environments rendered from the files (secrets as written: nothing
// secret is read, so nothing secret can be shown) and compared.
import { resolve } from 'node:path';
import { ConfigError } from '../../../api/errors.js';
import { formatDiagnostic, sortDiagnostics } from '../../../core/diagnostics.js';
import { readWorkspaceConfig } from '../../../source/config.js';
import { createApiClient } from '../../../api/client.js';
import type { Desired } from '../../../core/types.js';
import { EXPORT_SCHEMA_FOLDER, exportLive } from '../../../export/live-export.js';
import { desiredFromTexts, readDesired } from '../../../source/index.js';
import { errorMessage } from '../../errors.js';
import { resolveSettings } from '../../settings.js';
import { parseKinds } from '../export/action.js';
import type { RunFlags } from '../run/command.js';
import { environmentView } from '../run/workspaces.js';
import { diffEnvironments, hasDifferences } from '../../../plan/environment-diff.js';
import { renderEnvironmentDiff } from '../../../render/environment-diff.js';
import { chosenEnvironment } from '../../environment.js';
import type { CommandIo } from '../../io.js';
import { treeLimitsOf } from '../../limits.js';
import type { DiffFlags } from './command.js';

/**
 * One environment's live workspace as the files `wsync export` would write for it, read back: so
 * the two sides compare as two trees do (names for ids, secrets as `${env:}` references).
 */
async function readLiveWorkspace(dir: string, environment: string, io: CommandIo): Promise<Desired> {
  const view = environmentView(environment, {} as RunFlags, io.env);
  const { connection } = resolveSettings(dir, view.flags, view.env);
  const client = createApiClient(connection);
  try {
    const exported = await exportLive(client, { out: dir, kinds: parseKinds(undefined), schemaBase: EXPORT_SCHEMA_FOLDER });
    const desired = desiredFromTexts(exported.files.map((file) => ({ path: `${environment}:${file.path}`, text: file.content })), { env: {}, secretsAsWritten: true });
    return { ...desired, environment };
  } finally {
    await client.close();
  }
}

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
  const read = (environment: string): Promise<Desired> =>
    flags.live === true ? readLiveWorkspace(dir, environment, io) : readDesired(dir, { env: io.env, environment, secretsAsWritten: true, limits });
  let left: Desired;
  let right: Desired;
  try {
    [left, right] = [await read(a), await read(b)];
  } catch (err) {
    io.stderr.write(`diff: ${errorMessage(err)}\n`);
    return 1;
  }
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
