import type { ApplyEvent } from '../apply/index.js';
import { formatDiagnostic, sortDiagnostics } from '../core/diagnostics.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import type { Logger } from './logger.js';
import type { DaemonMetrics } from './metrics.js';
import type { OverwrittenItem } from './notify/events.js';
import type { NotificationDispatcher } from './notify/dispatcher.js';
import { overwriteLine, overwrittenItems, VersionWatch } from './overwrites.js';
import type { RunResult } from './scheduler.js';
import { SUCCESS_RESULTS, type DaemonStatus, type ReconcileRecord } from './status.js';
import { changeCounts, countByKind, driftOf, heldOf, pendingDrift } from './summary.js';

const MAX_LOGGED_DIAGNOSTICS = 20;

export interface ReconcileReportOptions {
  log: Logger;
  metrics: DaemonMetrics;
  status: DaemonStatus;
  dispatcher: NotificationDispatcher | null;
  /** Scrubs secrets from every text logged, shown or sent. */
  redact: (text: string) => string;
  /** The daemon's mode is observe (drift is reported, not put back). */
  observing: boolean;
  /** Failures in a row before this reconcile. */
  failures: () => number;
}

/**
 * What the daemon tells of each reconcile: the change lines, the summary line, the status page's
 * record, the metrics and the notifications, and writes over versions saved outside wsync.
 */
export class ReconcileReport {
  private readonly options: ReconcileReportOptions;
  /** The versions this daemon wrote or found in sync: a write over another one is told. */
  private readonly versions = new VersionWatch();

  constructor(options: ReconcileReportOptions) {
    this.options = options;
  }

  /** One applied (or failed, or skipped) change, as it happens. */
  change(event: ApplyEvent, revision: string | null): void {
    const { log, metrics, redact } = this.options;
    const fields = {
      revision,
      kind: event.kind,
      key: redact(event.key),
      action: event.action,
      outcome: event.outcome,
      id: event.id === undefined ? undefined : redact(event.id),
      duration_ms: event.durationMs,
      message: event.message === undefined ? undefined : redact(event.message),
    };
    if (event.outcome === 'done') {
      metrics.changesTotal.inc({ kind: event.kind, action: event.action });
      log.info(fields, 'change');
    } else if (event.outcome === 'failed') {
      metrics.changeFailuresTotal.inc({ kind: event.kind, action: event.action });
      log.error(fields, 'change');
    } else {
      log.warn(fields, 'change');
    }
  }

  /** The writes of a reconcile over versions saved outside wsync, each logged at warn. */
  overwrites(outcome: ReconcileOutcome, revision: string | null): OverwrittenItem[] {
    if (!outcome.plan) return [];
    const items = overwrittenItems(this.versions.observe(outcome.plan, outcome.live, outcome.result?.events ?? []), this.options.redact);
    for (const item of items) {
      const fields = { revision, kind: item.kind, key: item.key, id: item.id, replaced_version: item.replacedVersion, known_version: item.knownVersion };
      this.options.log.warn(fields, overwriteLine(item));
    }
    return items;
  }

  /** Records, counts, notifies and logs a finished reconcile; what the scheduler makes of it. */
  finish(record: ReconcileRecord, startedMs: number, outcome: ReconcileOutcome | undefined, overwritten: OverwrittenItem[] = []): RunResult {
    const { status, metrics, redact } = this.options;
    const endedMs = Date.now();
    record.durationMs = endedMs - startedMs;
    const counts = changeCounts(outcome?.result);
    record.created = counts.created;
    record.updated = counts.updated + counts.adopted;
    record.deleted = counts.deleted;
    record.failed = counts.failed;
    const plan = outcome?.plan;
    if (plan) {
      record.drift = driftOf(plan).length;
      status.pendingDrift = pendingDrift(plan, outcome.result, redact);
      metrics.setDrift(countByKind(status.pendingDrift));
      status.held = heldOf(plan);
      metrics.heldChanges.set(status.held.length);
    }
    if (outcome && record.message === undefined) record.message = this.failureMessage(outcome);
    if (outcome) this.logDiagnostics(outcome, record.revision);

    // Held changes wait for people, not for a retry: the rest was applied, so no backoff.
    const ok = SUCCESS_RESULTS.has(record.result) || record.result === 'partial';
    this.count(record, endedMs, ok);
    this.options.dispatcher?.reconciled({
      result: record.result,
      revision: record.revision,
      at: new Date(endedMs).toISOString(),
      trigger: record.trigger,
      message: record.message,
      refusals: record.result === 'refused' || record.result === 'partial' ? (outcome?.plan?.refusals ?? []).map((r) => redact(r)) : [],
      drift: plan ? status.pendingDrift : [],
      observing: this.options.observing && !record.suspended,
      overwritten,
      heldFingerprint: outcome?.plan?.held?.fingerprint,
    });
    this.logSummary(record, outcome, ok);
    if (record.result === 'superseded') return 'skipped';
    return ok ? 'success' : 'failure';
  }

