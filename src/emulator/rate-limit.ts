// Fixed windows aligned to whole epoch seconds, one minute long by default: the docs' api-limits
// page gives X-RateLimit-Limit per minute (docs/wire-contract.md "Rate limit"). Each scope (the
// user behind a personal token, or the organization for API tokens) has its own count.
import { UNLIMITED_RATE } from './constants.js';

export type RateScope = 'user' | 'organization';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the current window ends. */
  reset: number;
  scope: RateScope;
}

/** The documented window: X-RateLimit-Limit is per minute. */
export const DEFAULT_RATE_WINDOW_SECONDS = 60;

export class RateLimiter {
  private readonly counts = new Map<RateScope, { window: number; count: number }>();
  private limitPerWindow: number;
  private windowSeconds: number;

  constructor(limit: number | undefined, windowSeconds: number = DEFAULT_RATE_WINDOW_SECONDS) {
    this.limitPerWindow = limit ?? UNLIMITED_RATE;
    this.windowSeconds = windowSeconds;
  }

  get limit(): number {
    return this.limitPerWindow;
  }

  get window(): number {
    return this.windowSeconds;
  }

  /** `undefined` lifts the limit (headers then report 1,000,000). */
  setLimit(limit: number | undefined): void {
    this.limitPerWindow = limit ?? UNLIMITED_RATE;
  }

  setWindow(seconds: number): void {
    this.windowSeconds = seconds;
    this.counts.clear();
  }

  take(nowMs: number, scope: RateScope): RateDecision {
    const window = Math.floor(nowMs / 1000 / this.windowSeconds);
    let held = this.counts.get(scope);
    if (held?.window !== window) {
      held = { window, count: 0 };
      this.counts.set(scope, held);
    }
    held.count += 1;
    const limit = this.limitPerWindow;
    return {
      allowed: held.count <= limit,
      limit,
      remaining: Math.max(0, limit - held.count),
      reset: (window + 1) * this.windowSeconds,
      scope,
    };
  }
}
