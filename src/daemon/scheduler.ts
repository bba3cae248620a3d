import { systemClock, type Clock, type TimerHandle } from './clock.js';

/** Why a reconcile runs. */
export type Trigger = 'start' | 'change' | 'revision' | 'resync' | 'sighup' | 'retry' | 'control' | 'freeze-end' | 'write-back';

export type RunResult = 'success' | 'failure' | 'skipped';

export interface SchedulerOptions {
  /** One reconcile; every trigger that was coalesced into it. Must not throw (a throw counts as a failure). */
  run: (triggers: ReadonlySet<Trigger>) => Promise<RunResult>;
  clock?: Clock;
  /** File changes are collected until none has come for this long. */
  debounceMs: number;
  /** A steady stream of changes never holds a reconcile back longer than this. */
  maxDebounceMs?: number;
  /** First retry delay after a failure; doubles with each further failure. */
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  onRunError?: (err: unknown) => void;
  onRetryScheduled?: (delayMs: number, failures: number) => void;
}

export interface SchedulerStatus {
  running: boolean;
  queued: Trigger[];
  failures: number;
  /** Epoch ms of the next retry after a failure, if one is armed. */
  nextRetryAt: number | null;
}

export const DEFAULT_BACKOFF_INITIAL_MS = 1000;
export const DEFAULT_BACKOFF_MAX_MS = 5 * 60 * 1000;

/** Delay before retry number `failures` (1-based): initial * 2^(failures-1), capped. */
export function backoffDelay(failures: number, initialMs = DEFAULT_BACKOFF_INITIAL_MS, maxMs = DEFAULT_BACKOFF_MAX_MS): number {
  if (failures <= 0) return 0;
  // 2^30 and beyond only overflow towards the cap anyway.
  const factor = 2 ** Math.min(failures - 1, 30);
  return Math.min(initialMs * factor, maxMs);
}

/**
 * The reconcile loop's single-flight discipline: one reconcile at a time, at most one queued
 * (later requests merge into it), file changes debounced, and exponential backoff after a failure.
 * Events that bring new input (a change, a new revision, SIGHUP, start) run without waiting for
 * the backoff; a scheduled resync does not jump it, since the armed retry covers the same ground.
 */
export class Scheduler {
  private readonly clock: Clock;
  private readonly opts: SchedulerOptions;
  private readonly maxDebounceMs: number;
  private readonly backoffInitialMs: number;
  private readonly backoffMaxMs: number;

  private pending: Set<Trigger> | null = null;
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private debounceTimer: TimerHandle | null = null;
  private debounceStartedAt = 0;
  private debounced = new Set<Trigger>();
  private retryTimer: TimerHandle | null = null;
  private retryAt: number | null = null;
  private failures = 0;
  private stopped = false;

  constructor(opts: SchedulerOptions) {
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    this.maxDebounceMs = opts.maxDebounceMs ?? Math.max(opts.debounceMs * 10, 2000);
    this.backoffInitialMs = opts.backoffInitialMs ?? DEFAULT_BACKOFF_INITIAL_MS;
    this.backoffMaxMs = opts.backoffMaxMs ?? DEFAULT_BACKOFF_MAX_MS;
  }

  /** Something changed on disk: reconcile once the burst has settled. */
  notify(trigger: Trigger): void {
    if (this.stopped) return;
    const now = this.clock.now();
    if (this.debounceTimer === null) this.debounceStartedAt = now;
    else this.clock.clearTimeout(this.debounceTimer);
    this.debounced.add(trigger);
    const wait = Math.max(0, Math.min(this.opts.debounceMs, this.debounceStartedAt + this.maxDebounceMs - now));
    this.debounceTimer = this.clock.setTimeout(() => this.flushDebounce(), wait);
  }

  /** Reconcile as soon as the loop is free (start, SIGHUP). */
  request(trigger: Trigger): void {
    this.enqueue(new Set([trigger]));
  }

  /** The schedule fired. Returns false when it was dropped because a retry is already armed. */
  resync(): boolean {
    if (this.stopped || this.retryTimer !== null) return false;
    this.enqueue(new Set(['resync']));
    return true;
  }

  status(): SchedulerStatus {
    return {
      running: this.draining,
      queued: this.pending ? [...this.pending] : [],
      failures: this.failures,
      nextRetryAt: this.retryAt,
    };
  }

  /** Resolves when no reconcile is running or queued (debounced changes aside). */
  idle(): Promise<void> {
    return this.drained;
  }

  /** Starts nothing new; resolves once the reconcile in flight (if any) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending = null;
    if (this.debounceTimer !== null) this.clock.clearTimeout(this.debounceTimer);
    this.debounceTimer = null;
    this.debounced.clear();
    this.cancelRetry();
    await this.drained;
  }

  private flushDebounce(): void {
    this.debounceTimer = null;
    const triggers = this.debounced;
    this.debounced = new Set();
    this.enqueue(triggers);
  }

  private enqueue(triggers: ReadonlySet<Trigger>): void {
    if (this.stopped || triggers.size === 0) return;
    this.pending ??= new Set();
    for (const t of triggers) this.pending.add(t);
    if (!this.draining) {
      this.draining = true;
      this.drained = this.drain();
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending !== null && !this.stopped) {
        const triggers = this.pending;
        this.pending = null;
        // Whatever runs now supersedes the armed retry; its own result decides the next one.
        this.cancelRetry();
        let result: RunResult;
        try {
          result = await this.opts.run(triggers);
        } catch (err) {
          this.opts.onRunError?.(err);
          result = 'failure';
        }
        if (result === 'success') this.failures = 0;
        else if (result === 'failure') {
          this.failures += 1;
          // A resync queued behind a failure would only repeat it without waiting: the retry covers it.
          if (this.pending !== null && [...this.pending].every((t) => t === 'resync' || t === 'retry')) this.pending = null;
        }
      }
    } finally {
      this.draining = false;
    }
    if (!this.stopped && this.failures > 0 && this.retryTimer === null) this.armRetry();
  }

  private armRetry(): void {
    const delay = backoffDelay(this.failures, this.backoffInitialMs, this.backoffMaxMs);
    this.retryAt = this.clock.now() + delay;
    this.retryTimer = this.clock.setTimeout(() => {
      this.retryTimer = null;
      this.retryAt = null;
      this.enqueue(new Set(['retry']));
    }, delay);
    this.opts.onRetryScheduled?.(delay, this.failures);
  }

  private cancelRetry(): void {
    if (this.retryTimer !== null) this.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
  }
}

/** The one trigger that names a coalesced reconcile in logs: the most telling of the set. */
export function primaryTrigger(triggers: Iterable<Trigger>): Trigger {
  const order: Trigger[] = ['revision', 'sighup', 'control', 'change', 'start', 'freeze-end', 'write-back', 'retry', 'resync'];
  const set = new Set(triggers);
  return order.find((t) => set.has(t)) ?? 'resync';
}
