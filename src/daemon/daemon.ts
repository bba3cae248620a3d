import { createApiClient } from '../api/client.js';
import type { ApiClient, ConnectionConfig } from '../api/types.js';
import { createRedactor } from '../core/redact.js';
import type { Desired, LiveState, Plan } from '../core/types.js';
import { safeMessage } from '../core/safe-text.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import { Reconciler } from '../reconcile/reconciler.js';
import { WriterLeaseError } from '../reconcile/writer-lease.js';
import type { DaemonConfig } from './config.js';
import { systemClock } from './clock.js';
import { FreezeWindows } from './freeze.js';
import { FreezeGate } from './freeze-gate.js';
import { limitHeapGrowth } from '../util/heap-growth.js';
import { startHttpServer, type HttpServer } from './http.js';
import type { Logger } from './logger.js';
import { DaemonMetrics } from './metrics.js';
import { OperatorControls } from './operator.js';
import type { OverwrittenItem } from './notify/events.js';
import { startNotifications, type Notifications } from './notify/setup.js';
import { ReconcileReport } from './reconcile-report.js';
import { daemonRoutes, type DaemonView } from './routes.js';
import { primaryTrigger, Scheduler, type RunResult, type Trigger } from './scheduler.js';
import { ResyncSchedule } from './resync.js';
import { RevisionMarker } from './revision-marker.js';
import { linkMovedSince, resolveSnapshot, type Snapshot } from './snapshot.js';
import { DaemonStatus, startedRecord, type ReconcileResult } from './status.js';
import { DirWatcher } from './watcher.js';
import { DaemonWriteBack } from './write-back.js';

export type { DaemonConfig };

/**
 * `wsync run`: the reconcile loop with its triggers (start, file changes, link swaps, schedule,
 * SIGHUP, retries), its HTTP port and its notifications; the reconciles themselves, and what they
 * keep between them, are the Reconciler's. Nothing in here may take the process down: every error
 * ends as a failed reconcile with a log line, and the port keeps answering.
 */
export class Daemon {
  readonly metrics: DaemonMetrics;
  readonly status = new DaemonStatus();
  private readonly notifications: Notifications | null;
  private readonly config: DaemonConfig;
  private readonly log: Logger;
  private readonly scheduler: Scheduler;
  private readonly resync: ResyncSchedule;
  private readonly watcher: DirWatcher;
  private readonly reconciler: Reconciler;
  private readonly report: ReconcileReport;
  private readonly marker: RevisionMarker | null;
  private readonly writeBack: DaemonWriteBack | null;
  private readonly abort = new AbortController();
  private connection: ConnectionConfig;
  private client: ApiClient;
  private server: HttpServer | null = null;
  private reloadRequested = false;
  private lastTarget: string | null = null;
  private secretValues: string[] = [];
  private stopping: Promise<void> | null = null;
  private readonly operator: OperatorControls;
  private readonly freeze: FreezeGate;

