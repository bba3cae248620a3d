import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createApiClient } from '../../../api/client.js';
import { ConfigError } from '../../../api/errors.js';
import { BaseTreeError } from '../../../source/read/base-tree.js';
import { formatDiagnostic, formatSkip, sortDiagnostics } from '../../../core/diagnostics.js';
import { PhaseTimes } from '../../../core/phase-times.js';
import { createRedactor } from '../../../core/redact.js';
import type { Plan } from '../../../core/types.js';
import { reconcile, type ReconcileInput } from '../../../reconcile/index.js';
import { hasWrites, jsonChunks, markdownChunks, textChunks } from '../../../render/index.js';
import { errorMessage } from '../../errors.js';
import { writeChunks, type CommandIo } from '../../io.js';
import { treeLimitsOf } from '../../limits.js';
import { PolicyFlagError, policyFromFlags } from '../../policy.js';
import { selectionFromFlags, selectionNote } from '../../selection.js';
import { environmentStateDir } from '../../environment.js';
import { resolveSettings } from '../../settings.js';
import { readBase } from './base.js';
import type { PlanFlags } from './command.js';

/** `wsync plan DIR`: prints the plan; returns the exit code (2 for changes with --detailed-exitcode). */
export async function runPlan(dirArg: string, flags: PlanFlags, io: CommandIo): Promise<number> {
  const dir = resolve(io.cwd, dirArg);
  let redact = (text: string): string => text;
  try {
    const policy = policyFromFlags(flags);
    const selection = selectionFromFlags(flags);
    if (selection) io.stderr.write(`plan: ${selectionNote(selection)}\n`);
    const { connection, stateDir, secretsDir, env, environment } = resolveSettings(dir, flags, io.env);
    const limits = treeLimitsOf(flags, io.env);
    const base = await readBase(dir, flags, limits, io, environment);
    const client = createApiClient(connection);
    const phases = new PhaseTimes();
    try {
      const outcome = await reconcile({
        phases,
        dir,
        secretsDir: secretsDir === undefined ? undefined : resolve(io.cwd, secretsDir),
        limits,
        env,
        client,
        stateDir: resolve(io.cwd, stateDir ?? environmentStateDir(join(dir, '.wsync'), environment)),
        ...(environment === undefined ? {} : { environment }),
        policy,
        mode: 'plan',
        apiToken: connection.token,
        tokenOutputDir: flags.tokenOutputDir === undefined ? undefined : resolve(io.cwd, flags.tokenOutputDir),
        warn: (message) => io.stderr.write(`warning: ${redact(message)}\n`),
        ...(base ? { base } : {}),
        ...(selection ? { selection } : {}),
      } satisfies ReconcileInput);
      redact = createRedactor(outcome.desired.secretValues);

      if (outcome.status === 'invalid') {
        for (const d of sortDiagnostics(outcome.diagnostics)) io.stderr.write(`${redact(formatDiagnostic(d))}\n`);
        io.stderr.write('plan: the files do not validate; nothing was read from the API\n');
        return 1;
      }
      const plan = outcome.plan as Plan;
      const color = flags.color && flags.format === 'text' && io.stdout.isTTY === true && !io.env.NO_COLOR;
      // A piece at a time, each redacted (the renderers end the last one with a line break).
      await phases.measureAsync('render', () => {
        const chunks =
          flags.format === 'json'
            ? jsonChunks(plan)
            : flags.format === 'markdown'
              ? markdownChunks(plan, { redact })
              : textChunks(plan, { color, verbose: flags.verbose, redact });
        return writeChunks(io.stdout, chunks, redact);
      });
      for (const d of sortDiagnostics(outcome.desired.diagnostics)) {
        if (d.severity === 'warning' && flags.format === 'text') io.stderr.write(`${redact(formatDiagnostic(d))}\n`);
      }
      if (flags.format === 'text') for (const skip of outcome.desired.skips ?? []) io.stderr.write(`${redact(formatSkip(skip))}
`);
      if (flags.out) await writePlanFile(resolve(io.cwd, flags.out), jsonChunks(plan, { redact }));
      if (flags.stats) {
        const s = client.stats;
        const byStatus = Object.entries(s.byMethodStatus)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ');
        io.stderr.write(
          `stats: ${s.requests} API requests (${byStatus || 'none'}); ${s.retries} retries; ${s.rateLimited} rate-limited\n`,
        );
        io.stderr.write(`stats: time per phase: ${phases.text()}\n`);
      }
      if (outcome.status !== 'planned') return 1;
      if (flags.detailedExitcode) return hasWrites(plan) ? 2 : 0;
      return 0;
    } finally {
      await client.close();
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof PolicyFlagError || err instanceof BaseTreeError) {
      io.stderr.write(`plan: ${errorMessage(err)}\n`);
      return 1;
    }
    io.stderr.write(`plan: ${redact(errorMessage(err))}\n`);
    return 1;
  }
}

/** The plan file, written a piece at a time (as plan prints it). */
async function writePlanFile(path: string, chunks: Iterable<string>): Promise<void> {
  const file = await open(path, 'w', 0o644);
  try {
    for (const chunk of chunks) await file.write(chunk);
  } finally {
    await file.close();
  }
}
