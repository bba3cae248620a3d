// The server goes away between the plan and the writes (#17.5): apply stops starting writes once
// the client has seen a run of refused connections, reports every change it did not attempt, and
// never says a refused POST "may or may not have been applied".
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAIL_FAST_AFTER } from '../../src/api/reachability.js';
import { applyPlan, type ApplyEvent } from '../../src/apply/index.js';
import { DEFAULT_POLICY, type Desired, type DesiredResource } from '../../src/core/types.js';
import { KINDS } from '../../src/kinds/index.js';
import { liveScope, readLive } from '../../src/live/index.js';
import { planChanges } from '../../src/plan/index.js';
import { openState } from '../../src/state/index.js';
import { apiClientFor, startTestEmulator } from '../support/emulator.js';
import { removeDir, tempDir } from '../support/tree.js';

function notifiers(count: number): Desired {
  const resources = Array.from({ length: count }, (_, i): DesiredResource => {
    const spec = { properties: { email: { emails: [`n${i}@example.com`] } } };
    return { kind: 'Notifier', name: `n${i}`, key: KINDS.Notifier.keyOf(`n${i}`, spec), annotations: {}, spec, source: { file: 'n.yaml', line: 1, column: 1 }, locations: {}, interpolated: [] };
  });
  return { resources, diagnostics: [], stats: { files: 1, documents: count, skipped: 0 }, secretValues: [] };
}

describe('apply when the server goes away', () => {
  it('stops starting writes after a run of refused connections and reports what it did not attempt', async () => {
    const emulator = await startTestEmulator();
    const dir = await tempDir('wsync-fail-fast-');
    const client = apiClientFor(emulator, { retryCapMs: 5 });
    const state = await openState(join(dir, 'state'), { lock: true });
    try {
      const desired = notifiers(12);
      const live = await readLive(client, liveScope(desired, state.inventory, DEFAULT_POLICY));
      const plan = planChanges(desired, live, state.inventory, DEFAULT_POLICY);
      expect(plan.changes.filter((c) => c.action === 'create')).toHaveLength(12);
      await emulator.close();
      const before = client.stats.requests;

      const events: ApplyEvent[] = [];
      const result = await applyPlan({ plan, desired, live, client, state, concurrency: 2, onChange: (e) => events.push(e) });

      // At most the writes already under way when the run of failures was seen were tried.
      expect(client.stats.requests - before).toBeLessThanOrEqual(FAIL_FAST_AFTER + 1);
      expect(result.created).toBe(0);
      expect(result.failed + result.skipped).toBe(12);
      expect(result.skipped).toBeGreaterThanOrEqual(10);
      for (const event of events.filter((e) => e.outcome === 'failed')) {
        expect(event.message).toMatch(/^POST \/v2\/notifiers: (connection refused \(ECONNREFUSED: .*\)|not attempted: .*)[:;] nothing was sent/);
      }
      for (const event of events.filter((e) => e.outcome === 'skipped')) {
        expect(event.message).toMatch(/^not attempted: the server is unreachable: connection refused \(ECONNREFUSED\) \d+ times in a row since .*; nothing was sent$/);
      }
      expect(events.some((e) => (e.message ?? '').includes('may or may not'))).toBe(false);
      expect(state.inventory.entries).toEqual([]);
    } finally {
      await state.close();
      await client.close();
      await removeDir(dir);
    }
  });
});
