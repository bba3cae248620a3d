import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { limitHeapGrowth } from '../../src/daemon/heap-growth.js';
import { assertBuilt, ROOT } from '../support/paths.js';

/**
 * A process that keeps 40 MB live and makes garbage that outlives the young generation (as a
 * reconcile does), with the daemon's limit or without it: the number of full collections V8 made.
 */
function fullCollections(limited: boolean): number {
  assertBuilt();
  const script = `
    const { PerformanceObserver, constants } = await import('node:perf_hooks');
    ${limited ? `(await import(${JSON.stringify(pathToFileURL(`${ROOT}/dist/daemon/heap-growth.js`).href)})).limitHeapGrowth();` : ''}
    let majors = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; }).observe({ entryTypes: ['gc'] });
    const live = Array.from({ length: 400_000 }, (_, i) => ({ id: 'live-' + i, n: i }));
    for (let round = 0; round < 30; round++) {
      const held = Array.from({ length: 60_000 }, (_, i) => ({ id: 'held-' + round + '-' + i, list: [i, round] }));
      await new Promise((r) => setTimeout(r, 5));
      held.length = 0;
    }
    await new Promise((r) => setTimeout(r, 50));
    console.log(JSON.stringify({ majors, live: live.length }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { majors: number }).majors;
}

describe('limitHeapGrowth', () => {
  it('makes V8 collect its old generation after a small growth, where it let garbage pile up before', () => {
    const unlimited = fullCollections(false);
    const limited = fullCollections(true);
    expect(limited).toBeGreaterThanOrEqual(2 * Math.max(1, unlimited));
  });

  it('takes a positive whole percent only', () => {
    expect(() => limitHeapGrowth(0)).toThrow(RangeError);
    expect(() => limitHeapGrowth(2.5)).toThrow('heap growing percent must be a positive integer, got 2.5');
  });
});
