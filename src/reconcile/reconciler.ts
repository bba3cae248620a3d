import { hostname } from 'node:os';
import type { ApiClient } from '../api/types.js';
import type { ApplyEvent } from '../apply/index.js';
import { isWriteAction, type Desired, type LiveState, type Plan, type Policy } from '../core/types.js';
import { DEFAULT_LIVE_REUSE_MS, LiveCache } from '../live/index.js';
import { PlanMemo } from '../plan/plan-memo.js';
import { FileCache } from '../source/read/file-cache.js';
import type { TreeLimits } from '../source/limits.js';
import { openState, type StateHandle } from '../state/index.js';
import { reconcile, type ReconcileOutcome } from './index.js';
import { WriterLease } from './writer-lease.js';

/** Where the reconciler tells what it could not do between reconciles (the daemon's log). */
export interface ReconcilerLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface ReconcilerOptions {
  stateDir: string;
  secretsDir?: string;
  limits?: Partial<TreeLimits>;
  tokenOutputDir?: string;
  env: Record<string, string | undefined>;
  policy: Policy;
  concurrency?: number;
  /** How long a reconcile after a file edit may reuse the last live read (default 5 minutes; 0: never). */
  liveReuseMs?: number;
  /** The client of the moment (SIGHUP may replace it). */
  client: () => ApiClient;
  /** The API token the client of the moment sends (the self-lockout guard finds which token it is). */
  apiToken?: () => string;
  /** Stops the write in flight's successors (SIGTERM). */
  signal: AbortSignal;
  log: ReconcilerLog;
  /** Scrubs secrets from a message before it is logged. */
  redact: (text: string) => string;
  /** The environment of wsync.yaml rendered (--env). */
  environment?: string;
}

/** One reconcile of the tree the caller resolved. */
export interface ReconcileRequest {
  /** The directory read (a git-sync link's target). */
  dir: string;
  /** Write (enforce mode, not suspended); otherwise plan only, and neither state nor lease is taken. */
  write: boolean;
  /** Only file edits: the last live read may serve (docs/incremental.md); anything else reads all live state. */
  edit: boolean;
  onChange?: (event: ApplyEvent) => void;
  confirmSource?: () => Promise<string | undefined>;
  onPlan?: (plan: Plan, desired: Desired) => void;
  adjustPlan?: (plan: Plan, desired: Desired, live: LiveState) => Plan;
  /** The fingerprint of held changes someone approved (`wsync ctl approve`): the plan lets exactly those through. */
  approve?: string;
}

/**
 * The reconciles of a long-running process (the daemon) and what they keep between them: per-file
 * results, the live lists, the planner's memo (docs/incremental.md), and the open state with the
 * workspace's writer lease. The one way in is `run`: it decides what may be reused, reconciles,
 * and after its own writes reads the written objects back so that the next edit plans against
 * what a full read would find. Each run gives what a reconcile from nothing gives.
 */
export class Reconciler {
  private readonly options: ReconcilerOptions;
  private readonly files = new FileCache();
  private readonly live: LiveCache;
  private readonly memo = new PlanMemo();
  private state: StateHandle | null = null;
  /** The workspace's writer lease, taken at the first reconcile that writes and renewed while the reconciler lives. */
  private lease: WriterLease | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;

  constructor(options: ReconcilerOptions) {
    this.options = options;
    this.live = new LiveCache({ maxAgeMs: options.liveReuseMs ?? DEFAULT_LIVE_REUSE_MS });
  }

  /** Reconciles; throws what reconcile throws (a WriterLeaseError: another wsync writes), forgetting the live read first. */
  async run(request: ReconcileRequest): Promise<ReconcileOutcome> {
    try {
      if (request.write) await this.prepareWrites();
      // Only file edits reuse the last live read; every other trigger (start, the schedule, SIGHUP,
      // a retry after a failure) reads all live state, so drift is found.
      if (!request.edit) this.live.invalidate();
      const o = this.options;
      const outcome = await reconcile({
        dir: request.dir,
        ...(o.environment === undefined ? {} : { environment: o.environment }),
        secretsDir: o.secretsDir,
        limits: o.limits,
        env: o.env,
        client: o.client(),
        ...(o.apiToken ? { apiToken: o.apiToken } : {}),
        stateDir: o.stateDir,
        state: this.state ?? undefined,
        policy: o.policy,
        mode: request.write ? 'apply' : 'plan',
        concurrency: o.concurrency,
        tokenOutputDir: o.tokenOutputDir,
        signal: o.signal,
        writerLease: this.lease ?? undefined,
        onChange: request.onChange,
        incremental: { files: this.files, live: this.live, memo: this.memo },
        confirmSource: request.confirmSource,
        onPlan: request.onPlan,
        ...(request.adjustPlan === undefined ? {} : { adjustPlan: request.adjustPlan }),
        ...(request.approve === undefined ? {} : { approve: request.approve }),
      });
      await this.keepLiveCurrent(outcome);
      return outcome;
    } catch (err) {
      this.live.invalidate();
      throw err;
    }
  }

  /** Ends the writer lease (the next writer need not wait) and flushes and closes the state. */
  async close(): Promise<void> {
    const { log, redact } = this.options;
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    await this.lease?.release().catch((err: unknown) => log.warn({ err: redact(errorText(err)) }, 'could not end the writer lease'));
    if (this.state) {
      try {
        await this.state.flush();
        await this.state.close();
      } catch (err) {
        log.error({ err: redact(errorText(err)) }, 'could not flush the inventory');
      }
      this.state = null;
    }
  }

  private async prepareWrites(): Promise<void> {
    const { stateDir, log } = this.options;
    this.state ??= await openState(stateDir, { lock: true, warn: (message) => log.warn({ state_dir: stateDir }, message) });
    this.lease ??= this.startLease(this.state);
  }

  /**
   * After its own writes the live cache reads the written objects back (or lists their kinds
   * again); anything less certain (a failed or stopped apply, a delete, which the server may
   * cascade) forgets the cache instead.
   */
  private async keepLiveCurrent(outcome: ReconcileOutcome): Promise<void> {
    const cache = this.live;
    if (outcome.status === 'failed' || outcome.status === 'stopped') return cache.invalidate();
    const written = (outcome.result?.events ?? []).filter((e) => e.outcome === 'done' && isWriteAction(e.action));
    if (written.length === 0) return;
    if (written.some((e) => e.action === 'delete' || e.action === 'replace')) return cache.invalidate();
    try {
      await outcome.phases.measureAsync('live', () => cache.refresh(this.options.client(), written.map((e) => ({ kind: e.kind, id: e.id }))));
    } catch (err) {
      const { log, redact } = this.options;
      log.warn({ err: redact(errorText(err)) }, 'could not read the written objects back; the next reconcile reads all live state');
    }
  }

  /** The writer lease of this state directory, renewed on a timer between reconciles. */
  private startLease(state: StateHandle): WriterLease {
    const { stateDir, log, redact } = this.options;
    const lease = new WriterLease(this.options.client, { id: state.writerId, host: hostname(), stateDir }, { warn: (message) => log.warn({ state_dir: stateDir }, redact(message)) });
    this.leaseTimer = setInterval(() => {
      lease.renew().catch((err: unknown) => log.warn({ err: redact(errorText(err)) }, 'could not renew the writer lease'));
    }, lease.leaseMs / 4);
    this.leaseTimer.unref();
    return lease;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
