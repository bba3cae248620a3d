import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createApiClient } from '../../../api/client.js';
import type { ApiClient } from '../../../api/types.js';
import { ConfigError } from '../../../api/errors.js';
import {
  ApplyRefusedError,
  formatApplyEvent,
  formatApplySummary,
  ISSUE_STEPS,
  type ApplyEvent,
  type ApplyResult,
  type IssueStep,
} from '../../../apply/index.js';
import { formatDiagnostic, formatSkip, sortDiagnostics } from '../../../core/diagnostics.js';
import { createRedactor } from '../../../core/redact.js';
import { safeMessage, safeText } from '../../../core/safe-text.js';
import type { Desired, Diagnostic, Plan } from '../../../core/types.js';
import { diffSavedPlan } from '../../../plan/fingerprint.js';
import { reconcile, type ReconcileOutcome } from '../../../reconcile/index.js';
import { appliedRevision, markRevision, touchedDatasets, type MarkSetup } from '../../../reconcile/revision-marks.js';
import { approveCommands } from '../../../render/format.js';
import { parsePlanJson, renderJson, textChunks } from '../../../render/index.js';
import { InventoryFileError, readHeldRecords, recordHeldChanges, StateLockedError } from '../../../state/index.js';
import { errorMessage } from '../../errors.js';
import type { CommandIo } from '../../io.js';
import { treeLimitsOf } from '../../limits.js';
import { PolicyFlagError, policyFromFlags } from '../../policy.js';
import { selectionFromFlags, selectionNote } from '../../selection.js';
import { resolveRevisionMarks } from '../../revision-marks.js';
import { environmentStateDir } from '../../environment.js';
import { resolveSettings } from '../../settings.js';
import type { ApplyFlags } from './command.js';

/** The saved plan no longer matches the files or the workspace: nothing was written. */
class StalePlanError extends Error {
  constructor(
    readonly file: string,
    readonly moved: string[],
  ) {
    super(
      `the saved plan ${file} no longer matches; nothing was written. What moved since it was made:\n` +
        moved.map((line) => `  - ${safeMessage(line)}`).join('\n') +
        '\nRun wsync plan again and review it.',
    );
    this.name = 'StalePlanError';
  }
}

/** `--approve` names held changes other than those the plan holds now: nothing was written. */
class ApprovalVoidError extends Error {
  constructor(
    readonly fingerprint: string,
    readonly why: string,
    readonly now: string | undefined,
  ) {
    super(
      `--approve ${fingerprint} does not approve this plan: ${safeMessage(why)}; nothing was written.` +
        (now === undefined ? ' Run wsync plan again and review it.' : ` Review the plan above; to apply exactly what it holds now: ${approveCommands(now)}`),
    );
    this.name = 'ApprovalVoidError';
  }
}

/** Reads a plan file written by `wsync plan --out`. */
async function readSavedPlan(file: string, cwd: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new Error(`--plan ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(err)}`);
  }
  try {
    return parsePlanJson(text);
  } catch (err) {
    throw new Error(`--plan ${file}: ${errorMessage(err)}; write one with wsync plan --out FILE`);
  }
}

/**
 * SIGINT/SIGTERM stop apply between writes: the writes in flight finish and are recorded, no new
 * ones start. A second signal exits at once (the inventory is consistent after every write).
 */
function stopOnSignals(controller: AbortController, io: CommandIo, say: (line: string) => void): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) io.process?.exit(signal === 'SIGINT' ? 130 : 143);
    say(`apply: ${signal}: finishing the writes in flight, starting no new ones (again to quit now)`);
    controller.abort();
  };
  io.signals.on('SIGINT', onSignal);
  io.signals.on('SIGTERM', onSignal);
  return () => {
    io.signals.off('SIGINT', onSignal);
    io.signals.off('SIGTERM', onSignal);
  };
}

function resultJson(result: ApplyResult | undefined): Record<string, unknown> | undefined {
  if (!result) return undefined;
  return { ...result, durationMs: Math.round(result.durationMs), events: result.events.map((e) => ({ ...e, durationMs: Math.round(e.durationMs) })) };
}

