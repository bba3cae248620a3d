import type { ApplyResult } from '../apply/index.js';
import { changeRef, type Change, type Plan } from '../core/types.js';
import type { DriftItem } from './status.js';

/**
 * A change that says the workspace differs from the files. In observe mode nothing is written, and
 * the planner marks what it would have written as skipped, with its diffs: that is drift too. A
 * skipped change with nothing to show (a dependency that failed) is not.
 */
export function isDrift(change: Change): boolean {
  if (change.action === 'noop') return false;
  if (change.action === 'skipped') return change.diffs.length > 0;
  return true;
}

export function driftOf(plan: Plan): Change[] {
  return plan.changes.filter(isDrift);
}

/**
 * What still differs after a reconcile: the plan's drift minus what apply did. Keys and reasons
 * go through `redact` (a name may hold an interpolated secret): the status page, /status, the
 * metrics and the notifications all show these items.
 */
export function pendingDrift(plan: Plan, result: ApplyResult | undefined, redact: (text: string) => string): DriftItem[] {
  const done = new Set((result?.events ?? []).filter((e) => e.outcome === 'done').map((e) => changeRef(e.kind, e.key)));
  return driftOf(plan)
    .filter((c) => !done.has(changeRef(c.kind, c.key)))
    .map((c) => {
      const item: DriftItem = { kind: c.kind, key: redact(c.key), action: c.action };
      if (c.reason !== undefined) item.reason = redact(c.reason);
      return item;
    });
}

/** The changes a safety rule holds (the plan's refused changes), as the status lists them. */
export function heldOf(plan: Plan): DriftItem[] {
  return plan.changes
    .filter((c) => c.action === 'refused')
    .map((c) => ({ kind: c.kind, key: c.key, action: c.action, ...(c.reason === undefined ? {} : { reason: c.reason }) }));
}

export function countByKind(items: readonly { kind: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  return counts;
}

export interface ChangeCounts {
  created: number;
  updated: number;
  deleted: number;
  replaced: number;
  adopted: number;
  failed: number;
  skipped: number;
  writes: number;
}

export function changeCounts(result: ApplyResult | undefined): ChangeCounts {
  return {
    created: result?.created ?? 0,
    updated: result?.updated ?? 0,
    deleted: result?.deleted ?? 0,
    replaced: result?.replaced ?? 0,
    adopted: result?.adopted ?? 0,
    failed: result?.failed ?? 0,
    skipped: result?.skipped ?? 0,
    writes: result?.writes ?? 0,
  };
}
