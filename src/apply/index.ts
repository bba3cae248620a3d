import { formatDiagnostic } from '../core/diagnostics.js';
import { tokenOutputDirOf } from '../state/index.js';
import { ApplyRun } from './run.js';
import { ApplyRefusedError, type ApplyInput, type ApplyResult } from './types.js';

export { ApplyRefusedError, ISSUE_STEPS, type ApplyEvent, type ApplyInput, type ApplyOutcome, type ApplyResult, type IssueStep } from './types.js';
export { formatApplyEvent, formatApplySummary } from './format.js';

/** Why a plan must not be applied at all (its errors); empty when it may. Refused changes are held, not reasons. */
function refusalReasons(plan: ApplyInput['plan']): string[] {
  return plan.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
}

/**
 * Executes a Plan: writes level by level (ascending), then deletes (descending), at most
 * `concurrency` changes at once within a level. A failure does not stop independent changes;
 * the changes that depend on it are skipped. Every confirmed write is recorded in the inventory
 * before the change counts as done. Refused changes (held by a safety rule) are left alone: the
 * planner holds with them every delete that could still be needed by them. Throws
 * ApplyRefusedError, having written nothing, when the plan has errors.
 */
export async function applyPlan(input: ApplyInput): Promise<ApplyResult> {
  const reasons = refusalReasons(input.plan);
  if (reasons.length > 0) throw new ApplyRefusedError(reasons);
  const run = new ApplyRun({ ...input, tokenOutputDir: tokenOutputDirOf(input.state.dir, input.tokenOutputDir) });
  return run.execute();
}