/** `wsync apply DIR`: prints the plan, then each write; returns the exit code. */
export async function runApply(dirArg: string, flags: ApplyFlags, io: CommandIo): Promise<number> {
  const dir = resolve(io.cwd, dirArg);
  const json = flags.format === 'json';
  let redact = (text: string): string => text;
  const out = (text: string): void => {
    io.stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`));
  };
  const err = (text: string): void => {
    io.stderr.write(redact(text.endsWith('\n') ? text : `${text}\n`));
  };

  const controller = new AbortController();
  const stopListening = stopOnSignals(controller, io, err);
  let plan: Plan | undefined;
  try {
    const policy = policyFromFlags(flags);
    const selection = selectionFromFlags(flags);
    if (selection) io.stderr.write(`apply: ${selectionNote(selection)}\n`);
    const saved = flags.plan ? await readSavedPlan(flags.plan, io.cwd) : undefined;
    const { connection, stateDir: configuredStateDir, secretsDir, env, environment } = resolveSettings(dir, flags, io.env);
    const limits = treeLimitsOf(flags, io.env);
    // The process's own environment: wsync.yaml never says where a GitHub token goes.
    const marks = resolveRevisionMarks(flags, io.env, connection.insecure === true);
    const secretsOf = (values: readonly string[]): string[] => [...values, ...(marks?.secrets() ?? [])];
    redact = createRedactor(secretsOf([]));
    const client = createApiClient(connection);
    let outcome: ReconcileOutcome;
    try {
      const stateDir = resolve(io.cwd, configuredStateDir ?? environmentStateDir(join(dir, '.wsync'), environment));
      // What an earlier apply held under this fingerprint: a void approval then names what moved.
      const approvedHeld = flags.approve === undefined ? undefined : (await readHeldRecords(stateDir)).find((h) => h.fingerprint === flags.approve);
      outcome = await reconcile({
        dir,
        ...(environment === undefined ? {} : { environment }),
        secretsDir: secretsDir === undefined ? undefined : resolve(io.cwd, secretsDir),
        limits,
        env,
        client,
        stateDir,
        policy,
        mode: 'apply',
        apiToken: connection.token,
        ...(selection ? { selection } : {}),
        concurrency: flags.concurrency,
        tokenOutputDir: flags.tokenOutputDir === undefined ? undefined : resolve(io.cwd, flags.tokenOutputDir),
        signal: controller.signal,
        ...(flags.approve === undefined ? {} : { approve: flags.approve }),
        ...(approvedHeld === undefined ? {} : { approvedHeld }),
        onIssueStep: crashPointFrom(io),
        warn: (message) => err(`warning: ${message}`),
        onPlan: (made: Plan, desired: Desired) => {
          plan = made;
          redact = createRedactor(secretsOf(desired.secretValues));
          // A stale saved plan stops here, before the new plan could be mistaken for the reviewed one.
          if (saved) {
            const moved = diffSavedPlan(saved, made);
            if (moved.length > 0) throw new StalePlanError(flags.plan ?? '', moved);
          }
          if (!json) {
            const color = flags.color && io.stdout.isTTY === true && !env.NO_COLOR;
            for (const chunk of textChunks(made, { color, verbose: flags.verbose, redact })) if (chunk !== '') out(chunk);
          }
          // An approval of other held changes stops here too: what was approved is not what would be written.
          if (made.approval?.released === false) throw new ApprovalVoidError(made.approval.fingerprint, made.approval.why ?? 'the held changes differ', made.held?.fingerprint);
        },
        onChange: (event: ApplyEvent) => {
          if (!json) out(formatApplyEvent(event));
        },
      });
      redact = createRedactor(secretsOf(outcome.desired.secretValues));
      const held = outcome.status === 'partial' ? outcome.plan?.held : undefined;
      if (held) await recordHeldChanges(stateDir, held).catch((cause: unknown) => err(`warning: could not record the held changes in ${stateDir}: ${errorMessage(cause)}`));
      if (marks) await markApplied(outcome, { dir, flags, env: io.env, marks, client, err });
    } finally {
      await client.close();
      await marks?.close();
    }
    return report(outcome, json, out, err);
  } catch (caught) {
    if (caught instanceof ApprovalVoidError) {
      if (json) out(JSON.stringify({ version: 1, status: 'refused', reasons: [caught.why], plan: plan ? (JSON.parse(renderJson(plan)) as unknown) : undefined }, null, 2));
      err(`apply: ${caught.message}`);
      return 1;
    }
    if (caught instanceof StalePlanError || caught instanceof ApplyRefusedError) {
      if (json) out(JSON.stringify({ version: 1, status: 'refused', reasons: caught instanceof StalePlanError ? caught.moved : caught.reasons }, null, 2));
      err(`apply: ${caught.message}`);
      return 1;
    }
    if (
      caught instanceof ConfigError ||
      caught instanceof PolicyFlagError ||
      caught instanceof StateLockedError ||
      caught instanceof InventoryFileError
    ) {
      err(`apply: ${errorMessage(caught)}`);
      return 1;
    }
    err(`apply: ${errorMessage(caught)}${plan ? '' : '; nothing was written'}`);
    return 1;
  } finally {
    stopListening();
  }
}

/** The marks of the applied revision the flags ask for (an annotation, a commit status); a failure is a warning. */
async function markApplied(
  outcome: ReconcileOutcome,
  context: { dir: string; flags: ApplyFlags; env: Record<string, string | undefined>; marks: MarkSetup; client: ApiClient; err: (text: string) => void },
): Promise<void> {
  const revision = await appliedRevision(context.dir, context.flags.revision ?? context.env.WSYNC_REVISION);
  const made = await markRevision({
    outcome,
    datasets: touchedDatasets(outcome),
    revision,
    marks: context.marks.marks,
    client: context.client,
    now: new Date(),
    warn: (message) => context.err(`warning: ${message}`),
  });
  const name = revision.commit?.slice(0, 12) ?? revision.label ?? 'the revision';
  if (made.annotation !== undefined) context.err(`apply: annotated ${name} on the datasets written (annotation ${made.annotation})`);
  if (made.status !== undefined) context.err(`apply: commit status ${made.status} set on ${name}`);
}

function printDiagnostics(list: readonly Diagnostic[], err: (text: string) => void): void {
  for (const d of sortDiagnostics(list)) err(formatDiagnostic(d));
}

/** ` (environment prod)` after the summary of an apply of a tree with environments. */
function environmentNote(outcome: ReconcileOutcome): string {
  const environment = outcome.desired.environment;
  return environment === undefined ? '' : ` (environment ${safeText(environment)})`;
}

function report(outcome: ReconcileOutcome, json: boolean, out: (t: string) => void, err: (t: string) => void): number {
  const { status, plan, result } = outcome;
  if (json) {
    out(
      JSON.stringify(
        {
          version: 1,
          status,
          diagnostics: sortDiagnostics(outcome.diagnostics),
          plan: plan ? (JSON.parse(renderJson(plan)) as unknown) : undefined,
          result: resultJson(result),
        },
        null,
        2,
      ),
    );
  }
  switch (status) {
    case 'invalid':
      printDiagnostics(outcome.diagnostics, err);
      err('apply: the files do not validate; nothing was read from the API, nothing was written');
      return 1;
    case 'unappliable':
      printDiagnostics(outcome.diagnostics.filter((d) => d.severity === 'error'), err);
      err('apply: the plan has errors; nothing was written');
      return 1;
    case 'refused':
      for (const reason of plan?.refusals ?? []) err(`refused: ${safeMessage(reason)}`);
      // Changes refused on their own (not by a whole-plan rule the lines above already explain).
      for (const change of plan?.refusals.length ? [] : (plan?.changes.filter((c) => c.action === 'refused') ?? [])) {
        err(`refused: ${change.kind}/${safeText(change.key)}: ${safeMessage(change.reason ?? 'refused')}`);
      }
      err('apply: the plan was refused as a whole; nothing was written');
      return 1;
    default:
      break;
  }
  printDiagnostics(outcome.diagnostics.filter((d) => d.severity === 'warning'), err);
  if (!json) for (const skip of outcome.desired.skips ?? []) err(formatSkip(skip));
  if (!result) {
    if (!json) out(`Apply complete${environmentNote(outcome)}: nothing to do`);
    return 0;
  }
  if (!json) out(`${formatApplySummary(result)}${environmentNote(outcome)}`);
  if (result.failed > 0 || result.aborted) return 1;
  if (status === 'partial') {
    reportHeld(plan, err);
    return EXIT_PARTIAL;
  }
  // A write skipped because someone saved the object meanwhile (a dashboard in the UI): the files
  // are not in effect yet, and a script must not take the run for a converge.
  const stale = result.events.filter((event) => event.stale).length;
  if (stale === 0) return 0;
  err(`apply: partially applied: ${stale} write${stale === 1 ? '' : 's'} skipped, the object changed in the workspace since the plan (exit ${EXIT_PARTIAL})`);
  return EXIT_PARTIAL;
}

/** Exit code of an apply that applied what it could and held changes a safety rule refused, or skipped a stale write. */
export const EXIT_PARTIAL = 3;

/** The held changes and the rules that hold them, on stderr. */
function reportHeld(plan: Plan | undefined, err: (t: string) => void): void {
  const held = plan?.changes.filter((c) => c.action === 'refused') ?? [];
  for (const reason of plan?.refusals ?? []) err(`held: ${safeMessage(reason)}`);
  for (const change of held) err(`held: ${change.kind}/${safeText(change.key)}: ${safeMessage(change.reason ?? 'held')}`);
  err(`apply: partially applied: the rest of the plan was applied, ${held.length} change${held.length === 1 ? '' : 's'} held (exit ${EXIT_PARTIAL})`);
  // Exactly these, as the plan read them: a different set, or a held object changed since, voids it.
  if (plan?.held) err(`apply: fingerprint of the held changes: ${plan.held.fingerprint}; to apply exactly them (same flags): ${approveCommands(plan.held.fingerprint)}`);
}

/**
 * `WSYNC_TEST_CRASH_AT=<step>` kills the process (SIGKILL: no clean-up runs) when saving a token's
 * secret reaches that step: the tests prove a crash there loses no secret and duplicates no token.
 */
function crashPointFrom(io: CommandIo): ((step: IssueStep) => void) | undefined {
  const at = io.env.WSYNC_TEST_CRASH_AT;
  if (at === undefined || !(ISSUE_STEPS as readonly string[]).includes(at)) return undefined;
  const owner = io.process;
  if (owner === undefined) throw new Error('WSYNC_TEST_CRASH_AT kills the process: run apply as a process to use it');
  return (step) => {
    if (step === at) owner.kill(owner.pid, 'SIGKILL');
  };
}
