// Client-side pacing so the server's rate limit is never reached, instead of provoking 429s.
//
// The service gives X-RateLimit-Limit per minute and X-RateLimit-Reset in epoch seconds (docs'
// api-limits page; docs/wire-contract.md "Rate limit"). In such a long window the limiter spends
// what the server says remains, less the requests still in flight (the server may not have counted
// them yet), then waits for the reset. An answer close to a minute's end names that minute's reset,
// so it is not taken for a one-second window; only a new window ending within the second is one.
// The emulator can also count in one-second windows (tests and benches): there the limiter keeps
// its own count per server window (every request it lets through, in flight or answered), raises
// it to what the server reports (other clients may share the limit), spreads the window's slots
// evenly over the second, and waits for the next window when the count reaches the limit. A 429
// stops everything until its Retry-After.

export interface LimiterClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: LimiterClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

export interface RateLimitObservation {
  /** Client clock when the request was sent and when its answer arrived. */
  sentAt: number;
  receivedAt: number;
  status: number;
  limit?: number;
  remaining?: number;
  /** Raw X-RateLimit-Reset: epoch seconds when the current window ends. */
  reset?: number;
  /** Retry-After of a 429, in milliseconds from `receivedAt`. */
  retryAfterMs?: number;
}

const WINDOW_MS = 1000;
/** A reset value above this is epoch seconds; below, seconds from now. */
const EPOCH_SECONDS_FLOOR = 1e9;
const RTT_SAMPLES = 16;
/** A window ending further ahead than this is not a one-second window. */
const LONG_WINDOW_MS = 1500;

