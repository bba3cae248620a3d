import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileCache, RACY_MS } from '../../../src/source/read/file-cache.js';
import { readDesired } from '../../../src/source/index.js';
import { makeTree } from '../../support/tree.js';
import { monitorYaml, notifierYaml } from '../../support/yaml.js';

const trees: (() => void)[] = [];
afterAll(() => trees.forEach((cleanup) => cleanup()));

function tree(): string {
  const { dir, cleanup } = makeTree({ 'notifiers.yaml': notifierYaml('team-email'), 'monitors.yaml': monitorYaml('checkout-errors', 10) });
  trees.push(cleanup);
  return dir;
}

/** A cache whose clock the test moves: `ahead` puts every change of the files that far in the past. */
function cacheWithClock(): { cache: FileCache; ahead: (ms: number) => void } {
  let offset = 0;
  return { cache: new FileCache({ now: () => Date.now() + offset }), ahead: (ms) => (offset = ms) };
}

async function threshold(dir: string, cache: FileCache): Promise<unknown> {
  const desired = await readDesired(dir, { env: {}, cache });
  return desired.resources.find((r) => r.kind === 'Monitor')?.spec.threshold;
}

describe('the file cache', () => {
  it('reads again a file changed within the racy window, even to the same size: its stamp is not trusted yet', async () => {
    const dir = tree();
    const { cache } = cacheWithClock();
    expect(await threshold(dir, cache)).toBe(10);
    // Same size, written right after the read: the change time may not have moved.
    writeFileSync(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 42));
    expect(await threshold(dir, cache)).toBe(42);
    expect(cache.unread).toBe(0);
    expect(cache.misses).toBe(1);
  });

  it('serves a file whose stamp is older than the racy window without reading it, and sees any write after', async () => {
    const dir = tree();
    const { cache, ahead } = cacheWithClock();
    await threshold(dir, cache);
    ahead(RACY_MS + 1000);
    // Read and hashed once more (no stamp was kept at the first read): the stamps are kept now.
    await threshold(dir, cache);
    expect([cache.hits, cache.unread]).toEqual([2, 0]);
    const first = await readDesired(dir, { env: {}, cache });
    expect([cache.hits, cache.unread, cache.misses]).toEqual([2, 2, 0]);
    // The very objects of the last read.
    const again = await readDesired(dir, { env: {}, cache });
    expect(again.resources[0]).toBe(first.resources[0]);

    // The same size again: the change time moved, so the stamp did.
    writeFileSync(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 77));
    expect(await threshold(dir, cache)).toBe(77);
    expect([cache.unread, cache.misses]).toEqual([1, 1]);
  });

  it('never keeps a stamp for a file with ${: it depends on more than its text', async () => {
    const { dir, cleanup } = makeTree({ 'monitors.yaml': monitorYaml('checkout-errors', 10).replace('operator: Above', 'operator: ${env:OPERATOR}') });
    trees.push(cleanup);
    const { cache, ahead } = cacheWithClock();
    ahead(RACY_MS + 1000);
    for (const operator of ['Above', 'Below']) {
      const desired = await readDesired(dir, { env: { OPERATOR: operator }, cache });
      expect(desired.resources[0]?.spec.operator).toBe(operator);
      expect(cache.unread).toBe(0);
    }
  });
});
