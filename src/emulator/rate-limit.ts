// Fixed one-second windows aligned to whole epoch seconds (docs/wire-contract.md "Rate limit").
import { UNLIMITED_RATE } from './constants.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the current window ends. */
  reset: number;
}

export class RateLimiter {
  private window = -1;
  private count = 0;
  private limitPerSecond: number;

  constructor(limit: number | undefined) {
    this.limitPerSecond = limit ?? UNLIMITED_RATE;
  }

  get limit(): number {
    return this.limitPerSecond;
  }

  /** `undefined` lifts the limit (headers then report 1,000,000). */
  setLimit(limit: number | undefined): void {
    this.limitPerSecond = limit ?? UNLIMITED_RATE;
  }

  take(nowMs: number): RateDecision {
    const window = Math.floor(nowMs / 1000);
    if (window !== this.window) {
      this.window = window;
      this.count = 0;
    }
    this.count += 1;
    const limit = this.limitPerSecond;
    return { allowed: this.count <= limit, limit, remaining: Math.max(0, limit - this.count), reset: window + 1 };
  }
}