  private count(record: ReconcileRecord, endedMs: number, ok: boolean): void {
    const { status, metrics } = this.options;
    metrics.reconcileTotal.inc({ result: record.result, trigger: record.trigger });
    metrics.reconcileDuration.observe({ result: record.result }, record.durationMs / 1000);
    metrics.lastReconcile.set(endedMs / 1000);
    if (ok) {
      status.ready = true;
      status.lastSuccessAt = new Date(endedMs).toISOString();
      metrics.ready.set(1);
      metrics.lastSuccess.set(endedMs / 1000);
    }
    metrics.consecutiveFailures.set(ok ? 0 : this.options.failures() + 1);
    status.record(record);
  }

  private logSummary(record: ReconcileRecord, outcome: ReconcileOutcome | undefined, ok: boolean): void {
    const { log, status } = this.options;
    const counts = changeCounts(outcome?.result);
    const summary = {
      revision: record.revision,
      trigger: record.trigger,
      result: record.result,
      duration_ms: record.durationMs,
      created: record.created,
      updated: record.updated,
      deleted: record.deleted,
      replaced: counts.replaced,
      adopted: counts.adopted,
      failed: record.failed,
      skipped: counts.skipped,
      drift: record.drift,
      pending_drift: outcome?.plan ? status.pendingDrift.length : undefined,
      writes: counts.writes,
      live_requests: outcome?.liveRequests,
      live_reused: outcome?.liveReused,
      phases_ms: outcome?.phases.rounded(),
      error: record.message,
      suspended: record.suspended,
      frozen: record.frozen,
    };
    if (ok && record.result === 'partial') log.warn({ ...summary, held: status.held.length }, 'reconcile');
    else if (ok) log.info(summary, 'reconcile');
    else if (record.result === 'missing' || record.result === 'stopped' || record.result === 'superseded') log.warn(summary, 'reconcile');
    else log.error(summary, 'reconcile');
  }

  private failureMessage(outcome: ReconcileOutcome): string | undefined {
    const { redact } = this.options;
    const firstError = sortDiagnostics(outcome.diagnostics).find((d) => d.severity === 'error');
    if (firstError) return redact(formatDiagnostic(firstError));
    const refusal = outcome.plan?.refusals[0];
    const degraded = this.options.status.degraded;
    if (outcome.status === 'partial' && degraded !== undefined) return redact(refusal === undefined ? degraded : `${degraded}: ${refusal}`);
    if (refusal !== undefined) return redact(refusal);
    const failed = outcome.result?.events.find((e) => e.outcome === 'failed');
    if (failed) return redact(`${failed.kind}/${failed.key}: ${failed.message ?? 'failed'}`);
    return undefined;
  }

  private logDiagnostics(outcome: ReconcileOutcome, revision: string | null): void {
    const { log, redact } = this.options;
    const errors = sortDiagnostics(outcome.diagnostics).filter((d) => d.severity === 'error');
    for (const d of errors.slice(0, MAX_LOGGED_DIAGNOSTICS)) {
      log.error({ revision, code: d.code, file: d.file, line: d.line, column: d.column, field: d.field }, redact(formatDiagnostic(d)));
    }
    if (errors.length > MAX_LOGGED_DIAGNOSTICS) {
      log.error({ revision }, `... and ${errors.length - MAX_LOGGED_DIAGNOSTICS} more errors`);
    }
    for (const refusal of outcome.plan?.refusals ?? []) log.error({ revision }, redact(refusal));
  }
}
