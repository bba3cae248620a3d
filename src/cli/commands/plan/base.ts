// `plan --base REF` / `--base-dir DIR`: the files of the base of the change, for the planner to see
// what the change removes. Their problems are warnings: the base is what is deployed already.
import { resolve } from 'node:path';
import { formatDiagnostic } from '../../../core/diagnostics.js';
import type { Desired } from '../../../core/types.js';
import { BaseTreeError, readBaseDir, readGitBase } from '../../../source/read/base-tree.js';
import type { ReadOptions } from '../../../source/index.js';
import type { TreeLimits } from '../../../source/limits.js';
import type { CommandIo } from '../../io.js';
import type { PlanFlags } from './command.js';

export async function readBase(
  dir: string,
  flags: Pick<PlanFlags, 'base' | 'baseDir'>,
  limits: Partial<TreeLimits>,
  io: Pick<CommandIo, 'stderr' | 'cwd'>,
  environment?: string,
): Promise<{ label: string; desired: Desired } | undefined> {
  if (flags.base !== undefined && flags.baseDir !== undefined) throw new BaseTreeError('use either --base or --base-dir, not both');
  const read = async (options: ReadOptions): Promise<Desired> =>
    flags.base !== undefined ? readGitBase(dir, flags.base, options) : readBaseDir(resolve(io.cwd, flags.baseDir ?? ''), options);
  if (flags.base === undefined && flags.baseDir === undefined) return undefined;
  const label = `the base (${flags.base ?? flags.baseDir ?? ''})`;
  let desired = await read(environment === undefined ? { limits } : { limits, environment });
  // A base from before the environments (the change that brings them in) is read as it was written.
  if (environment !== undefined && desired.diagnostics.some((d) => d.code === 'environment' && d.severity === 'error')) desired = await read({ limits });
  const base = { label, desired };
  const unreadable = base.desired.diagnostics.find((d) => d.code === 'dir');
  if (unreadable) throw new BaseTreeError(`--base-dir: ${unreadable.message}`);
  const errors = base.desired.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    io.stderr.write(`plan: warning: the files of ${base.label} do not all validate; what they declare is still read:\n`);
    for (const d of errors.slice(0, 5)) io.stderr.write(`  ${formatDiagnostic(d)}\n`);
  }
  return base;
}