  private constructor(config: DaemonConfig) {
    this.config = config;
    this.log = config.logger;
    this.metrics = new DaemonMetrics({
      version: config.version,
      defaultMetrics: config.processMetrics !== false,
      ...(config.environment === undefined ? {} : { environment: config.environment }),
    });
    this.notifications = startNotifications(config, this.metrics);
    this.connection = config.connection;
    this.client = this.connect(config.connection);
    const redact = (text: string): string => this.redact(text);
    const lane = { log: this.log, redact, client: () => this.client, clock: config.clock ?? systemClock };
    this.marker = config.revisionMarks ? new RevisionMarker({ ...lane, setup: config.revisionMarks }) : null;
    const requestReconcile = (): void => void (this.stopping === null && this.scheduler.request('write-back'));
    const writeBack = { ...lane, enforce: config.policy.mode === 'enforce', requestReconcile };
    this.writeBack = config.writeBack ? new DaemonWriteBack({ ...config, ...writeBack, setup: config.writeBack }) : null;
    this.reconciler = new Reconciler({ ...config, client: () => this.client, apiToken: () => this.connection.token(), signal: this.abort.signal, log: this.log, redact });
    this.scheduler = new Scheduler({
      run: (triggers) => this.runOnce(triggers),
      debounceMs: config.debounceMs,
      backoffInitialMs: config.backoff?.initialMs,
      backoffMaxMs: config.backoff?.maxMs,
      onRunError: (err) => this.log.error({ err: this.redact(errorText(err)) }, 'reconcile loop error'),
      onRetryScheduled: (delayMs, failures) => this.log.warn({ retry_in_ms: delayMs, failures }, 'retry scheduled'),
    });
    const dispatcher = this.notifications?.dispatcher ?? null;
    const failures = (): number => this.scheduler.status().failures;
    this.report = new ReconcileReport({ log: this.log, metrics: this.metrics, status: this.status, dispatcher, redact, observing: config.policy.mode === 'observe', failures });
    const windows = config.freeze !== undefined && config.freeze.length > 0 ? new FreezeWindows(config.freeze) : null;
    this.freeze = new FreezeGate(windows, config.clock ?? systemClock, this.status, this.metrics, () => {
      this.log.info('freeze window over: reconciling now');
      if (this.stopping === null) this.scheduler.request('freeze-end');
    });
    const request = (): void => this.scheduler.request('control');
    const stopping = (): boolean => this.stopping !== null;
    this.operator = new OperatorControls({ status: this.status, metrics: this.metrics, log: this.log, freeze: this.freeze, request, stopping, redact });
    if (config.suspended) this.operator.setSuspended(true);
    this.resync = new ResyncSchedule(config.resync, this.log, () => this.scheduler.resync());
    limitHeapGrowth();
    this.watcher = new DirWatcher({
      dir: config.dir,
      ignore: config.tokenOutputDir ? [config.stateDir, config.tokenOutputDir] : [config.stateDir],
      onTrigger: (trigger) => {
        this.log.debug({ trigger }, 'files changed');
        this.scheduler.notify(trigger);
      },
      onError: (err) => this.log.warn({ err: safeMessage(errorText(err)) }, 'watch error'),
    });
  }

  /** Serves the port (its URL is the first log line), starts watching and the schedule, then reconciles. */
  static async start(config: DaemonConfig): Promise<Daemon> {
    const daemon = new Daemon(config);
    // One of several workspaces (src/daemon/multi/): the port is the MultiDaemon's.
    if (config.serve !== false) await daemon.listen();
    await daemon.startWatching();
    daemon.resync.start();
    daemon.scheduler.request('start');
    return daemon;
  }

  get url(): string {
    return this.server?.url ?? '';
  }

  /** SIGHUP: re-read the configuration and reconcile. */
  reload(): void {
    if (this.stopping) return;
    this.log.info('reload requested');
    this.reloadRequested = true;
    this.scheduler.request('sighup');
  }

  /**
   * Stops watching and scheduling, lets the write in flight finish (no new one starts), flushes the
   * inventory and closes the port.
   */
  stop(reason: string): Promise<void> {
    this.stopping ??= this.shutdown(reason);
    return this.stopping;
  }

  private async shutdown(reason: string): Promise<void> {
    this.log.info({ reason }, 'stopping');
    await this.resync.stop();
    await this.watcher.close();
    this.abort.abort();
    await this.scheduler.stop();
    // The next writer (a new pod with the same state directory, or another one) need not wait.
    await this.reconciler.close();
    this.freeze.close();
    // The write-back's publish and the marks in flight read through the client (each lane's wait is bounded).
    await Promise.all([this.writeBack?.close(), this.marker?.close()]);
    await this.client.close().catch(() => undefined);
    await this.notifications?.close();
    await this.server?.close();
    this.log.info('stopped');
  }

  /** What the port reads of this daemon and asks of it: its own port's, or a MultiDaemon's section. */
  view(): DaemonView {
    return {
      config: this.config,
      status: this.status,
      metrics: this.metrics,
      scheduler: () => this.scheduler.status(),
      stopping: () => this.stopping !== null,
      act: (action, request) => this.operator.control(action, request),
      approve: (fingerprint) => this.operator.approve(fingerprint),
      refresh: () => this.freeze.refresh(),
    };
  }

  private async listen(): Promise<void> {
    this.server = await startHttpServer(this.config.listen, daemonRoutes(this.view()));
    const notify = this.notifications?.dispatcher.targets.map((t) => `${t.name} (${t.type})`);
    const suspended = this.status.suspendedSince !== null || undefined;
    this.log.info({ url: this.server.url, control: this.config.controlToken !== undefined, notify, suspended }, 'listening');
  }

  private async startWatching(): Promise<void> {
    await this.watcher.start();
    const snap = this.watcher.snapshot;
    this.log.info(
      { dir: this.config.dir, target: snap?.target ?? null, revision: snap?.revision ?? null, state_dir: this.config.stateDir },
      snap ? 'watching' : 'watching: the directory does not exist yet',
    );
  }

