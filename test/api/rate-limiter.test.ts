import { describe, expect, it } from 'vitest';
import { RateLimiter, type LimiterClock } from '../../src/api/rate-limiter.js';
import { flush } from '../support/fake-clock.js';

/** A clock whose sleep moves time forward at once, so pacing is checked without waiting. */
class FakeClock implements LimiterClock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  async sleep(ms: number): Promise<void> {
    this.t += Math.max(0, ms);
    await Promise.resolve();
  }
}

const START = Date.parse('2026-11-21T17:45:00.300Z');
const windowOf = (ms: number): number => Math.floor(ms / 1000);

/** An answer as the emulator gives it: fixed windows aligned to epoch seconds. */
function observeAnswer(limiter: RateLimiter, at: number, limit: number, usedInWindow: number, status = 200): void {
  limiter.observe({
    sentAt: at,
    receivedAt: at,
    status,
    limit,
    remaining: Math.max(0, limit - usedInWindow),
    reset: windowOf(at) + 1,
  });
}

async function sendTimes(limiter: RateLimiter, clock: FakeClock, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await limiter.acquire();
    times.push(clock.now());
  }
  return times;
}

function perWindow(times: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(windowOf(t), (counts.get(windowOf(t)) ?? 0) + 1);
  return counts;
}

/** An acquire that the test proves is still waiting; `granted` resolves when it is let through. */
async function blockedAcquire(limiter: RateLimiter): Promise<{ granted: Promise<void> }> {
  let done = false;
  const granted = limiter.acquire().then(() => {
    done = true;
  });
  await flush();
  expect(done).toBe(false);
  return { granted };
}

describe('RateLimiter', () => {
  it('lets one request through until the first answer shows the limit', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    const second = await blockedAcquire(limiter);
    observeAnswer(limiter, clock.now(), 10, 1);
    await second.granted;
    expect(limiter.knownLimit).toBe(10);
  });

  it('lets the next request probe when the first got no answer', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    const second = await blockedAcquire(limiter);
    limiter.noAnswer();
    await second.granted;
    // It probes alone: a third waits for the second's answer; nothing was learned or waited for.
    const third = await blockedAcquire(limiter);
    expect(limiter.knownLimit).toBeUndefined();
    observeAnswer(limiter, clock.now(), 10, 2);
    await third.granted;
    expect(clock.now()).toBe(START);
  });

  it('never lets more than the limit into one server window, and spreads them over the second', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    observeAnswer(limiter, clock.now(), 10, 1);
    const times = await sendTimes(limiter, clock, 45);
    for (const count of perWindow([START, ...times]).values()) expect(count).toBeLessThanOrEqual(10);
    // 46 requests at 10 per second starting 300 ms into a window: the last one in the fifth window.
    expect(windowOf(times.at(-1)!) - windowOf(START)).toBe(4);
    // Inside a full window, requests are ~100 ms apart rather than in one burst.
    const full = times.filter((t) => windowOf(t) === windowOf(START) + 2);
    expect(full).toHaveLength(10);
    for (let i = 1; i < full.length; i++) expect(full[i]! - full[i - 1]!).toBeGreaterThanOrEqual(99);
  });

  it('waits for the next window when the server says none remain (another client used them)', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    observeAnswer(limiter, clock.now(), 100, 100);
    await limiter.acquire();
    expect(clock.now()).toBeGreaterThanOrEqual((windowOf(START) + 1) * 1000);
  });

  it('stops everything until Retry-After after a 429', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    limiter.observe({ sentAt: START, receivedAt: START, status: 429, retryAfterMs: 2000 });
    await limiter.acquire();
    expect(clock.now()).toBeGreaterThanOrEqual(START + 2000);
  });

  it('places requests in the server windows when the server clock is ahead', async () => {
    const skew = 400;
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    const serverTimes: number[] = [];
    // Answer every request as a server whose clock runs `skew` ms ahead would.
    const used = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      await limiter.acquire();
      const serverNow = clock.now() + skew;
      serverTimes.push(serverNow);
      const w = windowOf(serverNow);
      used.set(w, (used.get(w) ?? 0) + 1);
      limiter.observe({
        sentAt: clock.now(),
        receivedAt: clock.now() + 1,
        status: 200,
        limit: 10,
        remaining: Math.max(0, 10 - used.get(w)!),
        reset: w + 1,
      });
    }
    for (const count of used.values()) expect(count).toBeLessThanOrEqual(10);
    // Once the offset is known, the slots follow the server's seconds: a full server window holds
    // ten requests ~100 ms apart, starting at its beginning.
    const third = serverTimes.filter((t) => windowOf(t) === windowOf(serverTimes[0]!) + 3);
    expect(third).toHaveLength(10);
    expect(third[0]! % 1000).toBeLessThan(5);
    for (let i = 1; i < third.length; i++) expect(third[i]! - third[i - 1]!).toBeGreaterThanOrEqual(99);
  });

  it('does not pace when the server sends no rate-limit headers', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    limiter.observe({ sentAt: START, receivedAt: START, status: 200 });
    await sendTimes(limiter, clock, 50);
    expect(clock.now()).toBe(START);
  });

  it('spends what remains of a longer window (a per-minute limit), then waits for its reset', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    const reset = windowOf(START) + 60;
    limiter.observe({ sentAt: START, receivedAt: START, status: 200, limit: 600, remaining: 3, reset });
    const times = await sendTimes(limiter, clock, 4);
    // No per-second pacing for a per-minute limit: three at once, the fourth after the reset.
    expect(times.slice(0, 3)).toEqual([START, START, START]);
    expect(times[3]).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('counts requests still in flight against what a per-minute window says remains', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    const reset = windowOf(START) + 60;
    limiter.observe({ sentAt: START, receivedAt: START, status: 200, limit: 600, remaining: 5, reset });
    await sendTimes(limiter, clock, 4);
    // One of the four is answered: the server counted it (4 remain), the other three may not be counted yet.
    limiter.observe({ sentAt: START, receivedAt: START, status: 200, limit: 600, remaining: 4, reset });
    await limiter.acquire();
    expect(clock.now()).toBe(START);
    // 4 remaining - 3 in flight - 1 just sent: the next waits for the minute's end.
    await limiter.acquire();
    expect(clock.now()).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('keeps a per-minute limit per minute when an answer comes in the last second of the window', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    const minuteEnd = (windowOf(START) + 60) * 1000;
    limiter.observe({ sentAt: START, receivedAt: START, status: 200, limit: 600, remaining: 500, reset: minuteEnd / 1000 });
    clock.t = minuteEnd - 400;
    await limiter.acquire();
    limiter.observe({ sentAt: clock.t, receivedAt: clock.t, status: 200, limit: 600, remaining: 2, reset: minuteEnd / 1000 });
    // Read as a one-second window, 600 would be spread over the next second; here two go at once, then the reset.
    const times = await sendTimes(limiter, clock, 3);
    expect(times.slice(0, 2)).toEqual([minuteEnd - 400, minuteEnd - 400]);
    expect(times[2]).toBeGreaterThanOrEqual(minuteEnd);
  });

  it('reads a small Reset as seconds from now', async () => {
    const clock = new FakeClock(START);
    const limiter = new RateLimiter(clock);
    await limiter.acquire();
    limiter.observe({ sentAt: START, receivedAt: START, status: 200, limit: 50, remaining: 0, reset: 5 });
    await limiter.acquire();
    expect(clock.now()).toBeGreaterThanOrEqual(START + 5000);
  });
});
