import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { KIND_NAMES } from '../kinds/index.js';

/**
 * The daemon's Prometheus metrics, on a registry of its own (never prom-client's global one, so
 * two daemons in one test process do not share counters). Label values are kinds, actions,
 * results, HTTP methods and statuses, and the revision name: never a resource's content.
 */
export class DaemonMetrics {
  readonly registry = new Registry();
  readonly reconcileTotal: Counter<'result' | 'trigger'>;
  readonly reconcileDuration: Histogram<'result'>;
  readonly changesTotal: Counter<'kind' | 'action'>;
  readonly changeFailuresTotal: Counter<'kind' | 'action'>;
  readonly driftObjects: Gauge<'kind'>;
  readonly apiRequestsTotal: Counter<'method' | 'status'>;
  readonly lastSuccess: Gauge;
  readonly lastReconcile: Gauge;
  readonly revisionInfo: Gauge<'revision'>;
  readonly ready: Gauge;
  readonly consecutiveFailures: Gauge;
  readonly buildInfo: Gauge<'version' | 'node'>;
  readonly suspended: Gauge;
  readonly heldChanges: Gauge;
  readonly freezeActive: Gauge;
  readonly notificationsTotal: Counter<'target' | 'event' | 'outcome'>;

  constructor(opts: { defaultMetrics?: boolean; version?: string; environment?: string } = {}) {
    const registers = [this.registry];
    // Every series of a daemon that syncs one environment of a tree names it.
    if (opts.environment !== undefined) this.registry.setDefaultLabels({ env: opts.environment });
    this.reconcileTotal = new Counter({
      name: 'wsync_reconcile_total',
      help: 'Reconciles by result (applied, planned, failed, invalid, unappliable, refused, error, missing).',
      labelNames: ['result', 'trigger'],
      registers,
    });
    this.reconcileDuration = new Histogram({
      name: 'wsync_reconcile_duration_seconds',
      help: 'Wall time of one reconcile: read files, list live state, plan, apply; by result.',
      labelNames: ['result'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.changesTotal = new Counter({
      name: 'wsync_changes_total',
      help: 'Changes applied successfully, by kind and action.',
      labelNames: ['kind', 'action'],
      registers,
    });
    this.changeFailuresTotal = new Counter({
      name: 'wsync_change_failures_total',
      help: 'Changes that failed, by kind and action.',
      labelNames: ['kind', 'action'],
      registers,
    });
    this.driftObjects = new Gauge({
      name: 'wsync_drift_objects',
      help: 'Objects whose live state differs from the files after the last reconcile that made a plan, by kind.',
      labelNames: ['kind'],
      registers,
    });
    this.apiRequestsTotal = new Counter({
      name: 'wsync_api_requests_total',
      help: 'HTTP attempts to the workspace API (retries included), by method and status (0: no answer).',
      labelNames: ['method', 'status'],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'wsync_last_success_timestamp_seconds',
      help: 'Unix time of the end of the last successful reconcile (0: none yet).',
      registers,
    });
    this.lastReconcile = new Gauge({
      name: 'wsync_last_reconcile_timestamp_seconds',
      help: 'Unix time of the end of the last reconcile, whatever its result.',
      registers,
    });
    this.revisionInfo = new Gauge({
      name: 'wsync_revision_info',
      help: 'The revision (base name of the link target) of the last reconcile that read the files; always 1.',
      labelNames: ['revision'],
      registers,
    });
    this.ready = new Gauge({
      name: 'wsync_ready',
      help: '1 once a reconcile has succeeded since start.',
      registers,
    });
    this.consecutiveFailures = new Gauge({
      name: 'wsync_consecutive_failures',
      help: 'Failed reconciles since the last success (drives the retry backoff).',
      registers,
    });
    this.buildInfo = new Gauge({
      name: 'wsync_build_info',
      help: 'The running wsync: its version and the Node.js version; always 1.',
      labelNames: ['version', 'node'],
      registers,
    });
    this.suspended = new Gauge({
      name: 'wsync_suspended',
      help: '1 while suspended (wsync ctl suspend): reconciles plan and report, nothing is written.',
      registers,
    });
    this.notificationsTotal = new Counter({
      name: 'wsync_notifications_total',
      help: 'Notifications by target name, event type and outcome (delivered, failed, dropped: queue full or stopping, rate_limited).',
      labelNames: ['target', 'event', 'outcome'],
      registers,
    });
    this.heldChanges = new Gauge({
      name: 'wsync_held_changes',
      help: 'Changes the last plan holds by a safety rule (delete budget, empty set): degraded while above 0.',
      registers: [this.registry],
    });
    this.freezeActive = new Gauge({
      name: 'wsync_freeze_active',
      help: '1 while now falls in a freeze window (--freeze): reconciles plan and report, nothing is written.',
      registers: [this.registry],
    });
    this.setInitialValues(opts.version);
    // The event-loop delay monitor samples with a timer: once a second keeps an idle daemon idle (the default, 10 ms, does not).
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 1000 });
  }

  /** Every gauge present from the first scrape, at its value before any reconcile. */
  private setInitialValues(version: string | undefined): void {
    this.buildInfo.set({ version: version ?? 'unknown', node: process.versions.node }, 1);
    this.suspended.set(0);
    this.heldChanges.set(0);
    this.freezeActive.set(0);
    for (const kind of KIND_NAMES) this.driftObjects.set({ kind }, 0);
    this.lastSuccess.set(0);
    this.ready.set(0);
    this.consecutiveFailures.set(0);
  }

  setDrift(counts: ReadonlyMap<string, number>): void {
    for (const kind of KIND_NAMES) this.driftObjects.set({ kind }, counts.get(kind) ?? 0);
  }

  setRevision(revision: string): void {
    this.revisionInfo.reset();
    this.revisionInfo.set({ revision }, 1);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
