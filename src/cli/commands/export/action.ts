// `wsync export [DIR]`: flags to typed options, then read, write, adopt; prints what was written
// and the variables to set.
import { join, resolve } from 'node:path';
import { createApiClient } from '../../../api/client.js';
import { createRedactor } from '../../../core/redact.js';
import { safeMessage } from '../../../core/safe-text.js';
import type { KindName } from '../../../core/types.js';
import { adoptExported, checkWriterLease } from '../../../export/adopt.js';
import { exportLive, writeExport } from '../../../export/live-export.js';
import type { ExportResult } from '../../../export/workspace.js';
import { KIND_NAMES, KINDS, parseKindName } from '../../../kinds/index.js';
import { displayStateDir } from '../../../state/index.js';
import type { CommandIo } from '../../io.js';
import { environmentStateDir } from '../../environment.js';
import { resolveSettings } from '../../settings.js';
import type { ExportFlags } from './command.js';

export class ExportUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportUsageError';
  }
}

/**
 * `--kind Monitor --kind notifiers` (or `--kinds A,B`) -> kinds in dependency order; absent: every
 * kind but those managing a part of another kind's objects (UserRole: the User file says the role
 * too, and a tree declaring both is refused), which are exported only when named.
 */
export function parseKinds(names: readonly string[] | undefined): KindName[] {
  if (names === undefined || names.length === 0) return KIND_NAMES.filter((kind) => KINDS[kind].sameObjectsAs === undefined);
  const wanted = new Set<KindName>();
  for (const part of names) {
    if (part.trim() === '') continue;
    const kind = parseKindName(part);
    if (kind === undefined) {
      throw new ExportUsageError(`--kind: unknown kind "${part.trim()}" (kinds: ${KIND_NAMES.join(', ')})`);
    }
    wanted.add(kind);
  }
  if (wanted.size === 0) throw new ExportUsageError('--kind: name at least one kind');
  return KIND_NAMES.filter((kind) => wanted.has(kind));
}

function summary(result: ExportResult): string {
  const counts = new Map<KindName, number>();
  for (const object of result.objects) counts.set(object.kind, (counts.get(object.kind) ?? 0) + 1);
  const parts = KIND_NAMES.filter((kind) => counts.has(kind)).map((kind) => `${kind} ${counts.get(kind) ?? 0}`);
  const total = result.objects.length;
  return `${total} object${total === 1 ? '' : 's'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

export async function runExport(dirArg: string | undefined, flags: ExportFlags, io: CommandIo): Promise<number> {
  let redact = (text: string): string => text;
  const fail = (message: string): number => {
    io.stderr.write(`export: ${redact(message)}\n`);
    return 1;
  };
  try {
    if (dirArg !== undefined && flags.out !== undefined && resolve(io.cwd, dirArg) !== resolve(io.cwd, flags.out)) {
      throw new ExportUsageError(`two output directories given (${dirArg} and --out ${flags.out}); name one`);
    }
    const outArg = flags.out ?? dirArg;
    if (outArg === undefined || outArg.trim() === '') throw new ExportUsageError('name the output directory with --out DIR');
    const out = resolve(io.cwd, outArg);
    const kinds = parseKinds(flags.kind);
    // DIR is where files go, not a workspace: its wsync.yaml (if any) is not read.
    const settings = resolveSettings(undefined, flags, io.env);
    const adopt = flags.adopt !== false;
    // Where the next `plan OUT` looks by default (or --state-dir / WSYNC_STATE_DIR, which plan reads too).
    // With --env, the objects are adopted into that environment's state (OUT/.wsync/NAME), as plan --env reads it.
    const stateDir = resolve(io.cwd, settings.stateDir ?? environmentStateDir(join(out, '.wsync'), settings.environment));
    const warn = (message: string): void => {
      io.stderr.write(`warning: ${safeMessage(redact(message))}\n`);
    };
    const client = createApiClient(settings.connection);
    let result: ExportResult;
    try {
      result = await exportLive(client, { out, kinds, schemaBase: flags.schemaBase });
      redact = createRedactor(result.secretValues);
      if (adopt) await checkWriterLease(stateDir, client, warn);
    } finally {
      await client.close();
    }

    await writeExport(out, result, { kinds, force: flags.force === true });
    for (const warning of result.warnings) warn(warning);

    io.stdout.write(`Exported ${summary(result)} to ${outArg}\n`);

    if (adopt) {
      const { adopted, skipped } = await adoptExported(stateDir, result, warn);
      const note = skipped > 0 ? ` (${skipped} renamed duplicates not adopted)` : '';
      io.stdout.write(`Adopted ${adopted} objects: recorded as owned by wsync in ${displayStateDir(stateDir)}${note}\n`);
    } else {
      io.stdout.write(`Not adopted (--no-adopt): wsync plan ${outArg} shows each exported object as "adopt"\n`);
    }
    if (result.variables.length > 0) {
      io.stdout.write('Set these environment variables before plan/apply:\n');
      for (const name of result.variables) io.stdout.write(`${name}\n`);
    }
    return 0;
  } catch (err) {
    // ConfigError, ExportUsageError, ExportTargetError, ApiError, WriterLeaseError, StateLockedError: their
    // messages are written for the user.
    return fail(err instanceof Error ? err.message : String(err));
  }
}
