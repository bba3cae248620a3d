// The Reconciler (#28.2): the daemon's one way into a reconcile, and what it keeps between them.
// An edit reuses the last live read and plans from the last plan; any other trigger reads all live
// state; after its writes it reads the written object back, so the next edit plans against it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Reconciler } from '../../src/reconcile/reconciler.js';
import { policyOf } from '../plan/builders.js';
import { apiClientFor, useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { MONITOR_DATASETS, monitorYaml, notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-reconciler-');

function reconcilerFor(stateDir: string): { reconciler: Reconciler; warnings: string[] } {
  const client = apiClientFor(emulator);
  const warnings: string[] = [];
  const log = { warn: (_fields: Record<string, unknown>, message: string) => warnings.push(message), error: (_fields: Record<string, unknown>, message: string) => warnings.push(message) };
  const reconciler = new Reconciler({ stateDir, env: {}, policy: policyOf(), client: () => client, signal: new AbortController().signal, log, redact: (text) => text });
  afterAll(async () => {
    await reconciler.close();
    await client.close();
  });
  return { reconciler, warnings };
}

describe('Reconciler', () => {
  it('reuses the live read and the last plan for edits only, and plans against what it wrote', async () => {
    await emulator.seed(MONITOR_DATASETS);
    const dir = scratch.tree({ 'notifiers.yaml': notifierYaml('team-email'), 'monitors.yaml': monitorYaml('errors', 10) });
    const { reconciler, warnings } = reconcilerFor(join(dir, '.state'));

    const first = await reconciler.run({ dir, write: true, edit: false });
    expect(first.status).toBe('applied');
    expect(first.result?.created).toBe(2);
    expect(first.liveReused).toBe(false);

    writeFileSync(join(dir, 'monitors.yaml'), monitorYaml('errors', 20));
    await emulator.clearRequests();
    const edit = await reconciler.run({ dir, write: true, edit: true });
    expect(edit.liveReused).toBe(true);
    expect(edit.plan?.changes.filter((c) => c.action !== 'noop').map((c) => `${c.action} ${c.kind}/${c.key}`)).toEqual(['update Monitor/errors']);
    expect(edit.status).toBe('applied');
    // The written monitor was read back (one GET), not its kind listed again.
    const requests = await emulator.requests();
    expect(requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v2/monitors/'))).toHaveLength(1);

    // The next edit plans against the monitor read back: nothing to do when the file says what was written.
    const again = await reconciler.run({ dir, write: true, edit: true });
    expect(again.liveReused).toBe(true);
    expect(again.plan?.summary.update).toBe(0);
    expect(again.status).toBe('applied');

    // Another trigger (a resync) reads all live state again.
    const resync = await reconciler.run({ dir, write: true, edit: false });
    expect(resync.liveReused).toBe(false);
    expect(resync.plan?.summary.noop).toBe(2);
    expect(warnings).toEqual([]);
  });

  it('plans only, without state or lease, when it may not write', async () => {
    const dir = scratch.tree({ 'notifiers.yaml': notifierYaml('planned-only') });
    const { reconciler } = reconcilerFor(join(dir, '.state'));
    const outcome = await reconciler.run({ dir, write: false, edit: false });
    expect(outcome.status).toBe('planned');
    expect(outcome.result).toBeUndefined();
    expect(outcome.plan?.changes.map((c) => `${c.action} ${c.kind}/${c.key}`)).toContain('create Notifier/planned-only');
  });
});
