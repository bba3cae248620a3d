import { describe, expect, it } from 'vitest';
import { backoffDelay, primaryTrigger, Scheduler, type RunResult, type Trigger } from '../../src/daemon/scheduler.js';
import { FakeClock, flush } from '../support/fake-clock.js';

/** A run function whose calls stay open until the test resolves them. */
function controlledRun() {
  const calls: { triggers: Trigger[]; finish: (r: RunResult) => void; fail: (e: Error) => void }[] = [];
  let active = 0;
  let maxActive = 0;
  const run = (triggers: ReadonlySet<Trigger>): Promise<RunResult> =>
    new Promise<RunResult>((resolve, reject) => {
      active++;
      maxActive = Math.max(maxActive, active);
      calls.push({
        triggers: [...triggers].sort(),
        finish: (r) => {
          active--;
          resolve(r);
        },
        fail: (e) => {
          active--;
          reject(e);
        },
      });
    });
  return { run, calls, maxActive: () => maxActive };
}

function setup(opts: { debounceMs?: number; maxDebounceMs?: number } = {}) {
  const clock = new FakeClock();
  const r = controlledRun();
  const retries: number[] = [];
  const errors: unknown[] = [];
  const scheduler = new Scheduler({
    run: r.run,
    clock,
    debounceMs: opts.debounceMs ?? 200,
    maxDebounceMs: opts.maxDebounceMs,
    backoffInitialMs: 1000,
    backoffMaxMs: 300_000,
    onRetryScheduled: (d) => retries.push(d),
    onRunError: (e) => errors.push(e),
  });
  return { clock, scheduler, calls: r.calls, maxActive: r.maxActive, retries, errors };
}

describe('backoffDelay', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 1000, 300_000))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(9, 1000, 300_000)).toBe(256_000);
    expect(backoffDelay(10, 1000, 300_000)).toBe(300_000);
    expect(backoffDelay(500, 1000, 300_000)).toBe(300_000);
    expect(backoffDelay(0)).toBe(0);
  });
});

describe('primaryTrigger', () => {
  it('names a coalesced run after its most telling trigger', () => {
    expect(primaryTrigger(['resync', 'change'])).toBe('change');
    expect(primaryTrigger(['change', 'revision'])).toBe('revision');
    expect(primaryTrigger(['retry'])).toBe('retry');
  });
});

