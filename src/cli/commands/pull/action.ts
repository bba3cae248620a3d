// `wsync pull [DIR]`: flags to typed options, then the pull; prints the files changed (or their
// diff with --dry-run) and what was not pulled. Exit 0: the tree says what the workspace holds;
// 3: some differences were reported and left (a conflict, a secret, a value from a variable, an
// edit that could not be made in place, an object deleted in the workspace); 1: refused or failed.
import { join, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { createApiClient } from '../../../api/client.js';
import { formatDiagnostic, sortDiagnostics } from '../../../core/diagnostics.js';
import { createRedactor } from '../../../core/redact.js';
import { runPull, type PullOutcome } from '../../../pull/run.js';
import type { FileChange, PullPlan, ReportKind } from '../../../pull/planner.js';
import { displayStateDir } from '../../../state/index.js';
import { errorMessage } from '../../errors.js';
import type { CommandIo } from '../../io.js';
import { treeLimitsOf } from '../../limits.js';
import { selectionFromFlags, selectionNote } from '../../selection.js';
import { environmentStateDir } from '../../environment.js';
import { resolveSettings } from '../../settings.js';
import type { PullFlags } from './command.js';

/** Reports that leave the tree saying something else than the workspace. */
const LEFT: readonly ReportKind[] = ['secret', 'interpolated', 'variable', 'environment', 'conflict', 'refused', 'deleted', 'ambiguous'];

function patchOf(change: FileChange): string {
  const from = change.before === undefined ? '/dev/null' : `a/${change.path}`;
  const to = change.after === undefined ? '/dev/null' : `b/${change.path}`;
  const patch = createTwoFilesPatch(from, to, change.before ?? '', change.after ?? '', undefined, undefined, { context: 3 });
  // The first line is jsdiff's `Index:`-free header already; git's `diff --git` line helps tools that read it.
  return `diff --git a/${change.path} b/${change.path}\n${patch.replace(/^=+\n/m, '')}`;
}

function mark(change: FileChange): string {
  return change.before === undefined ? 'A' : change.after === undefined ? 'D' : 'M';
}

function printReports(plan: PullPlan, print: (text: string) => void): void {
  const shown = plan.reports.filter((r) => r.what !== 'new');
  if (shown.length === 0) return;
  print('\nNot pulled, or pulled with a note:');
  for (const r of shown) {
    const where = r.file ? ` (${r.file})` : '';
    print(`  ${r.kind}/${r.key}${where}${r.field ? ` ${r.field}` : ''}: ${r.message}`);
  }
}

function printOutcome(outcome: Extract<PullOutcome, { status: 'pulled' | 'dry-run' }>, dirArg: string, stateDir: string, print: (text: string) => void): void {
  const { plan } = outcome;
  if (outcome.status === 'dry-run') {
    for (const change of plan.changes) print(patchOf(change).replace(/\n$/, ''));
  } else {
    for (const change of plan.changes) print(`${mark(change)} ${change.path}`);
  }
  const verb = outcome.status === 'dry-run' ? 'would change' : 'changed';
  const objects = plan.pulled.length + plan.adopt.length;
  print(plan.changes.length === 0 ? `pull: nothing to pull into ${dirArg}` : `pull: ${verb} ${plan.changes.length} file(s) for ${objects} object(s) in ${dirArg}`);
  if (outcome.adopted > 0) print(`Adopted ${outcome.adopted} new object(s): recorded as owned by wsync in ${displayStateDir(stateDir)}`);
  if (plan.variables.length > 0) {
    print('The new files read these environment variables (set them before plan/apply):');
    for (const name of plan.variables) print(`  ${name}`);
  }
  printReports(plan, print);
  if (outcome.unsettled.length > 0) {
    print('\nStill different after the pull (the next plan shows them):');
    for (const line of outcome.unsettled) print(`  ${line}`);
  }
}

export async function runPullCommand(dirArg: string, flags: PullFlags, io: CommandIo): Promise<number> {
  const dir = resolve(io.cwd, dirArg);
  let redact = (text: string): string => text;
  const print = (text: string): void => {
    io.stdout.write(`${redact(text)}\n`);
  };
  try {
    const selection = selectionFromFlags(flags);
    if (selection) io.stderr.write(`pull: ${selectionNote(selection)}\n`);
    const { connection, stateDir: stateFlag, secretsDir, env, environment } = resolveSettings(dir, flags, io.env);
    const stateDir = resolve(io.cwd, stateFlag ?? environmentStateDir(join(dir, '.wsync'), environment));
    const client = createApiClient(connection);
    let outcome: PullOutcome;
    try {
      outcome = await runPull({
        dir,
        client,
        stateDir,
        env,
        ...(secretsDir !== undefined ? { secretsDir: resolve(io.cwd, secretsDir) } : {}),
        limits: treeLimitsOf(flags, io.env),
        ...(selection ? { selection } : {}),
        prune: flags.prune,
        dryRun: flags.dryRun,
        force: flags.force,
        ...(flags.base !== undefined ? { base: flags.base } : {}),
        ...(environment !== undefined ? { environment } : {}),
        warn: (message) => io.stderr.write(`warning: ${redact(message)}\n`),
      });
    } finally {
      await client.close();
    }
    redact = createRedactor(outcome.secretValues);
    if (outcome.status === 'invalid' || outcome.status === 'unpullable') {
      for (const d of sortDiagnostics(outcome.diagnostics).filter((d) => d.severity === 'error')) io.stderr.write(`${redact(formatDiagnostic(d))}\n`);
      io.stderr.write(
        outcome.status === 'invalid'
          ? 'pull: the files do not validate; fix them first (nothing was read from the API, nothing written)\n'
          : 'pull: the pulled files would not validate; nothing was written\n',
      );
      return 1;
    }
    if (outcome.status === 'dirty') {
      io.stderr.write(`pull: these files have uncommitted changes and pull would write them (commit or stash them, or pass --force):\n`);
      for (const file of outcome.files) io.stderr.write(`  ${file}\n`);
      return 1;
    }
    printOutcome(outcome, dirArg, stateDir, print);
    return outcome.plan.reports.some((r) => LEFT.includes(r.what)) ? 3 : 0;
  } catch (err) {
    io.stderr.write(`pull: ${redact(errorMessage(err))}\n`);
    return 1;
  }
}
