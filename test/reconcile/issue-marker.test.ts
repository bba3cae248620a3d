// The `.NAME.pending` marker says "a request issuing NAME's secret was sent and not yet recorded".
// A run stopped after recording the token but before removing the marker leaves it behind: the
// next apply (a restarted daemon's first reconcile) removes it, a plan only reads.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { reconcile } from '../../src/reconcile/index.js';
import { apiClientFor, useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { readInventory } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-issue-marker-');

describe('an issue marker left by a run stopped after the token was recorded', () => {
  it('stays through a plan and is removed by the next apply, which writes nothing else', async () => {
    const dir = scratch.tree({ 'token.yaml': resource('ApiToken', 'marker-token', { orgCapabilities: { annotations: ['create'] } }) });
    const stateDir = join(dir, '.wsync');
    const tokens = join(stateDir, 'tokens');
    const client = apiClientFor(emulator);
    const run = (mode: 'plan' | 'apply', onIssueStep?: (step: string) => void) =>
      reconcile({ dir, env: {}, client, stateDir, policy: DEFAULT_POLICY, mode, ...(onIssueStep ? { onIssueStep } : {}) });
    try {
      // The process "dies" right after the token is recorded as owned, before the marker is removed.
      const stopped = await run('apply', (step) => {
        if (step === 'recorded') throw new Error('killed');
      });
      expect(stopped.status).toBe('failed');
      expect((await readInventory(stateDir)).entries).toEqual([expect.objectContaining({ kind: 'ApiToken', key: 'marker-token' })]);
      expect((await readdir(tokens)).sort()).toEqual(['.gitignore', '.marker-token.pending', 'marker-token']);

      const plan = await run('plan');
      expect(plan.plan?.changes.map((c) => c.action)).toEqual(['noop']);
      expect(await readdir(tokens)).toContain('.marker-token.pending');

      await emulator.clearRequests();
      const next = await run('apply');
      expect(next.status).toBe('applied');
      expect(next.plan?.changes.map((c) => c.action)).toEqual(['noop']);
      expect((await readdir(tokens)).sort()).toEqual(['.gitignore', 'marker-token']);
      expect(await emulator.writes()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