describe('Scheduler', () => {
  it('debounces a burst of changes into one run after the quiet period', async () => {
    const { clock, scheduler, calls } = setup();
    scheduler.notify('change');
    await clock.advance(150);
    scheduler.notify('change');
    await clock.advance(150);
    scheduler.notify('change');
    await clock.advance(199);
    expect(calls).toHaveLength(0);
    await clock.advance(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.triggers).toEqual(['change']);
  });

  it('does not let a steady stream of changes hold the run back past the max wait', async () => {
    const { clock, scheduler, calls } = setup({ debounceMs: 200, maxDebounceMs: 1000 });
    for (let i = 0; i < 20; i++) {
      scheduler.notify('change');
      await clock.advance(100);
    }
    // Started at t=0: the run must have come at t=1000 although changes never paused for 200 ms.
    expect(calls.length).toBeGreaterThanOrEqual(1);
  });

  it('runs one reconcile at a time and queues at most one, merging what arrives meanwhile', async () => {
    const { clock, scheduler, calls, maxActive } = setup();
    scheduler.request('start');
    await flush();
    expect(calls).toHaveLength(1);
    scheduler.request('sighup');
    scheduler.resync();
    scheduler.notify('change');
    await clock.advance(500);
    scheduler.notify('revision');
    await clock.advance(500);
    expect(calls).toHaveLength(1);
    expect(scheduler.status().queued.sort()).toEqual(['change', 'resync', 'revision', 'sighup']);
    calls[0]?.finish('success');
    await flush();
    expect(calls).toHaveLength(2);
    expect(calls[1]?.triggers).toEqual(['change', 'resync', 'revision', 'sighup']);
    calls[1]?.finish('success');
    await clock.advance(10_000);
    expect(calls).toHaveLength(2);
    expect(maxActive()).toBe(1);
  });

  it('backs off exponentially after failures and resets on success', async () => {
    const { clock, scheduler, calls, retries } = setup();
    scheduler.request('start');
    await flush();
    calls[0]?.finish('failure');
    await flush();
    expect(retries).toEqual([1000]);
    await clock.advance(999);
    expect(calls).toHaveLength(1);
    await clock.advance(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.triggers).toEqual(['retry']);
    calls[1]?.finish('failure');
    await flush();
    // Second failure: 2 s.
    await clock.advance(2000);
    expect(calls).toHaveLength(3);
    calls[2]?.finish('failure');
    await clock.advance(4000);
    expect(calls).toHaveLength(4);
    expect(retries).toEqual([1000, 2000, 4000]);
    calls[3]?.finish('success');
    await clock.advance(600_000);
    expect(calls).toHaveLength(4);
    expect(scheduler.status().failures).toBe(0);
    // The next failure starts again from the initial delay.
    scheduler.request('sighup');
    await flush();
    calls[4]?.finish('failure');
    await flush();
    expect(retries.at(-1)).toBe(1000);
  });

  it('caps the backoff at five minutes', async () => {
    const { clock, scheduler, calls, retries } = setup();
    scheduler.request('start');
    for (let i = 0; i < 12; i++) {
      await flush();
      calls[i]?.finish('failure');
      await clock.advance(300_000);
    }
    expect(Math.max(...retries)).toBe(300_000);
    expect(retries.slice(0, 3)).toEqual([1000, 2000, 4000]);
  });

  it('lets a change run at once during backoff, but not a scheduled resync', async () => {
    const { clock, scheduler, calls } = setup();
    scheduler.request('start');
    await flush();
    calls[0]?.finish('failure');
    await flush();
    expect(scheduler.status().nextRetryAt).toBe(1000);
    expect(scheduler.resync()).toBe(false);
    await flush();
    expect(calls).toHaveLength(1);
    scheduler.notify('change');
    await clock.advance(200);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.triggers).toEqual(['change']);
    // The change run supersedes the armed retry.
    expect(scheduler.status().nextRetryAt).toBeNull();
    calls[1]?.finish('success');
    await clock.advance(600_000);
    expect(calls).toHaveLength(2);
  });

  it('drops a resync queued behind a failing run; the retry covers it', async () => {
    const { clock, scheduler, calls } = setup();
    scheduler.request('start');
    await flush();
    expect(scheduler.resync()).toBe(true);
    calls[0]?.finish('failure');
    await flush();
    expect(calls).toHaveLength(1);
    await clock.advance(1000);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.triggers).toEqual(['retry']);
  });

  it('treats a run that throws as a failure and keeps going', async () => {
    const { clock, scheduler, calls, errors } = setup();
    scheduler.request('start');
    await flush();
    calls[0]?.fail(new Error('boom'));
    await flush();
    expect(errors).toHaveLength(1);
    expect(scheduler.status().failures).toBe(1);
    await clock.advance(1000);
    expect(calls).toHaveLength(2);
  });

  it('a skipped run neither resets nor adds to the failures', async () => {
    const { scheduler, calls } = setup();
    scheduler.request('start');
    await flush();
    calls[0]?.finish('failure');
    await flush();
    scheduler.request('sighup');
    await flush();
    calls[1]?.finish('skipped');
    await flush();
    expect(scheduler.status().failures).toBe(1);
  });

  it('stop waits for the run in flight and starts nothing after it', async () => {
    const { clock, scheduler, calls } = setup();
    scheduler.request('start');
    await flush();
    scheduler.request('sighup');
    scheduler.notify('change');
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await flush();
    expect(stopped).toBe(false);
    calls[0]?.finish('failure');
    await stopping;
    expect(stopped).toBe(true);
    await clock.advance(600_000);
    expect(calls).toHaveLength(1);
    scheduler.request('start');
    scheduler.notify('change');
    await clock.advance(1000);
    expect(calls).toHaveLength(1);
    expect(clock.pending()).toEqual([]);
  });
});