  private connect(connection: ConnectionConfig): ApiClient {
    const client = createApiClient(connection);
    client.onAttempt = (method, status) => this.metrics.apiRequestsTotal.inc({ method, status: String(status) });
    return client;
  }

  private reconnect(): void {
    this.reloadRequested = false;
    try {
      const { connection: next, freeze } = this.config.reloadConfig();
      const old = this.client;
      this.connection = next;
      this.client = this.connect(next);
      void old.close().catch(() => undefined);
      const windows = this.freeze.replace(freeze);
      this.log.info({ url: next.url, ...(windows ? { freeze: windows } : {}) }, 'configuration re-read');
    } catch (err) {
      this.log.error({ err: this.redact(errorText(err)) }, 'configuration re-read failed; keeping the previous one');
    }
  }

  /**
   * Every message we log or show goes through here. Last line of defence: the bearer token and
   * every interpolated secret are scrubbed; then controls are escaped (a message quotes the input).
   */
  private redact(text: string): string {
    let token = '';
    try {
      token = this.connection.token();
    } catch {
      // No token to scrub then.
    }
    return safeMessage(createRedactor([token, ...this.secretValues, ...(this.marker?.secrets() ?? []), ...(this.config.writeBack?.secrets() ?? [])])(text));
  }

  private async runOnce(triggers: ReadonlySet<Trigger>): Promise<RunResult> {
    const startedMs = Date.now();
    const record = startedRecord(primaryTrigger(triggers), startedMs);
    if (this.reloadRequested) this.reconnect();
    let snap: Snapshot | null;
    try {
      snap = await resolveSnapshot(this.config.dir);
    } catch (err) {
      record.message = this.redact(errorText(err));
      return this.report.finish(record, startedMs, undefined);
    }
    if (snap === null) {
      record.result = 'missing';
      record.message = `${this.config.dir} does not exist yet (or is not a directory): nothing read, nothing written`;
      return this.report.finish(record, startedMs, undefined);
    }
    record.revision = snap.revision;
    this.watcher.adopt(snap);
    // The watcher saw a swap to the target a reconcile already read (say, a scheduled one): once is enough.
    if ([...triggers].every((t) => t === 'revision') && snap.target === this.lastTarget) {
      this.log.debug({ revision: snap.revision }, 'revision already reconciled');
      return 'skipped';
    }
    this.lastTarget = snap.target;
    this.status.revision = snap.revision;
    if (snap.revision !== null) this.metrics.setRevision(snap.revision);

    let outcome: ReconcileOutcome | undefined;
    let overwritten: OverwrittenItem[] = [];
    try {
      // Suspended: the same reconcile, planned only (the lease is neither taken nor needed).
      const suspended = this.status.suspendedSince !== null;
      if (suspended) record.suspended = true;
      const write = this.config.policy.mode === 'enforce' && !suspended && this.operator.admitWrites(record);
      const writeBack = this.writeBack;
      outcome = await this.reconciler.run({
        dir: snap.target,
        write,
        approve: this.operator.approvalFor(write),
        edit: [...triggers].every((t) => t === 'change' || t === 'revision'),
        onChange: (event) => this.report.change(event, snap.revision),
        confirmSource: () => linkMovedSince(this.config.dir, snap, (text) => this.redact(text), () => this.scheduler.request('revision')),
        ...(writeBack ? { adjustPlan: (plan: Plan, desired: Desired, live: LiveState) => writeBack.adjustPlan(plan, desired, live) } : {}),
        // Known before the first change is logged: a name may hold one of them.
        onPlan: (_plan, desired) => {
          this.secretValues = desired.secretValues;
        },
      });
      this.secretValues = outcome.desired.secretValues;
      record.result = outcome.status;
      if (outcome.superseded !== undefined) record.message = outcome.superseded;
      overwritten = this.report.overwrites(outcome, snap.revision);
      if (write && this.marker && outcome.status !== 'superseded') this.marker.queue(outcome, snap);
      this.writeBack?.afterReconcile(outcome);
    } catch (err) {
      record.message = this.redact(errorText(err));
      // Another wsync writes the workspace: a refusal, not a fault of this one.
      if (err instanceof WriterLeaseError) record.result = 'refused';
    }
    this.operator.settleApproval(outcome);
    return this.report.finish(record, startedMs, outcome, overwritten);
  }

}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export type { ReconcileResult };
