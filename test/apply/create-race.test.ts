// A dashboard someone makes in the UI between the plan's read and apply's POST: the service answers
// 409 (the uid exists), and apply never writes over it. The change is skipped, nothing is recorded
// as owned, and the next plan adopts the object (or shows how it differs), as for a 412 on update.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/index.js';
import type { JsonObject } from '../../src/core/types.js';
import { liveScope, readLive } from '../../src/live/index.js';
import { openState } from '../../src/state/index.js';
import { caseOf } from '../plan/kind-cases.js';
import { changeOf, desiredOf, inventoryOf, plan, policyOf, resource } from '../plan/builders.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { removeDir, tempDir } from '../support/tree.js';

let emulator: TestEmulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emulator?.close();
  if (dir) await removeDir(dir);
});

const board = caseOf('Dashboard').spec.dashboard as JsonObject;

describe('a create that finds the object made meanwhile (409)', () => {
  it('is skipped, not written over; nothing is owned; the next plan adopts what is there', async () => {
    emulator = await startTestEmulator();
    const client = createApiClient({ url: emulator.url, token: () => emulator?.token ?? '', maxRetries: 0 });
    dir = await tempDir('wsync-create-race-');
    const state = await openState(join(dir, 'state'), { lock: true });
    const desired = desiredOf(resource('Dashboard', 'checkout', { dashboard: board }));
    try {
      const live = await readLive(client, liveScope(desired, inventoryOf(), policyOf()));
      const planned = plan(desired, live);
      expect(changeOf(planned, 'Dashboard', 'checkout').action).toBe('create');

      // Saved in the UI after the plan read the list, with another title.
      await emulator.ok('POST', '/v2/dashboards', { uid: 'checkout', dashboard: { ...board, owner: '', name: 'Made by hand' } });
      await emulator.clearRequests();

      const result = await applyPlan({ plan: planned, desired, live, client, state, concurrency: 1 });
      expect(result).toMatchObject({ created: 0, failed: 0, skipped: 1 });
      expect(result.events[0]).toMatchObject({ outcome: 'skipped' });
      expect(String(result.events[0]?.message)).toContain('changed in the workspace since the plan: made there meanwhile, not written over; the next apply adopts it');
      expect((await emulator.writes()).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/dashboards']);
      expect(state.inventory.entries).toEqual([]);
      const dashboards = await emulator.ok<JsonObject[]>('GET', '/v2/dashboards');
      expect(dashboards.map((d) => (d.dashboard as JsonObject).name)).toEqual(['Made by hand']);

      const next = plan(desired, await readLive(client, liveScope(desired, state.inventory, policyOf())), state.inventory);
      const adopt = changeOf(next, 'Dashboard', 'checkout');
      expect(adopt.action).toBe('adopt');
      expect(adopt.diffs.map((d) => d.path)).toEqual(['dashboard.name']);
    } finally {
      await state.close();
      await client.close();
    }
  });
});
