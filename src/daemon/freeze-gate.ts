// What freeze windows mean to the daemon: whether a reconcile may write, the status and metric that
// show the freeze, a reconcile when the window ends (the writes it held back go out), and the one
// reconcile `wsync ctl reconcile --override-freeze` lets write.
import type { Clock, TimerHandle } from './clock.js';
import { FreezeWindows, type FreezeState, type FreezeWindow } from './freeze.js';
import type { DaemonMetrics } from './metrics.js';
import type { DaemonStatus } from './status.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

export type FreezeDecision = { write: true; overridden?: FreezeState } | { write: false; frozen: FreezeState };

export class FreezeGate {
  private override = false;
  private endTimer: TimerHandle | null = null;
  private endAt: number | null = null;

  constructor(
    private windows: FreezeWindows | null,
    private readonly clock: Clock,
    private readonly status: DaemonStatus,
    private readonly metrics: DaemonMetrics,
    /** Asks for a reconcile (a window ended). */
    private readonly onEnd: () => void,
  ) {
    this.refresh();
  }

  /** The freeze now; the status and wsync_freeze_active follow it. */
  refresh(): FreezeState | undefined {
    if (this.windows === null) return undefined;
    const state = this.windows.stateAt(this.clock.now());
    const iso = (ms: number): string => new Date(ms).toISOString();
    this.status.freeze = {
      windows: this.windows.windows,
      active: state === undefined ? null : { window: state.window, since: iso(state.since), until: iso(state.until) },
    };
    this.metrics.freezeActive.set(state === undefined ? 0 : 1);
    return state;
  }

  /**
   * The windows a re-read configuration (SIGHUP) names: the new ones when they differ (the texts
   * now in force, [] for none), undefined when they are the same.
   */
  replace(windows: readonly FreezeWindow[]): string[] | undefined {
    const texts = windows.map((w) => w.text);
    const current = this.windows?.windows ?? [];
    if (texts.length === current.length && texts.every((t, i) => t === current[i])) return undefined;
    this.close();
    this.windows = windows.length > 0 ? new FreezeWindows(windows) : null;
    if (this.windows === null) {
      this.status.freeze = null;
      this.metrics.freezeActive.set(0);
    }
    this.refresh();
    return texts;
  }

  /** `wsync ctl reconcile --override-freeze`: the next reconcile writes even inside a window. */
  overrideNext(): void {
    this.override = true;
  }

  /** Whether the reconcile starting now may write as far as freezes go; uses up an override. */
  admit(): FreezeDecision {
    const state = this.refresh();
    const override = this.override;
    this.override = false;
    if (state === undefined) return { write: true };
    if (override) return { write: true, overridden: state };
    this.reconcileAt(state.until);
    return { write: false, frozen: state };
  }

  /** Reconciles once the window ends, so what it held back is written then, not at the next resync. */
  private reconcileAt(until: number): void {
    if (this.endAt === until) return;
    if (this.endTimer !== null) this.clock.clearTimeout(this.endTimer);
    this.endAt = until;
    // A timer waits at most ~24.8 days (2^31 ms); a longer window is looked at again then.
    this.endTimer = this.clock.setTimeout(() => {
      this.endTimer = null;
      this.endAt = null;
      const still = this.refresh();
      if (still === undefined) this.onEnd();
      else this.reconcileAt(still.until);
    }, Math.min(MAX_TIMER_MS, Math.max(0, until - this.clock.now())));
    if (typeof (this.endTimer as { unref?: () => void }).unref === 'function') (this.endTimer as { unref: () => void }).unref();
  }

  close(): void {
    if (this.endTimer !== null) this.clock.clearTimeout(this.endTimer);
    this.endTimer = null;
    this.endAt = null;
    this.windows?.close();
  }
}