export class RateLimiter {
  private limit: number | undefined;
  /** Some answer has come, so the limit (or its absence) is known. */
  private learned = false;
  private probing = false;
  private probeDone = deferred();
  /** Server window (epoch second) -> slots taken in it. */
  private readonly used = new Map<number, number>();
  /** Bounds of (server clock - client clock) in ms consistent with every Reset seen. */
  private offsetLo = -Infinity;
  private offsetHi = Infinity;
  /** Client clock before which nothing is sent (a 429's Retry-After). */
  private blockedUntil = 0;
  private readonly rtts: number[] = [];
  /** The server counts in one-second windows aligned to epoch seconds (the wire contract). */
  private perSecond = false;
  /**
   * For longer windows: what remained at the last answer, when the window resets (client clock), and
   * the requests let through since that answer or in flight at it (not all of them counted yet).
   */
  private longWindow: { endsAt: number; remaining: number; sentSince: number; reset: number; sentAt: number } | undefined;
  /** Requests let through and not yet answered. */
  private inFlight = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly clock: LimiterClock = systemClock) {}

  /** Resolves when one request may be sent; callers are served in order. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Learns from an answer's rate-limit headers. */
  observe(o: RateLimitObservation): void {
    this.finishProbe(true);
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.rtts.push(Math.max(0, o.receivedAt - o.sentAt));
    if (this.rtts.length > RTT_SAMPLES) this.rtts.shift();
    const exhausted = o.status === 429 || o.remaining === 0;
    if (o.status === 429 && o.retryAfterMs !== undefined) this.blockUntil(o.receivedAt + o.retryAfterMs);
    if (o.limit !== undefined && o.limit > 0) this.limit = o.limit;
    const limit = this.limit;
    if (limit === undefined || o.reset === undefined) return;

    const epoch = o.reset > EPOCH_SECONDS_FLOOR;
    const untilReset = epoch ? o.reset * WINDOW_MS - (o.receivedAt + this.offset()) : o.reset * 1000;
    // An answer in the last second of a long window names that window's reset: still the long window.
    const inLongWindow = epoch && this.longWindow !== undefined && o.reset === this.longWindow.reset;
    if (inLongWindow || !epoch || untilReset > LONG_WINDOW_MS) {
      // Not one-second windows (the per-minute limit, or a Reset in seconds from now): no per-second
      // pacing; spend what the server says remains, then wait for its reset.
      this.perSecond = false;
      // An answer from a window already over (sent before its reset, answered after) says nothing of this one.
      const held = this.longWindow;
      if (epoch && held && o.reset < held.reset && o.sentAt <= held.sentAt) return;
      const remaining = exhausted ? 0 : (o.remaining ?? limit);
      this.longWindow = { endsAt: o.receivedAt + Math.max(0, untilReset), remaining, sentSince: this.inFlight, reset: o.reset, sentAt: o.sentAt };
      return;
    }
    // A new window that ends within the second: the server counts per second.
    this.perSecond = true;
    this.longWindow = undefined;
    this.learnOffset(o.reset, o.sentAt, o.receivedAt);
    const window = o.reset - 1;
    if (window >= this.currentWindow() - 1) {
      const serverUsed = exhausted ? limit : o.remaining !== undefined ? limit - o.remaining : 0;
      this.used.set(window, Math.max(this.used.get(window) ?? 0, serverUsed));
    }
  }

  /** The attempt got no answer: let the requests waiting on a first answer go on. */
  noAnswer(): void {
    this.finishProbe(false);
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** The limit learned from the server, if any (for tests and stats). */
  get knownLimit(): number | undefined {
    return this.limit;
  }

  private async waitForSlot(): Promise<void> {
    // Until the first answer shows the limit, one request at a time: a burst could exceed a small limit.
    while (!this.learned) {
      if (!this.probing) {
        this.probing = true;
        this.inFlight++;
        return;
      }
      await this.probeDone.promise;
    }
    for (;;) {
      const clientNow = this.clock.now();
      if (this.blockedUntil > clientNow) {
        await this.clock.sleep(this.blockedUntil - clientNow);
        continue;
      }
      const limit = this.limit;
      if (limit === undefined) {
        this.inFlight++;
        return;
      }
      if (!this.perSecond) {
        const long = this.longWindow;
        if (long && clientNow < long.endsAt && long.remaining - long.sentSince <= 0) {
          await this.clock.sleep(long.endsAt - clientNow + 1);
          continue;
        }
        if (long) long.sentSince++;
        this.inFlight++;
        return;
      }
      const now = clientNow + this.offset();
      const window = Math.floor(now / WINDOW_MS);
      const windowEnd = (window + 1) * WINDOW_MS;
      const used = this.used.get(window) ?? 0;
      if (used >= limit) {
        await this.clock.sleep(windowEnd - now + 1);
        continue;
      }
      // Slot `used` of this window opens at an even share of the second, so the window's requests spread.
      const slotAt = window * WINDOW_MS + (used * WINDOW_MS) / limit;
      if (slotAt - now > 1) {
        await this.clock.sleep(slotAt - now);
        continue;
      }
      this.used.set(window, used + 1);
      // Sent this close to the window's end, it may be counted in the next one: charge both.
      if (windowEnd - now <= this.arrivalGuardMs()) this.used.set(window + 1, (this.used.get(window + 1) ?? 0) + 1);
      for (const w of this.used.keys()) if (w < window - 1) this.used.delete(w);
      this.inFlight++;
      return;
    }
  }

  private finishProbe(answered: boolean): void {
    if (answered) this.learned = true;
    if (!this.probing) return;
    this.probing = false;
    const done = this.probeDone;
    this.probeDone = deferred();
    done.resolve();
  }

  private blockUntil(at: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, at);
  }

  private currentWindow(): number {
    return Math.floor((this.clock.now() + this.offset()) / WINDOW_MS);
  }

  /**
   * The server processed the request between sentAt and receivedAt (server clock = client clock +
   * offset) and inside the window ending at `reset`: that bounds the offset. On one machine 0 always
   * fits; a remote server with a skewed clock is found out after a few answers near a window edge.
   */
  private learnOffset(reset: number, sentAt: number, receivedAt: number): void {
    const lo = (reset - 1) * WINDOW_MS - receivedAt;
    const hi = reset * WINDOW_MS - sentAt;
    let nextLo = Math.max(this.offsetLo, lo);
    let nextHi = Math.min(this.offsetHi, hi);
    if (nextLo > nextHi) {
      // A clock moved: start again from this answer alone.
      nextLo = lo;
      nextHi = hi;
    }
    this.offsetLo = nextLo;
    this.offsetHi = nextHi;
  }

  private offset(): number {
    if (this.offsetLo > 0) return this.offsetLo;
    if (this.offsetHi < 0) return this.offsetHi;
    return 0;
  }

  /** How long a request may take to reach the server: half the fastest recent round trip, plus a margin. */
  private arrivalGuardMs(): number {
    if (this.rtts.length === 0) return 2;
    return Math.min(100, Math.min(...this.rtts) / 2 + 2);
  }
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
