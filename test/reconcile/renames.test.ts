// #27.5: every kind marked renamable (KindModule.renamable) is renamed in place on the emulator by
// `wsync/renamed-from`: an update of the same id, and the next plan has nothing to do. The whole
// source -> live -> plan -> apply flow runs in process against the emulator over 127.0.0.1.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { DEFAULT_POLICY, type KindName, type LiveState } from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { indexLive, liveWithKey } from '../../src/plan/live-index.js';
import { reconcile, type ReconcileOutcome } from '../../src/reconcile/index.js';
import { apiClientFor, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { CONVERGENCE_SEED, MINIMAL } from './minimal-resources.js';

const RENAMABLE = KIND_NAMES.filter((kind) => KINDS[kind].renamable === true);
let emulator: TestEmulator;
let client: ApiClient;
let root: string;

beforeAll(async () => {
  emulator = await startTestEmulator({ seed: 7 });
  await emulator.seed(CONVERGENCE_SEED);
  client = apiClientFor(emulator, { retryCapMs: 10 });
  root = await mkdtemp(join(tmpdir(), 'wsync-renames-'));
});

afterAll(async () => {
  await client.close();
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

const renamedName = (kind: KindName): string => `${MINIMAL[kind].name}_renamed`;

async function writeTree(renamed: boolean): Promise<void> {
  await rm(join(root, 'tree'), { recursive: true, force: true });
  await mkdir(join(root, 'tree'), { recursive: true });
  // The starred query's owner is a user of the tree.
  for (const kind of [...RENAMABLE, 'User' as const]) {
    const { name, required } = MINIMAL[kind];
    const metadata = renamed && RENAMABLE.includes(kind) ? { name: renamedName(kind), annotations: { 'wsync/renamed-from': name } } : { name };
    await writeFile(join(root, 'tree', `${KINDS[kind].plural}.yaml`), `${JSON.stringify({ apiVersion: 'wsync/v1', kind, metadata, spec: required }, null, 2)}\n`);
  }
}

function run(mode: 'plan' | 'apply'): Promise<ReconcileOutcome> {
  return reconcile({ dir: join(root, 'tree'), env: {}, client, stateDir: join(root, 'state'), policy: { ...DEFAULT_POLICY, prune: true }, mode });
}

function idOf(live: LiveState | undefined, kind: KindName, name: string): string | undefined {
  const module = KINDS[kind];
  const [entry] = liveWithKey(indexLive(live ?? { objects: {}, listedKinds: [], listedDatasets: {}, requests: 0 }), kind, module.keyOf(name, MINIMAL[kind].required));
  return entry?.object.id;
}

describe('renames in place', () => {
  it('the renamable kinds are those whose update body carries the name (docs/wire-contract.md)', () => {
    expect(RENAMABLE).toEqual(['Role', 'Notifier', 'Group', 'Monitor', 'StarredQuery', 'VirtualField']);
  });

  it('each renamable kind keeps its id through a rename, and the plan then settles', async () => {
    await writeTree(false);
    const first = await run('apply');
    expect(first.diagnostics).toEqual([]);
    expect(first.status).toBe('applied');
    const before = await run('plan');
    const ids = new Map(RENAMABLE.map((kind) => [kind, idOf(before.live, kind, MINIMAL[kind].name)]));
    for (const kind of RENAMABLE) expect(ids.get(kind), kind).toEqual(expect.any(String));

    await writeTree(true);
    const applied = await run('apply');
    expect(applied.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(applied.status).toBe('applied');
    const renames = (applied.plan?.changes ?? []).filter((c) => RENAMABLE.includes(c.kind));
    expect(renames.map((c) => c.kind).sort()).toEqual([...RENAMABLE].sort());
    for (const change of renames) {
      expect(change, change.kind).toMatchObject({ action: 'update', id: ids.get(change.kind), key: KINDS[change.kind].keyOf(renamedName(change.kind), MINIMAL[change.kind].required) });
      expect(change.renamedFrom, change.kind).toBe(KINDS[change.kind].keyOf(MINIMAL[change.kind].name, MINIMAL[change.kind].required));
    }
    expect(applied.result?.events.map((e) => e.action)).toEqual(RENAMABLE.map(() => 'update'));

    const after = await run('plan');
    expect(after.plan?.changes.filter((c) => c.action !== 'noop')).toEqual([]);
    for (const kind of RENAMABLE) expect(idOf(after.live, kind, renamedName(kind)), kind).toBe(ids.get(kind));
  });
});
