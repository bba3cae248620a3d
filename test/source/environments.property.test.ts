// Rendering an environment is deterministic, and a tree without environments reads exactly as
// its files do without any environment machinery (desiredFromTexts: no wsync.yaml, no overlays).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Desired } from '../../src/core/types.js';
import { desiredFromTexts, readDesired } from '../../src/source/index.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-env-property-');

const NAMES = ['a', 'b', 'c', 'd'];

const notifier = (name: string, email: string): string =>
  `apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: ${name}\nspec:\n  properties:\n    email:\n      emails: [${email}@example.com]\n`;

const monitor = (name: string, threshold: string, notifiers: string[]): string =>
  `apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: ${name}\nspec:\n  type: Threshold\n  aplQuery: "['app'] | count"\n  operator: Above\n  threshold: ${threshold}\n  notifiers: [${notifiers.join(', ')}]\n`;

const file = fc.record({
  notifiers: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 }),
  monitor: fc.option(fc.record({ threshold: fc.oneof(fc.integer({ min: 0, max: 99 }).map(String), fc.constant('${var:t}'), fc.constant('"x${var:t}"')), notifiers: fc.subarray(NAMES) })),
});

/** Files of a tree: a few YAML files, with an `environments/` folder of ordinary files sometimes. */
const treeFiles = fc.record({
  files: fc.array(file, { minLength: 1, maxLength: 4 }),
  environmentsFolder: fc.boolean(),
}).map(({ files, environmentsFolder }) => {
  const out: Record<string, string> = {};
  files.forEach((f, i) => {
    const docs = f.notifiers.map((n) => notifier(`${n}${i}`, n));
    if (f.monitor) docs.push(monitor(`m${i}`, f.monitor.threshold, f.monitor.notifiers.map((n) => `${n}${i}`)));
    out[`${environmentsFolder && i === 0 ? 'environments/x/' : ''}f${i}.yaml`] = docs.join('---\n');
  });
  return out;
});

/** What a read yields, without the places where a Desired may hold lazily computed records. */
function shape(desired: Desired): unknown {
  return {
    resources: desired.resources.map((r) => ({ kind: r.kind, key: r.key, spec: r.spec, source: r.source, interpolated: r.interpolated })),
    diagnostics: desired.diagnostics.map((d) => ({ ...d })),
    stats: desired.stats,
    skips: desired.skips,
  };
}

describe('rendering environments', () => {
  it('a tree without environments reads as its files do (no wsync.yaml, no overlays, environments/ an ordinary folder)', async () => {
    await fc.assert(
      fc.asyncProperty(treeFiles, async (files) => {
        const dir = scratch.tree(files);
        const read = await readDesired(dir, { env: {} });
        const texts = desiredFromTexts(Object.entries(files).map(([path, text]) => ({ path, text })), { env: {} });
        expect(shape(read)).toEqual(shape(texts));
        expect(read.environment).toBeUndefined();
      }),
      { numRuns: 25 },
    );
  });

  it('rendering an environment twice gives the same result; an overlay-free environment with the variables written out is the tree', async () => {
    await fc.assert(
      fc.asyncProperty(treeFiles, fc.integer({ min: 0, max: 99 }), async (files, t) => {
        const dir = scratch.tree({ ...files, 'wsync.yaml': `environments:\n  one:\n    vars: { t: ${t} }\n  x: {}\n` });
        const first = await readDesired(dir, { env: {}, environment: 'one' });
        const second = await readDesired(dir, { env: {}, environment: 'one' });
        expect(shape(second)).toEqual(shape(first));
        const written = Object.fromEntries(
          Object.entries(files)
            .filter(([path]) => !path.startsWith('environments/'))
            .map(([path, text]) => [path, text.replaceAll('${var:t}', String(t))]),
        );
        const plain = desiredFromTexts(Object.entries(written).map(([path, text]) => ({ path, text })), { env: {} });
        expect(first.resources.map((r) => [r.kind, r.key, r.spec])).toEqual(plain.resources.map((r) => [r.kind, r.key, r.spec]));
      }),
      { numRuns: 25 },
    );
  });
});
