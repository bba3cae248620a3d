// Property (#12): the daemon's incremental path (the file cache and the planner's memo, kept across
// a sequence of edits) gives exactly what reading and planning from nothing gives, after every edit:
// files added, changed and deleted, a resource moved between files, the same name in two files,
// broken files, a secret reference.
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Desired, LiveState } from '../../src/core/types.js';
import { planChanges } from '../../src/plan/index.js';
import { PlanMemo } from '../../src/plan/plan-memo.js';
import { FileCache } from '../../src/source/read/file-cache.js';
import { readDesired } from '../../src/source/index.js';
import { HASH_KEY, inventoryOf, liveOf, obj, owns, policyOf } from './builders.js';

const FILES = ['a.yaml', 'b.yaml', 'sub/c.yaml', 'd.yml'];
const MONITORS = ['m0', 'm1', 'm2', 'm3'];
const NOTIFIERS = ['n0', 'n1'];
const ENV = { HOOK: 'https://example.com/secret-hook' };

const notifierDoc = (name: string, email: string): string =>
  ['apiVersion: wsync/v1', 'kind: Notifier', 'metadata:', `  name: ${name}`, 'spec:', '  properties:', '    email:', `      emails: [${email}]`].join('\n');

const monitorDoc = (name: string, threshold: number, notifier: string): string =>
  [
    'apiVersion: wsync/v1',
    'kind: Monitor',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  type: Threshold',
    `  aplQuery: "['app'] | count"`,
    '  operator: Above',
    `  threshold: ${threshold}`,
    '  intervalMinutes: 5',
    '  rangeMinutes: 10',
    `  notifiers: [${notifier}]`,
  ].join('\n');

const document = fc.oneof(
  fc.record({ name: fc.constantFrom(...MONITORS), threshold: fc.integer({ min: 0, max: 3 }), notifier: fc.constantFrom(...NOTIFIERS, 'nobody') }).map((m) =>
    monitorDoc(m.name, m.threshold, m.notifier),
  ),
  fc.record({ name: fc.constantFrom(...NOTIFIERS), email: fc.constantFrom('a@example.com', 'b@example.com') }).map((n) => notifierDoc(n.name, n.email)),
  // A document with a schema error, one that does not parse, and one with a secret reference.
  fc.constant('apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: m3\nspec:\n  type: Threshold\n  colour: red'),
  fc.constant('apiVersion: wsync/v1\nkind: Notifier\nmetadata: {name: n1\n'),
  fc.constant(
    'apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: hook\nspec:\n  properties:\n    customWebhook:\n      url: ${env:HOOK}\n      body: "{}"',
  ),
);

type Edit =
  | { op: 'write'; file: string; documents: string[] }
  | { op: 'delete'; file: string }
  | { op: 'move'; from: string; to: string }
  | { op: 'drift'; variant: number }
  | { op: 'readback'; at: number; threshold: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('write' as const), file: fc.constantFrom(...FILES), documents: fc.array(document, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), file: fc.constantFrom(...FILES) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('move' as const), from: fc.constantFrom(...FILES), to: fc.constantFrom(...FILES) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('drift' as const), variant: fc.integer({ min: 0, max: 2 }) }) },
  // The daemon's read-back after a write: one object read again in its place (the same or changed).
  { weight: 2, arbitrary: fc.record({ op: fc.constant('readback' as const), at: fc.nat(), threshold: fc.integer({ min: 0, max: 3 }) }) },
);

/**
 * The live workspace: some of the declared objects exist, one more is owned and not declared.
 * Variants: m0 changed by hand; m2 created by hand and n0 gone.
 */
function live(variant = 0): LiveState {
  const n0 = obj('Notifier', { id: 'notify_0', name: 'n0', properties: { email: { emails: ['a@example.com'] } } });
  const monitor = (id: string, name: string, threshold: number) =>
    obj('Monitor', {
      id,
      name,
      type: 'Threshold',
      aplQuery: "['app'] | count",
      operator: 'Above',
      threshold,
      intervalMinutes: 5,
      rangeMinutes: 10,
      notifierIds: ['notify_0'],
      alertOnNoData: false,
      notifyByGroup: false,
      resolvable: true,
      description: '',
    });
  const objects = [n0, monitor('mon_0', 'm0', variant === 1 ? 3 : 1), monitor('mon_1', 'm1', 2), monitor('mon_9', 'old', 0)];
  if (variant === 2) objects.splice(0, 1, monitor('mon_2', 'm2', 0));
  return liveOf(objects, { listedKinds: ['Notifier', 'Monitor'] });
}

