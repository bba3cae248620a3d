// #13 "Done when": for every kind, a resource written with only its required fields converges to
// "no changes" against an emulator that answers with the service's defaults; so does the same
// after setting and then removing each optional field, one at a time, and the live object no
// longer carries the value (or the plan says clearly that it cannot be cleared). The whole
// source -> live -> plan -> apply flow runs in process against the emulator over 127.0.0.1.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { getAt, withValueAt } from '../../src/core/json-paths.js';
import { isEmptyValue, jsonEqual } from '../../src/core/json.js';
import { DEFAULT_POLICY, type JsonObject, type JsonValue, type KindName } from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { indexLive, liveWithKey } from '../../src/plan/live-index.js';
import { reconcile, type ReconcileOutcome } from '../../src/reconcile/index.js';
import { apiClientFor, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { CONVERGENCE_SEED, MINIMAL } from './minimal-resources.js';

let emulator: TestEmulator;
let client: ApiClient;
let root: string;

beforeAll(async () => {
  emulator = await startTestEmulator({ seed: 42 });
  await emulator.seed(CONVERGENCE_SEED);
  client = apiClientFor(emulator, { retryCapMs: 10 });
  root = await mkdtemp(join(tmpdir(), 'wsync-convergence-'));
});

afterAll(async () => {
  await client.close();
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

/** One optional field set on a kind's minimal resource. */
type Setting = Partial<Record<KindName, [path: string, value: JsonValue]>>;

function specOf(kind: KindName, setting: Setting): JsonObject {
  const row = MINIMAL[kind];
  const set = setting[kind];
  return set ? withValueAt(row.required, set[0].split('.'), set[1]) : row.required;
}

async function writeTreeWith(setting: Setting): Promise<void> {
  await rm(join(root, 'tree'), { recursive: true, force: true });
  await mkdir(join(root, 'tree'), { recursive: true });
  for (const kind of KIND_NAMES) {
    const document = { apiVersion: 'wsync/v1', kind, metadata: { name: MINIMAL[kind].name }, spec: specOf(kind, setting) };
    // JSON is YAML: one file per kind.
    await writeFile(join(root, 'tree', `${KINDS[kind].plural}.yaml`), `${JSON.stringify(document, null, 2)}\n`);
  }
}

function run(mode: 'plan' | 'apply'): Promise<ReconcileOutcome> {
  return reconcile({
    dir: join(root, 'tree'),
    env: {},
    client,
    stateDir: join(root, 'state'),
    tokenOutputDir: join(root, 'tokens'),
    // A regenerated token's old one stops at once: the live objects read below hold one token per key.
    // Turning a retention period on deletes older events: opted in, as the test sets and removes it.
    policy: { ...DEFAULT_POLICY, rotationGraceMs: 0, allowDataLoss: ['Dataset'] },
    mode,
  });
}

async function apply(label: string): Promise<void> {
  const outcome = await run('apply');
  const failed = outcome.result?.events.filter((e) => e.outcome === 'failed') ?? [];
  expect(outcome.diagnostics.filter((d) => d.severity === 'error'), label).toEqual([]);
  expect(failed, label).toEqual([]);
  expect(outcome.status, label).toBe('applied');
}

const keyOf = (kind: KindName, setting: Setting): string => KINDS[kind].keyOf(MINIMAL[kind].name, specOf(kind, setting));

/** The field a kind sets in round `round`, in the order its row lists them. */
function settingOf(round: number): Setting {
  const setting: Setting = {};
  for (const kind of KIND_NAMES) {
    const entry = Object.entries(MINIMAL[kind].optional)[round];
    if (entry) setting[kind] = entry;
  }
  return setting;
}

const ROUNDS = Math.max(...KIND_NAMES.map((kind) => Object.keys(MINIMAL[kind].optional).length));

describe('every kind converges from its required fields, and back after each optional field is removed', () => {
  /** Fields set once that an update cannot clear: the plan keeps saying so for that object. */
  const uncleared = new Map<KindName, string>();

  /** A plan with nothing to do, but for the objects holding a value an update cannot clear. */
  function expectSettled(outcome: ReconcileOutcome, label: string): void {
    expect(outcome.status, label).toBe('planned');
    expect(outcome.diagnostics, label).toEqual([]);
    for (const change of outcome.plan?.changes ?? []) {
      const field = uncleared.get(change.kind);
      const what = `${label}: ${change.kind}/${change.key} ${change.action} ${JSON.stringify(change.diffs)}`;
      // An identity field set (an annotation's title) made an object of another key; the old one
      // stays owned, and every plan says so (no prune here): nothing is written for it.
      if (change.source === undefined && change.owned && change.reason?.startsWith('no longer declared: kept, --prune deletes it')) {
        expect(change.action, what).toBe('skipped');
        continue;
      }
      if (field === undefined) {
        expect(change.action, what).toBe('noop');
      } else {
        expect(change.action, what).toBe('skipped');
        expect(change.reason, what).toBe(
          `${field} cannot be cleared through the API (an update keeps what it leaves out); delete the object to clear it`,
        );
      }
    }
  }

  function liveValue(outcome: ReconcileOutcome, kind: KindName, key: string, path: string): JsonValue | undefined {
    const [entry, ...more] = liveWithKey(indexLive(outcome.live ?? { objects: {}, listedKinds: [], listedDatasets: {}, requests: 0 }), kind, key);
    expect(entry, `${kind}/${key} is live`).toBeDefined();
    expect(more).toEqual([]);
    return entry ? getAt(entry.spec, path.split('.')) : undefined;
  }

  it('declares, for every kind, what removing each of its optional fields does, as its module says', () => {
    for (const kind of KIND_NAMES) {
      const { optional, kept = {} } = MINIMAL[kind];
      for (const path of Object.keys(optional)) {
        const module = KINDS[kind];
        if (kept[path] === 'identity') {
          const { name, required } = MINIMAL[kind];
          expect(module.keyOf(name, withValueAt(required, path.split('.'), optional[path] ?? null)), `${kind}.${path}`).not.toBe(module.keyOf(name, required));
          continue;
        }
        const expected = module.computed.includes(path) ? 'computed' : (module.uncleared ?? []).includes(path) ? 'uncleared' : undefined;
        expect(kept[path], `${kind}.${path}`).toBe(expected);
        // A value equal to the default would prove nothing, except for a field with one allowed value.
        if (path !== 'kind') expect(jsonEqual(optional[path], module.defaults[path]), `${kind}.${path}`).toBe(false);
      }
    }
  });

  it('applies the required fields only, then plans no changes', async () => {
    await writeTreeWith({});
    await apply('minimal');
    expectSettled(await run('plan'), 'minimal');
  });

  for (let round = 0; round < ROUNDS; round++) {
    const setting = settingOf(round);
    const fields = Object.entries(setting).map(([kind, [path]]) => `${kind}.${path}`);
    it(`round ${round + 1}: sets then removes ${fields.join(', ')}`, async () => {
      await writeTreeWith(setting);
      await apply(`set ${fields.join(', ')}`);
      const set = await run('plan');
      expectSettled(set, `after setting ${fields.join(', ')}`);
      for (const [kind, [path, value]] of Object.entries(setting) as [KindName, [string, JsonValue]][]) {
        const read = liveValue(set, kind, keyOf(kind, setting), path);
        // Another identity: the object of the new key is live (liveValue says so), whatever the value reads as.
        if (MINIMAL[kind].kept?.[path] === 'identity') continue;
        expect(read === undefined || isEmptyValue(read), `${kind}.${path} = ${JSON.stringify(value)} is live`).toBe(false);
      }

      await writeTreeWith({});
      await apply(`removed ${fields.join(', ')}`);
      for (const [kind, [path]] of Object.entries(setting) as [KindName, [string, JsonValue]][]) {
        if (MINIMAL[kind].kept?.[path] === 'uncleared') uncleared.set(kind, path);
      }
      const removed = await run('plan');
      expectSettled(removed, `after removing ${fields.join(', ')}`);
      for (const [kind, [path]] of Object.entries(setting) as [KindName, [string, JsonValue]][]) {
        const read = liveValue(removed, kind, keyOf(kind, {}), path);
        const label = `${kind}.${path} after its removal: ${JSON.stringify(read)}`;
        if (MINIMAL[kind].kept?.[path] === 'identity') continue;
        if (MINIMAL[kind].kept?.[path] !== undefined) expect(read, label).toBeDefined();
        else expect(read === undefined || isEmptyValue(read) || jsonEqual(read, KINDS[kind].defaults[path]), label).toBe(true);
      }
    });
  }
});
