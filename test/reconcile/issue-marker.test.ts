// The `.NAME.pending` marker says "a request issuing NAME's secret was sent and not yet recorded".
// A run stopped after recording the token but before removing the marker leaves it behind: the
// next apply (a restarted daemon's first reconcile) removes it, a plan only reads.
import { readdir, rm, writeFile } from 'node:fs/promises';
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

describe('an issue marker of a token no file declares any more', () => {
  const other = resource('Notifier', 'keep-me', { properties: { email: { emails: ['ops@example.com'] } } });

  async function stoppedAt(step: 'answered' | 'recorded', name: string) {
    const dir = scratch.tree({ 'token.yaml': resource('ApiToken', name, { orgCapabilities: { annotations: ['create'] } }), 'other.yaml': other });
    const stateDir = join(dir, '.wsync');
    const client = apiClientFor(emulator);
    const warnings: string[] = [];
    const run = (mode: 'plan' | 'apply', onIssueStep?: (step: string) => void) =>
      reconcile({ dir, env: {}, client, stateDir, policy: DEFAULT_POLICY, mode, warn: (m) => warnings.push(m), ...(onIssueStep ? { onIssueStep } : {}) });
    const stopped = await run('apply', (at) => {
      if (at === step) throw new Error('killed');
    });
    expect(stopped.status).toBe('failed');
    // The declaration goes: nothing plans with the marker any more.
    await rm(join(dir, 'token.yaml'));
    await writeFile(join(dir, 'other.yaml'), other);
    warnings.length = 0;
    return { run, warnings, tokens: join(stateDir, 'tokens'), close: () => client.close() };
  }

  it('is reported by plan and apply, and kept, when the token was never recorded (it may exist, owned by nobody)', async () => {
    const { run, warnings, tokens, close } = await stoppedAt('answered', 'gone-unrecorded');
    try {
      expect((await run('plan')).status).not.toBe('failed');
      expect(warnings).toEqual([expect.stringContaining('.gone-unrecorded.pending: an issue of the API token "gone-unrecorded", which no file declares any more')]);
      expect(warnings[0]).toContain('a token of that name may exist in the workspace, owned by nobody');
      warnings.length = 0;
      expect((await run('apply')).status).toBe('applied');
      expect(warnings).toHaveLength(1);
      expect(await readdir(tokens)).toContain('.gone-unrecorded.pending');
    } finally {
      await close();
    }
  });

  it('is said by plan and removed by the next apply when the inventory owns the token', async () => {
    const { run, warnings, tokens, close } = await stoppedAt('recorded', 'gone-recorded');
    try {
      await run('plan');
      expect(warnings).toEqual([expect.stringContaining('an issue of ApiToken/gone-recorded, which no file declares any more, was stopped; the inventory owns the token')]);
      expect(await readdir(tokens)).toContain('.gone-recorded.pending');
      warnings.length = 0;
      expect((await run('apply')).status).toBe('applied');
      expect(warnings.filter((w) => w.includes('.pending'))).toEqual([]);
      expect(await readdir(tokens)).not.toContain('.gone-recorded.pending');
    } finally {
      await close();
    }
  });
});
