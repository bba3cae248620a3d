import { schedule, type ScheduledTask } from 'node-cron';
import { hostname } from 'node:os';
import { createApiClient } from '../api/client.js';
import type { ApiClient, ConnectionConfig } from '../api/types.js';
import type { ApplyEvent } from '../apply/index.js';
import { formatDiagnostic, sortDiagnostics } from '../core/diagnostics.js';
import { createRedactor } from '../core/redact.js';
import { safeMessage } from '../core/safe-text.js';
import { isWriteAction, type Policy } from '../core/types.js';
import { DEFAULT_LIVE_REUSE_MS, LiveCache } from '../live/index.js';
import { PlanMemo } from '../plan/plan-memo.js';
import { reconcile, type ReconcileOutcome } from '../reconcile/index.js';
import { FileCache } from '../source/read/file-cache.js';
import { WriterLease, WriterLeaseError } from '../reconcile/writer-lease.js';
import type { TreeLimits } from '../source/limits.js';
import { openState, type StateHandle } from '../state/index.js';
import { createWebhookSender, type WebhookSender } from '../api/webhook.js';
import { handleControl, refuseWithoutToken, type ControlAction } from './control.js';
import { limitHeapGrowth } from './heap-growth.js';
import { startHttpServer, type HttpServer, type ListenAddress } from './http.js';
import type { Logger } from './logger.js';
import { DaemonMetrics } from './metrics.js';
import { NotificationDispatcher, type NotificationTarget } from './notify/dispatcher.js';
import { primaryTrigger, Scheduler, type RunResult, type Trigger } from './scheduler.js';
import { resolveSnapshot, type Snapshot } from './snapshot.js';
import { renderStatusPage } from './status-page.js';
import { DaemonStatus, SUCCESS_RESULTS, type ReconcileRecord, type ReconcileResult } from './status.js';
import { overwriteLine, overwrittenItems, VersionWatch } from './overwrites.js';
import type { OverwrittenItem } from './notify/events.js';
import { changeCounts, countByKind, driftOf, heldOf, pendingDrift } from './summary.js';
import { DirWatcher } from './watcher.js';

export interface DaemonConfig {
  /** DIR as given, made absolute: may be (or sit under) a git-sync symbolic link. */
  dir: string;
  stateDir: string;
  secretsDir?: string;
  /** Bounds on the tree read at each reconcile. */
  limits?: Partial<TreeLimits>;
  tokenOutputDir?: string;
  listen: ListenAddress;
  /** Cron expression of the drift-correcting resync; null: none. */
  resync: string | null;
  debounceMs: number;
  /** `policy.mode` observe: plan and report drift, never write. */
  policy: Policy;
  concurrency?: number;
  env: Record<string, string | undefined>;
  connection: ConnectionConfig;
  /** Re-reads the connection configuration (SIGHUP); throws ConfigError when it no longer resolves. */
  reloadConnection: () => ConnectionConfig;
  logger: Logger;
  backoff?: { initialMs: number; maxMs: number };
  /** Where reconcile failures, refusals, drift (observe mode) and recoveries are posted. */
  notifications?: { targets: NotificationTarget[]; timeoutMs?: number };
  /** The token POST /suspend, /resume and /reconcile require; absent: those are off. */
  controlToken?: () => string;
  /** The status page and /status require the control token too (--status-auth). */
  statusAuth?: boolean;
  /** Start suspended (WSYNC_SUSPEND=1): plan and report, write nothing until resumed. */
  suspended?: boolean;
  /** wsync's version, for wsync_build_info. */
  version?: string;
  /** How long a reconcile after a file edit may reuse the last live read (default 5 minutes; 0: never). */
  liveReuseMs?: number;
}

const MAX_LOGGED_DIAGNOSTICS = 20;

/**
 * `wsync run`: the reconcile loop with its triggers (start, file changes, link swaps, schedule,
 * SIGHUP, retries) and its HTTP port. Nothing in here may take the process down: every error
 * ends as a failed reconcile with a log line, and the port keeps answering.
 */