/** A new read of `next` as the live cache keeps it: objects that did not change stay the objects held before. */
function kept(before: LiveState, next: LiveState): LiveState {
  const held = new Map(Object.values(before.objects).flat().map((o) => [o.id, o]));
  const objects = Object.fromEntries(
    Object.entries(next.objects).map(([kind, list]) => [
      kind,
      (list ?? []).map((o) => {
        const old = held.get(o.id);
        return old && JSON.stringify(old.raw) === JSON.stringify(o.raw) ? old : o;
      }),
    ]),
  );
  return { ...next, objects };
}

/** One live object read again in its place, as the live cache's read-back leaves it: a new object, a monitor's threshold as given. */
function readBack(state: LiveState, at: number, threshold: number): LiveState {
  const all = Object.values(state.objects).flat();
  const target = all[at % all.length];
  if (target === undefined) return state;
  const raw = target.kind === 'Monitor' ? { ...target.raw, threshold } : { ...target.raw };
  const objects = Object.fromEntries(Object.entries(state.objects).map(([kind, list]) => [kind, (list ?? []).map((o) => (o === target ? { ...o, raw } : o))]));
  return { ...state, objects };
}

/** Applies one edit to the files (`files` mirrors them: file -> documents). */
function applyEdit(dir: string, files: Map<string, string[]>, e: Exclude<Edit, { op: 'drift' | 'readback' }>): void {
  const write = (file: string, documents: string[]): void => {
    files.set(file, documents);
    writeFileSync(join(dir, file), documents.join('\n---\n') + '\n');
  };
  if (e.op === 'write') write(e.file, e.documents);
  else if (e.op === 'delete') {
    if (files.delete(e.file)) unlinkSync(join(dir, e.file));
  } else if (e.op === 'move') {
    // The first document of `from` moves to the end of `to`.
    const [moved, ...rest] = files.get(e.from) ?? [];
    if (moved === undefined || e.from === e.to) return;
    write(e.from, rest);
    write(e.to, [...(files.get(e.to) ?? []), moved]);
  }
}

/** A Desired as plain data (the lazy locations read out), to compare two of them. */
function plain(desired: Desired): unknown {
  return JSON.parse(JSON.stringify(desired));
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('incremental reading and planning', () => {
  it('equal reading and planning from nothing after every edit of a random sequence', async () => {
    const [n0, m0, , old] = Object.values(live().objects).flat();
    const inventory = inventoryOf([owns(n0!, 'n0'), owns(m0!, 'm0'), owns(old!, 'old')], HASH_KEY);
    const policy = policyOf();
    let cacheHits = 0;
    let fromLast = 0;
    await fc.assert(
      // sameInventory: the daemon's state hands out the same entries until one changes; otherwise a copy at every plan.
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 12 }), fc.boolean(), async (edits, sameInventory) => {
        const dir = mkdtempSync(join(tmpdir(), 'wsync-incremental-'));
        dirs.push(dir);
        mkdirSync(join(dir, 'sub'));
        const files = new Map<string, string[]>();
        const cache = new FileCache();
        const memo = new PlanMemo();
        // The live state is kept between plans, as the daemon's live cache keeps it.
        let variant = 0;
        let liveState = live();
        for (const e of edits) {
          if (e.op === 'drift') {
            variant = e.variant;
            liveState = kept(liveState, live(variant));
          } else if (e.op === 'readback') liveState = readBack(liveState, e.at, e.threshold);
          else applyEdit(dir, files, e);
          const incremental = await readDesired(dir, { env: ENV, cache });
          const full = await readDesired(dir, { env: ENV });
          cacheHits += cache.hits;
          expect(plain(incremental)).toEqual(plain(full));
          expect(incremental.secretValues).toEqual(full.secretValues);
          const fromMemo = planChanges(incremental, liveState, sameInventory ? inventory : structuredClone(inventory), policy, { memo });
          const fresh = planChanges(full, structuredClone(liveState), inventory, policy);
          expect(JSON.parse(JSON.stringify(fromMemo))).toEqual(JSON.parse(JSON.stringify(fresh)));
        }
        fromLast += memo.made.incremental;
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
    // The cache did serve files (a property that never hit it would prove nothing).
    expect(cacheHits).toBeGreaterThan(20);
    // And plans were made from the last one (plan/incremental.ts), not only whole.
    expect(fromLast).toBeGreaterThan(10);
  });
});
