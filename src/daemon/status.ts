import type { Action, KindName } from '../core/types.js';
import type { PendingApproval } from './approvals.js';
import type { Trigger } from './scheduler.js';

/** How a reconcile ended: the reconcile statuses plus the daemon's own two. */
export type ReconcileResult =
  | 'applied'
  | 'planned'
  | 'failed'
  | 'invalid'
  | 'unappliable'
  | 'refused'
  /** Applied all but the changes a safety rule holds: "degraded: N held" until they are approved or gone. */
  | 'partial'
  | 'stopped'
  /** The link moved while the files were read: nothing written, the new revision is reconciled next. */
  | 'superseded'
  /** DIR (or the link's target) does not exist yet: nothing read, nothing written. */
  | 'missing'
  /** An exception: the API unreachable, the state locked, a bug. */
  | 'error';

export const SUCCESS_RESULTS: ReadonlySet<ReconcileResult> = new Set(['applied', 'planned']);

export interface ReconcileRecord {
  /** ISO time the reconcile started. */
  startedAt: string;
  trigger: Trigger;
  revision: string | null;
  result: ReconcileResult;
  durationMs: number;
  created: number;
  /** Updated or adopted. */
  updated: number;
  deleted: number;
  failed: number;
  /** Changes the plan found (objects whose live state differed from the files). */
  drift: number;
  /** First error, redacted; for failed reconciles. */
  message?: string;
  /** Ran while suspended: planned only. */
  suspended?: boolean;
  /** Ran inside a freeze window (and was not told to override it): planned only. */
  frozen?: boolean;
}

/** The freeze windows, and the one now falls in (ISO times). */
export interface FreezeStatus {
  windows: string[];
  active: { window: string; since: string; until: string } | null;
}

/** The record of a reconcile that starts now: an error until it says otherwise. */
export function startedRecord(trigger: Trigger, startedMs: number): ReconcileRecord {
  const at = new Date(startedMs).toISOString();
  return { startedAt: at, trigger, revision: null, result: 'error', durationMs: 0, created: 0, updated: 0, deleted: 0, failed: 0, drift: 0 };
}

export interface DriftItem {
  kind: KindName;
  key: string;
  action: Action;
  reason?: string;
}

export const HISTORY_SIZE = 20;

/** What the status page and /readyz show; mutated by the daemon after each reconcile. */
export class DaemonStatus {
  readonly startedAt = new Date().toISOString();
  ready = false;
  revision: string | null = null;
  lastSuccessAt: string | null = null;
  /** Since when reconciles only plan and report (wsync ctl suspend); null while not suspended. */
  suspendedSince: string | null = null;
  /** Drift left after the last reconcile that made a plan. */
  pendingDrift: DriftItem[] = [];
  /** Changes the last plan holds by a safety rule (its refused changes): the daemon is degraded while any is. */
  held: DriftItem[] = [];
  /** The fingerprint that approves exactly the held changes (`wsync ctl approve`). */
  heldFingerprint: string | undefined = undefined;
  /** An approval waiting for the reconcile that writes with it. */
  approval: PendingApproval | null = null;
  /** Freeze windows (null: none configured). */
  freeze: FreezeStatus | null = null;

  /** `degraded: 2 held`, or undefined while nothing is held. */
  get degraded(): string | undefined {
    return this.held.length === 0 ? undefined : `degraded: ${this.held.length} held`;
  }
  history: ReconcileRecord[] = [];

  record(entry: ReconcileRecord): void {
    this.history.unshift(entry);
    if (this.history.length > HISTORY_SIZE) this.history.length = HISTORY_SIZE;
  }

  get last(): ReconcileRecord | undefined {
    return this.history[0];
  }
}
