import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LARGE_READ_DOCUMENTS, limitHeapGrowth } from '../../src/util/heap-growth.js';
import { assertBuilt, ROOT } from '../support/paths.js';

const MODULE = JSON.stringify(pathToFileURL(`${ROOT}/dist/util/heap-growth.js`).href);

/** What the process does first: nothing, the daemon's limit, a read of a plan told it has read `documents`. */
type Limit = 'none' | 'daemon' | { documentsRead: number };

function limiting(limit: Limit): string {
  if (limit === 'none') return '';
  if (limit === 'daemon') return `(await import(${MODULE})).limitHeapGrowth();`;
  return `const read = (await import(${MODULE})).limitGrowthOfLargeRead(); for (let n = 0; n <= ${limit.documentsRead}; n += 500) read(n); read(${limit.documentsRead});`;
}

/**
 * A process that keeps 40 MB live and makes garbage that outlives the young generation (as a
 * reconcile does), with a limit or without it: the number of full collections V8 made.
 */
function fullCollections(limit: Limit): number {
  assertBuilt();
  const script = `
    const { PerformanceObserver, constants } = await import('node:perf_hooks');
    ${limiting(limit)}
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

/** Without any limit: measured once for the tests below. */
let unlimitedCount: number | undefined;
const unlimitedCollections = (): number => (unlimitedCount ??= fullCollections('none'));

describe('limitHeapGrowth', () => {
  it('makes V8 collect its old generation after a small growth, where it let garbage pile up before', () => {
    const unlimited = unlimitedCollections();
    const limited = fullCollections('daemon');
    expect(limited).toBeGreaterThanOrEqual(2 * Math.max(1, unlimited));
  });

  it('holds the growth of a plan once its read is large, and not before', () => {
    const unlimited = unlimitedCollections();
    const small = fullCollections({ documentsRead: LARGE_READ_DOCUMENTS - 1 });
    const large = fullCollections({ documentsRead: LARGE_READ_DOCUMENTS });
    expect(large).toBeGreaterThan(Math.max(unlimited, small));
  });

  it('takes a positive whole percent only', () => {
    expect(() => limitHeapGrowth(0)).toThrow(RangeError);
    expect(() => limitHeapGrowth(2.5)).toThrow('heap growing percent must be a positive integer, got 2.5');
  });
});
