// The effectful shell of `wsync export`: read the live workspace, turn it into files (pure), write
// the tree atomically, optionally adopt what was written, print the variables to set.
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { connectionFlagsOf } from '../cli/settings.js';
import { createApiClient } from '../api/client.js';
import { resolveConnection, type ConnectionFlags } from '../api/connection.js';
import { createRedactor } from '../core/redact.js';
import { safeMessage } from '../core/safe-text.js';
import { TRUST_ON_FIRST_USE } from '../core/secret-hash.js';
import type { KindName } from '../core/types.js';
import { KIND_NAMES, KINDS, parseKindName } from '../kinds/index.js';
import { isPerDataset, readLive, type LiveScope } from '../live/index.js';
import { loadSchemas } from '../source/schema-files.js';
import { openState } from '../state/index.js';
import { schemaDir } from '../util/package-root.js';
import type { SchemaSet } from './schema-order.js';
import { exportWorkspace, type ExportResult } from './workspace.js';
import { writeTree } from './write-tree.js';

export interface ExportFlags extends ConnectionFlags {
  out?: string;
  kinds?: string;
  force?: boolean;
  adopt?: boolean;
  stateDir?: string;
  schemaBase?: string;
}

export class ExportUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportUsageError';
  }
}

/** `--kinds Monitor,notifiers,...` -> kinds in dependency order; absent: every kind. */
export function parseKinds(text: string | undefined): KindName[] {
  if (text === undefined || text.trim() === '') return [...KIND_NAMES];
  const wanted = new Set<KindName>();
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const kind = parseKindName(part);
    if (kind === undefined) {
      throw new ExportUsageError(`--kinds: unknown kind "${part.trim()}" (kinds: ${KIND_NAMES.join(', ')})`);
    }
    wanted.add(kind);
  }
  if (wanted.size === 0) throw new ExportUsageError('--kinds: name at least one kind');
  return KIND_NAMES.filter((kind) => wanted.has(kind));
}

/** The kinds to list: the exported ones and those they point at by id (whose names the files use). */
export function readScope(kinds: readonly KindName[]): LiveScope {
  const read = new Set<KindName>(kinds);
  for (const kind of kinds) for (const ref of KINDS[kind].references) read.add(ref.target);
  const ordered = KIND_NAMES.filter((kind) => read.has(kind));
  const perDataset = ordered.filter(isPerDataset);
  // Per-dataset kinds are read for every dataset GET /v2/datasets lists.
  const scope: LiveScope = { kinds: ordered, datasets: {} };
  for (const kind of perDataset) scope.datasets[kind] = [];
  if (perDataset.length > 0) scope.allDatasets = perDataset;
  return scope;
}

function isUrl(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) && !/^[A-Za-z]:[\\/]/.test(text);
}

/** The `$schema` base as exportWorkspace wants it: a URL, or the schemas folder relative to `out`. */
export function schemaBaseFor(out: string, flag: string | undefined, installed: string): string {
  if (flag !== undefined && isUrl(flag)) return flag;
  const target = flag === undefined ? installed : resolve(flag);
  const rel = relative(resolve(out), target);
  // Another drive (Windows): only an absolute reference can reach it.
  if (isAbsolute(rel)) return target.split(sep).join('/');
  return rel === '' ? '.' : rel.split(sep).join('/');
}

function summary(result: ExportResult): string {
  const counts = new Map<KindName, number>();
  for (const object of result.objects) counts.set(object.kind, (counts.get(object.kind) ?? 0) + 1);
  const parts = KIND_NAMES.filter((kind) => counts.has(kind)).map((kind) => `${kind} ${counts.get(kind) ?? 0}`);
  const total = result.objects.length;
  return `${total} object${total === 1 ? '' : 's'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

export async function runExport(dirArg: string | undefined, raw: Record<string, unknown>): Promise<number> {
  const flags = raw as ExportFlags;
  let redact = (text: string): string => text;
  const fail = (message: string): number => {
    process.stderr.write(`export: ${redact(message)}\n`);
    return 1;
  };
  try {
    if (dirArg !== undefined && flags.out !== undefined && resolve(dirArg) !== resolve(flags.out)) {
      throw new ExportUsageError(`two output directories given (${dirArg} and --out ${flags.out}); name one`);
    }
    const outArg = flags.out ?? dirArg;
    if (outArg === undefined || outArg.trim() === '') throw new ExportUsageError('name the output directory with --out DIR');
    const out = resolve(outArg);
    const kinds = parseKinds(flags.kinds);
    const connection = resolveConnection(connectionFlagsOf(flags), process.env);
    const client = createApiClient(connection);
    let result: ExportResult;
    try {
      const live = await readLive(client, readScope(kinds));
      result = exportWorkspace(live, {
        kinds,
        schemas: Object.fromEntries(loadSchemas()) as SchemaSet,
        schemaBase: schemaBaseFor(out, flags.schemaBase, schemaDir()),
      });
    } finally {
      await client.close();
    }
    redact = createRedactor(result.secretValues);

    await writeTree(out, result.files, { force: flags.force === true, folders: kinds.map((kind) => KINDS[kind].plural) });
    for (const warning of result.warnings) process.stderr.write(`warning: ${safeMessage(redact(warning))}\n`);

    process.stdout.write(`Exported ${summary(result)} to ${outArg}\n`);

    if (flags.adopt === true) {
      const stateDir = resolve(flags.stateDir ?? join(out, '.wsync'));
      const state = await openState(stateDir, {
        lock: true,
        warn: (message) => process.stderr.write(`warning: ${safeMessage(redact(message))}\n`),
      });
      try {
        // Secret hashes stay empty: the values are not known until the next apply writes them.
        // Records made together share one write of the inventory.
        const adopted = result.objects.filter((object) => !object.renamed);
        await Promise.all(
          adopted.map((object) =>
            state.record({
              kind: object.kind,
              key: object.key,
              id: object.id,
              ...(object.unreadSecrets.length > 0
                ? { secretHashes: Object.fromEntries(object.unreadSecrets.map((pointer) => [pointer, TRUST_ON_FIRST_USE])) }
                : {}),
            }),
          ),
        );
      } finally {
        await state.close();
      }
      const skipped = result.objects.filter((o) => o.renamed).length;
      const note = skipped > 0 ? ` (${skipped} renamed duplicates not adopted)` : '';
      process.stdout.write(`Adopted ${result.objects.length - skipped} objects in ${stateDir}${note}\n`);
    }
    if (result.variables.length > 0) {
      process.stdout.write('Set these environment variables before plan/apply:\n');
      for (const name of result.variables) process.stdout.write(`${name}\n`);
    }
    return 0;
  } catch (err) {
    // ConfigError, ExportUsageError, ExportTargetError, ApiError: their messages are written for the user.
    return fail(err instanceof Error ? err.message : String(err));
  }
}