export class Daemon {
  readonly metrics: DaemonMetrics;
  readonly status = new DaemonStatus();
  private readonly dispatcher: NotificationDispatcher | null = null;
  private readonly webhooks: WebhookSender | null = null;
  private readonly config: DaemonConfig;
  private readonly log: Logger;
  private readonly scheduler: Scheduler;
  private readonly watcher: DirWatcher;
  private readonly abort = new AbortController();
  private connection: ConnectionConfig;
  private client: ApiClient;
  private server: HttpServer | null = null;
  private cronTask: ScheduledTask | null = null;
  private state: StateHandle | null = null;
  /** The workspace's writer lease, taken at the first reconcile that writes and renewed while the daemon runs. */
  private lease: WriterLease | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private reloadRequested = false;
  private lastTarget: string | null = null;
  private secretValues: string[] = [];
  private stopping: Promise<void> | null = null;
  /** Kept between reconciles so that an edit costs what it changed (docs/incremental.md). */
  private readonly incremental: { files: FileCache; live: LiveCache; memo: PlanMemo };
  /** The versions this daemon wrote or found in sync: a write over another one is told. */
  private readonly versions = new VersionWatch();

  private constructor(config: DaemonConfig) {
    this.config = config;
    this.log = config.logger;
    this.metrics = new DaemonMetrics({ version: config.version });
    if (config.suspended) this.setSuspended(true);
    if (config.notifications && config.notifications.targets.length > 0) {
      const webhooks = createWebhookSender({ timeoutMs: config.notifications.timeoutMs });
      this.webhooks = webhooks;
      this.dispatcher = new NotificationDispatcher({
        targets: config.notifications.targets,
        send: (req) => webhooks.post(req),
        source: { host: hostname(), dir: config.dir },
        log: this.log,
        timeoutMs: config.notifications.timeoutMs,
        onOutcome: (target, event, outcome) => this.metrics.notificationsTotal.inc({ target, event, outcome }),
      });
    }
    this.connection = config.connection;
    this.client = this.connect(config.connection);
    this.incremental = {
      files: new FileCache(),
      live: new LiveCache({ maxAgeMs: config.liveReuseMs ?? DEFAULT_LIVE_REUSE_MS }),
      memo: new PlanMemo(),
    };
    this.scheduler = new Scheduler({
      run: (triggers) => this.runOnce(triggers),
      debounceMs: config.debounceMs,
      backoffInitialMs: config.backoff?.initialMs,
      backoffMaxMs: config.backoff?.maxMs,
      onRunError: (err) => this.log.error({ err: this.redact(errorText(err)) }, 'reconcile loop error'),
      onRetryScheduled: (delayMs, failures) => this.log.warn({ retry_in_ms: delayMs, failures }, 'retry scheduled'),
    });
    limitHeapGrowth();
    const ignore = [config.stateDir];
    if (config.tokenOutputDir) ignore.push(config.tokenOutputDir);
    this.watcher = new DirWatcher({
      dir: config.dir,
      ignore,
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
    await daemon.listen();
    await daemon.startWatching();
    daemon.startSchedule();
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
    await this.stopSchedule();
    await this.watcher.close();
    this.abort.abort();
    await this.scheduler.stop();
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    // The next writer (a new pod with the same state directory, or another one) need not wait.
    await this.lease?.release().catch((err: unknown) => this.log.warn({ err: this.redact(errorText(err)) }, 'could not end the writer lease'));
    if (this.state) {
      try {
        await this.state.flush();
        await this.state.close();
      } catch (err) {
        this.log.error({ err: this.redact(errorText(err)) }, 'could not flush the inventory');
      }
      this.state = null;
    }
    await this.client.close().catch(() => undefined);
    await this.dispatcher?.close();
    await this.webhooks?.close().catch(() => undefined);
    await this.server?.close();
    this.log.info('stopped');
  }

  private async listen(): Promise<void> {
    this.server = await startHttpServer(this.config.listen, {
      healthz: () => ({ ok: true, body: 'ok\n' }),
      readyz: () => {
        const ok = this.status.ready && this.stopping === null;
        const suspended = this.status.suspendedSince === null ? '' : ` (suspended since ${this.status.suspendedSince}: nothing is written)`;
        const degraded = this.status.degraded === undefined ? '' : ` (${this.status.degraded})`;
        return { ok, body: `${ok ? 'ready' : 'not ready: no reconcile has succeeded yet'}${suspended}${degraded}\n` };
      },
      metrics: async () => ({ contentType: this.metrics.contentType, body: await this.metrics.text() }),
      statusPage: () => {
        const s = this.scheduler.status();
        return renderStatusPage(this.status, {
          dir: this.config.dir,
          mode: this.config.policy.mode,
          running: s.running,
          nextRetryAt: s.nextRetryAt,
        });
      },
      statusJson: () => this.statusJson(),
      control: (action, authorization) =>
        handleControl({ token: this.config.controlToken ?? null, act: (a) => this.control(a) }, action, authorization),
      refuseStatus: (authorization) => (this.config.statusAuth === true ? refuseWithoutToken(this.config.controlToken ?? null, authorization) : undefined),
    });
    this.log.info(
      {
        url: this.server.url,
        control: this.config.controlToken !== undefined,
        notify: this.dispatcher?.targets.map((t) => `${t.name} (${t.type})`),
        suspended: this.status.suspendedSince !== null || undefined,
      },
      'listening',
    );
  }

  private setSuspended(on: boolean): void {
    this.status.suspendedSince = on ? (this.status.suspendedSince ?? new Date().toISOString()) : null;
    this.metrics.suspended.set(on ? 1 : 0);
  }

  /** An authorised control request; returns the answer's body. */
  private control(action: ControlAction): Record<string, unknown> {
    if (action === 'suspend') {
      const already = this.status.suspendedSince !== null;
      this.setSuspended(true);
      if (!already) this.log.warn('suspended: reconciles plan and report drift, nothing is written until resumed');
    } else if (action === 'resume') {
      const was = this.status.suspendedSince !== null;
      this.setSuspended(false);
      if (was) this.log.info('resumed: reconciling now');
      if (was && this.stopping === null) this.scheduler.request('control');
    } else if (this.stopping === null) {
      this.log.info('reconcile requested');
      this.scheduler.request('control');
    }
    return { ok: true, action, suspended: this.status.suspendedSince !== null, suspendedSince: this.status.suspendedSince };
  }

  private statusJson(): Record<string, unknown> {
    const s = this.scheduler.status();
    const last = this.status.last;
    return {
      ready: this.status.ready,
      suspended: this.status.suspendedSince !== null,
      suspendedSince: this.status.suspendedSince,
      mode: this.config.policy.mode,
      dir: this.config.dir,
      revision: this.status.revision,
      running: s.running,
      nextRetryAt: s.nextRetryAt === null ? null : new Date(s.nextRetryAt).toISOString(),
      lastSuccessAt: this.status.lastSuccessAt,
      pendingDrift: this.status.pendingDrift.length,
      held: this.status.held.length,
      degraded: this.status.degraded ?? null,
      last: last ?? null,
    };
  }

  private async startWatching(): Promise<void> {
    await this.watcher.start();
    const snap = this.watcher.snapshot;
    this.log.info(
      { dir: this.config.dir, target: snap?.target ?? null, revision: snap?.revision ?? null, state_dir: this.config.stateDir },
      snap ? 'watching' : 'watching: the directory does not exist yet',
    );
  }

  private startSchedule(): void {
    const expression = this.config.resync;
    if (expression === null) return;
    const cronLog = {
      info: (m: string) => this.log.debug({ cron: m }, 'schedule'),
      warn: (m: string) => this.log.debug({ cron: m }, 'schedule'),
      error: (m: string | Error) => this.log.warn({ cron: errorText(m) }, 'schedule error'),
      debug: (m: string | Error) => this.log.debug({ cron: errorText(m) }, 'schedule'),
    };
    this.cronTask = schedule(
      expression,
      () => {
        if (!this.scheduler.resync()) this.log.debug('scheduled resync skipped: a retry is already armed');
      },
      { name: 'wsync-resync', logger: cronLog },
    );
  }

  private async stopSchedule(): Promise<void> {
    const task = this.cronTask;
    this.cronTask = null;
    if (task) await Promise.resolve(task.destroy()).catch(() => undefined);
  }

  private connect(connection: ConnectionConfig): ApiClient {
    const client = createApiClient(connection);
    client.onAttempt = (method, status) => this.metrics.apiRequestsTotal.inc({ method, status: String(status) });
    return client;
  }

  private reconnect(): void {
    this.reloadRequested = false;
    try {
      const next = this.config.reloadConnection();
      const old = this.client;
      this.connection = next;
      this.client = this.connect(next);
      void old.close().catch(() => undefined);
      this.log.info({ url: next.url }, 'configuration re-read');
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
    return safeMessage(createRedactor([token, ...this.secretValues])(text));
  }

  private async runOnce(triggers: ReadonlySet<Trigger>): Promise<RunResult> {
    const trigger = primaryTrigger(triggers);
    const startedMs = Date.now();
    const record: ReconcileRecord = {
      startedAt: new Date(startedMs).toISOString(),
      trigger,
      revision: null,
      result: 'error',
      durationMs: 0,
      created: 0,
      updated: 0,
      deleted: 0,
      failed: 0,
      drift: 0,
    };
    if (this.reloadRequested) this.reconnect();
    let snap: Snapshot | null;
    try {
      snap = await resolveSnapshot(this.config.dir);
    } catch (err) {
      record.message = this.redact(errorText(err));
      return this.finish(record, startedMs, undefined);
    }
    if (snap === null) {
      record.result = 'missing';
      record.message = `${this.config.dir} does not exist yet (or is not a directory): nothing read, nothing written`;
      return this.finish(record, startedMs, undefined);
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
      const enforce = this.config.policy.mode === 'enforce' && !suspended;
      if (enforce && this.state === null) {
        this.state = await openState(this.config.stateDir, {
          lock: true,
          warn: (message) => this.log.warn({ state_dir: this.config.stateDir }, message),
        });
      }
      if (enforce && this.state !== null && this.lease === null) this.lease = this.startLease(this.state);
      // Only file edits reuse the last live read; every other trigger (start, the schedule, SIGHUP,
      // a retry after a failure) reads all live state, so drift is found.
      if (![...triggers].every((t) => t === 'change' || t === 'revision')) this.incremental.live.invalidate();
      outcome = await reconcile({
        dir: snap.target,
        secretsDir: this.config.secretsDir,
        limits: this.config.limits,
        env: this.config.env,
        client: this.client,
        stateDir: this.config.stateDir,
        state: this.state ?? undefined,
        policy: this.config.policy,
        mode: enforce ? 'apply' : 'plan',
        concurrency: this.config.concurrency,
        tokenOutputDir: this.config.tokenOutputDir,
        signal: this.abort.signal,
        writerLease: this.lease ?? undefined,
        onChange: (event) => this.onChange(event, snap.revision),
        incremental: this.incremental,
        confirmSource: () => this.linkMoved(snap),
        // Known before the first change is logged: a name may hold one of them.
        onPlan: (_plan, desired) => {
          this.secretValues = desired.secretValues;
        },
      });
      this.secretValues = outcome.desired.secretValues;
      record.result = outcome.status;
      if (outcome.superseded !== undefined) record.message = outcome.superseded;
      overwritten = this.overwritesOf(outcome, snap.revision);
      await this.keepLiveCurrent(outcome);
    } catch (err) {
      this.incremental.live.invalidate();
      record.message = this.redact(errorText(err));
      // Another wsync writes the workspace: a refusal, not a fault of this one.
      if (err instanceof WriterLeaseError) record.result = 'refused';
    }
    return this.finish(record, startedMs, outcome, overwritten);
  }

  /** The writes of a reconcile over versions saved outside wsync, each logged at warn. */
  private overwritesOf(outcome: ReconcileOutcome, revision: string | null): OverwrittenItem[] {
    if (!outcome.plan) return [];
    const items = overwrittenItems(this.versions.observe(outcome.plan, outcome.live, outcome.result?.events ?? []), (text) => this.redact(text));
    for (const item of items) {
      const fields = { revision, kind: item.kind, key: item.key, id: item.id, replaced_version: item.replacedVersion, known_version: item.knownVersion };
      this.log.warn(fields, overwriteLine(item));
    }
    return items;
  }

  /**
   * git-sync removes the old worktree as soon as the link names the new one: files read from a
   * worktree the link has left may be a part of it (docs/deploy.md). Resolved again once the files
   * are read; any move drops the reconcile, and the new revision is reconciled next.
   */
  private async linkMoved(read: Snapshot): Promise<string | undefined> {
    let now: Snapshot | null;
    try {
      now = await resolveSnapshot(this.config.dir);
    } catch (err) {
      return `${this.config.dir} could not be resolved again after the read (${this.redact(errorText(err))}): nothing written`;
    }
    if (now !== null && now.target === read.target) return undefined;
    this.scheduler.request('revision');
    const to = now === null ? 'nothing' : (now.revision ?? now.target);
    return `the link moved from ${read.revision ?? read.target} to ${to} while the files were read: nothing written from them, the new revision is read next`;
  }

  /**
   * After its own writes the live cache reads the written objects back (or lists their kinds
   * again), so that the next edit plans against what a full read would find; anything less
   * certain (a failed or stopped apply, a delete, which the server may cascade) forgets the cache
   * instead.
   */
  private async keepLiveCurrent(outcome: ReconcileOutcome): Promise<void> {
    const cache = this.incremental.live;
    if (outcome.status === 'failed' || outcome.status === 'stopped') return cache.invalidate();
    const written = (outcome.result?.events ?? []).filter((e) => e.outcome === 'done' && isWriteAction(e.action));
    if (written.length === 0) return;
    if (written.some((e) => e.action === 'delete' || e.action === 'replace')) return cache.invalidate();
    try {
      await outcome.phases.measureAsync('live', () => cache.refresh(this.client, written.map((e) => ({ kind: e.kind, id: e.id }))));
    } catch (err) {
      this.log.warn({ err: this.redact(errorText(err)) }, 'could not read the written objects back; the next reconcile reads all live state');
    }
  }

  /** The writer lease of this state directory, renewed on a timer between reconciles. */
  private startLease(state: StateHandle): WriterLease {
    const lease = new WriterLease(
      () => this.client,
      { id: state.writerId, host: hostname(), stateDir: this.config.stateDir },
      { warn: (message) => this.log.warn({ state_dir: this.config.stateDir }, this.redact(message)) },
    );
    this.leaseTimer = setInterval(() => {
      lease.renew().catch((err: unknown) => this.log.warn({ err: this.redact(errorText(err)) }, 'could not renew the writer lease'));
    }, lease.leaseMs / 4);
    this.leaseTimer.unref();
    return lease;
  }

  private onChange(event: ApplyEvent, revision: string | null): void {
    const fields = {
      revision,
      kind: event.kind,
      key: this.redact(event.key),
      action: event.action,
      outcome: event.outcome,
      id: event.id === undefined ? undefined : this.redact(event.id),
      duration_ms: event.durationMs,
      message: event.message === undefined ? undefined : this.redact(event.message),
    };
    if (event.outcome === 'done') {
      this.metrics.changesTotal.inc({ kind: event.kind, action: event.action });
      this.log.info(fields, 'change');
    } else if (event.outcome === 'failed') {
      this.metrics.changeFailuresTotal.inc({ kind: event.kind, action: event.action });
      this.log.error(fields, 'change');
    } else {
      this.log.warn(fields, 'change');
    }
  }

  private finish(record: ReconcileRecord, startedMs: number, outcome: ReconcileOutcome | undefined, overwritten: OverwrittenItem[] = []): RunResult {
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
      this.status.pendingDrift = pendingDrift(plan, outcome.result, (text) => this.redact(text));
      this.metrics.setDrift(countByKind(this.status.pendingDrift));
      this.status.held = heldOf(plan);
      this.metrics.heldChanges.set(this.status.held.length);
    }
    if (outcome && record.message === undefined) record.message = this.failureMessage(outcome);
    if (outcome) this.logDiagnostics(outcome, record.revision);

    // Held changes wait for people, not for a retry: the rest was applied, so no backoff.
    const ok = SUCCESS_RESULTS.has(record.result) || record.result === 'partial';
    this.metrics.reconcileTotal.inc({ result: record.result, trigger: record.trigger });
    this.metrics.reconcileDuration.observe({ result: record.result }, record.durationMs / 1000);
    this.metrics.lastReconcile.set(endedMs / 1000);
    if (ok) {
      this.status.ready = true;
      this.status.lastSuccessAt = new Date(endedMs).toISOString();
      this.metrics.ready.set(1);
      this.metrics.lastSuccess.set(endedMs / 1000);
    }
    this.metrics.consecutiveFailures.set(ok ? 0 : this.scheduler.status().failures + 1);
    this.status.record(record);
    this.dispatcher?.reconciled({
      result: record.result,
      revision: record.revision,
      at: new Date(endedMs).toISOString(),
      trigger: record.trigger,
      message: record.message,
      refusals: record.result === 'refused' || record.result === 'partial' ? (outcome?.plan?.refusals ?? []).map((r) => this.redact(r)) : [],
      drift: plan ? this.status.pendingDrift : [],
      observing: this.config.policy.mode === 'observe' && !record.suspended,
      overwritten,
    });

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
      pending_drift: plan ? this.status.pendingDrift.length : undefined,
      writes: counts.writes,
      live_requests: outcome?.liveRequests,
      live_reused: outcome?.liveReused,
      phases_ms: outcome?.phases.rounded(),
      error: record.message,
      suspended: record.suspended,
    };
    if (ok && record.result === 'partial') this.log.warn({ ...summary, held: this.status.held.length }, 'reconcile');
    else if (ok) this.log.info(summary, 'reconcile');
    else if (record.result === 'missing' || record.result === 'stopped' || record.result === 'superseded') this.log.warn(summary, 'reconcile');
    else this.log.error(summary, 'reconcile');
    if (record.result === 'superseded') return 'skipped';
    return ok ? 'success' : 'failure';
  }

  private failureMessage(outcome: ReconcileOutcome): string | undefined {
    const firstError = sortDiagnostics(outcome.diagnostics).find((d) => d.severity === 'error');
    if (firstError) return this.redact(formatDiagnostic(firstError));
    const refusal = outcome.plan?.refusals[0];
    const degraded = this.status.degraded;
    if (outcome.status === 'partial' && degraded !== undefined) return this.redact(refusal === undefined ? degraded : `${degraded}: ${refusal}`);
    if (refusal !== undefined) return this.redact(refusal);
    const failed = outcome.result?.events.find((e) => e.outcome === 'failed');
    if (failed) return this.redact(`${failed.kind}/${failed.key}: ${failed.message ?? 'failed'}`);
    return undefined;
  }

  private logDiagnostics(outcome: ReconcileOutcome, revision: string | null): void {
    const errors = sortDiagnostics(outcome.diagnostics).filter((d) => d.severity === 'error');
    for (const d of errors.slice(0, MAX_LOGGED_DIAGNOSTICS)) {
      this.log.error(
        { revision, code: d.code, file: d.file, line: d.line, column: d.column, field: d.field },
        this.redact(formatDiagnostic(d)),
      );
    }
    if (errors.length > MAX_LOGGED_DIAGNOSTICS) {
      this.log.error({ revision }, `... and ${errors.length - MAX_LOGGED_DIAGNOSTICS} more errors`);
    }
    for (const refusal of outcome.plan?.refusals ?? []) this.log.error({ revision }, this.redact(refusal));
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export type { ReconcileResult };
