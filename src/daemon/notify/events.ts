// What the daemon tells people about, decided from reconcile outcomes alone (pure: no clock, no I/O).
import { safeText } from '../../core/safe-text.js';
import type { DriftItem, ReconcileResult } from '../status.js';

export const NOTIFICATION_TYPES = ['reconcile.failed', 'plan.refused', 'drift.detected', 'reconcile.recovered'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One reconcile as the dispatcher sees it; every text in it is already redacted and escaped. */
export interface ReconcileReport {
  result: ReconcileResult;
  revision: string | null;
  /** ISO time the reconcile ended. */
  at: string;
  trigger: string;
  /** The first error or refusal. */
  message?: string;
  /** Whole-plan refusals (delete budget, empty set); empty unless result is refused or partial. */
  refusals: string[];
  /** Drift left after the reconcile. */
  drift: DriftItem[];
  /** The daemon reports drift instead of correcting it (--mode observe). Not while suspended: drift is then expected. */
  observing: boolean;
  /** Writes of this reconcile that replaced a version saved outside wsync (a dashboard saved in the UI). */
  overwritten?: OverwrittenItem[];
  /** The fingerprint of the changes the plan holds (`held-SET-OBJECTS`), when it holds any. */
  heldFingerprint?: string;
}

/** An object a reconcile wrote over: its version saved outside wsync is gone. */
export interface OverwrittenItem {
  kind: string;
  key: string;
  id: string;
  /** The live version the write replaced. */
  replacedVersion: number;
  /** The version wsync last wrote or found matching the files. */
  knownVersion: number;
}

export interface NotificationEvent {
  type: NotificationType;
  severity: 'error' | 'warning' | 'info';
  /** One line for people. */
  summary: string;
  at: string;
  revision: string | null;
  result: ReconcileResult;
  message?: string;
  /** Failed reconciles in a row so far (failures), or until the recovery (recovered). */
  failures?: number;
  /** When the problem started. */
  since?: string;
  refusals?: string[];
  drift?: { kind: string; key: string; action: string }[];
  overwritten?: OverwrittenItem[];
  /** What lets exactly the held changes through, for a refusal that holds some. */
  approve?: { fingerprint: string; command: string };
}

/** Results that say nothing about the workspace either way: SIGTERM, a DIR not there yet, a link that moved during the read. */
const NEUTRAL: ReadonlySet<ReconcileResult> = new Set(['stopped', 'missing', 'superseded']);
const SUCCESS: ReadonlySet<ReconcileResult> = new Set(['applied', 'planned']);
const MAX_DRIFT_LISTED = 50;

interface Problem {
  fingerprint: string;
  since: string;
  failures: number;
}

/**
 * A problem is the same problem while its result and message stay the same, so a failure that
 * lasts a hundred reconciles is one event. Numbers are left out of the comparison: a message that
 * quotes a retry delay, a lease's end or a count must not read as a new problem each time.
 */
export function problemFingerprint(result: ReconcileResult, message: string | undefined): string {
  return `${result}\u0000${(message ?? '').replace(/\d+/g, '#')}`;
}

function driftFingerprint(drift: readonly DriftItem[]): string {
  return drift
    .map((d) => `${d.kind}\u0000${d.key}\u0000${d.action}`)
    .sort()
    .join('\u0001');
}

/** The one line of a problem's event. */
function summaryOf(report: ReconcileReport, refused: boolean): string {
  const at = report.revision ? ` at ${report.revision}` : '';
  if (report.result === 'partial') return `wsync${at} applied the rest of the plan and holds what a safety rule refused: ${report.message ?? 'degraded'}`;
  if (refused) return `wsync refused to apply${report.revision ? ` ${report.revision}` : ''}: ${report.message ?? 'a safety rule stopped the plan'}`;
  return `wsync reconcile ${report.result}${at}: ${report.message ?? 'no message'}`;
}

/**
 * Every write over a version saved outside wsync is news of its own (never folded into a problem):
 * the version it replaced is gone from the workspace, and the event names it.
 */
function overwriteEvent(report: ReconcileReport): NotificationEvent | undefined {
  const items = report.overwritten ?? [];
  if (items.length === 0) return undefined;
  const [first] = items;
  const what =
    items.length === 1 && first !== undefined
      ? `${first.kind}/${first.key} (id ${first.id}): version ${first.replacedVersion}, saved outside wsync after version ${first.knownVersion}`
      : `${items.length} objects saved outside wsync (their versions are listed)`;
  return {
    at: report.at,
    revision: report.revision,
    result: report.result,
    type: 'drift.detected',
    severity: 'warning',
    summary: `wsync wrote the files over ${what}`,
    overwritten: items.slice(0, MAX_DRIFT_LISTED).map((item) => ({ ...item, key: safeText(item.key), id: safeText(item.id) })),
  };
}

/**
 * Turns reconcile outcomes into events: one when a problem starts (or becomes another problem),
 * one when the daemon recovers, one when observe mode finds a new set of drift. Everything in
 * between is the same news and produces nothing.
 */
export class ProblemTracker {
  private problem: Problem | null = null;
  private drift: string | null = null;

  observe(report: ReconcileReport): NotificationEvent[] {
    if (NEUTRAL.has(report.result)) return [];
    const overwritten = overwriteEvent(report);
    return overwritten === undefined ? this.outcome(report) : [...this.outcome(report), overwritten];
  }

  private outcome(report: ReconcileReport): NotificationEvent[] {
    const base = { at: report.at, revision: report.revision, result: report.result };
    if (!SUCCESS.has(report.result)) return this.failed(report, base);
    const events: NotificationEvent[] = [];
    const problem = this.problem;
    if (problem !== null) {
      this.problem = null;
      events.push({
        ...base,
        type: 'reconcile.recovered',
        severity: 'info',
        summary: `wsync recovered: ${report.result} after ${problem.failures} failed reconcile${problem.failures === 1 ? '' : 's'} since ${problem.since}`,
        failures: problem.failures,
        since: problem.since,
      });
    }
    const drift = report.observing && report.drift.length > 0 ? driftFingerprint(report.drift) : null;
    if (drift !== null && drift !== this.drift) {
      events.push({
        ...base,
        type: 'drift.detected',
        severity: 'warning',
        summary: `wsync (observe mode) found ${report.drift.length} object${report.drift.length === 1 ? '' : 's'} that differ from the files`,
        drift: report.drift.slice(0, MAX_DRIFT_LISTED).map((d) => ({ kind: d.kind, key: safeText(d.key), action: d.action })),
      });
    }
    this.drift = drift;
    return events;
  }

  private failed(report: ReconcileReport, base: Pick<NotificationEvent, 'at' | 'revision' | 'result'>): NotificationEvent[] {
    // Another held set is another problem, with its own approval, even under the same message.
    const fingerprint = `${problemFingerprint(report.result, report.message)}\u0000${report.heldFingerprint ?? ''}`;
    const previous = this.problem;
    const failures = (previous?.failures ?? 0) + 1;
    const since = previous?.since ?? report.at;
    this.problem = { fingerprint, since, failures };
    if (previous !== null && previous.fingerprint === fingerprint) return [];
    const refused = report.result === 'refused' || report.result === 'partial';
    const event: NotificationEvent = {
      ...base,
      type: refused ? 'plan.refused' : 'reconcile.failed',
      severity: 'error',
      summary: summaryOf(report, refused),
      failures,
      since,
    };
    if (report.message !== undefined) event.message = report.message;
    if (refused && report.refusals.length > 0) event.refusals = report.refusals;
    if (refused && report.heldFingerprint !== undefined) {
      event.approve = { fingerprint: report.heldFingerprint, command: `wsync ctl approve ${report.heldFingerprint}` };
    }
    return [event];
  }
}
