// Issue #27 item 4 in the daemon: `wsync ctl approve FINGERPRINT` lets exactly the held changes
// through at the next reconcile that writes; the daemon keeps the approval until it is used or the
// held set changes. The daemon in this process, the real CLI for ctl, the emulator.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { runCli } from '../support/cli.js';
import { useInProcessDaemons, type LogLine } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { useScratch } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-daemon-approve-');
const startDaemon = useInProcessDaemons(emulator);
const TOKEN = 'control-token-for-approve-tests';

const ctl = (url: string, ...args: string[]) => runCli(['ctl', ...args, '--daemon', url], { env: { WSYNC_CONTROL_TOKEN: TOKEN } });

async function statusOf(url: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${url}/status`)).json()) as Record<string, unknown>;
}

async function notifierNames(): Promise<string[]> {
  return ((await emulator.state()).notifiers ?? []).map((n) => String(n.name)).sort();
}

describe('wsync ctl approve', () => {
  it('refuses another fingerprint, then applies exactly the held delete at a reconcile it requests', async () => {
    const prefix = 'ap1';
    const tree = scratch.tree({ 'a.yaml': notifierYaml(`${prefix}-a`), 'b.yaml': notifierYaml(`${prefix}-b`) });
    const { daemon, lines, waitFor } = await startDaemon({
      dir: tree,
      stateDir: join(tree, '.wsync'),
      policy: { ...DEFAULT_POLICY, prune: true, maxDeletes: 0 },
      controlToken: () => TOKEN,
    });
    const reconciles = (result: string): LogLine[] => lines.filter((l) => l.msg === 'reconcile' && l.result === result);
    await waitUntil(() => reconciles('applied').length === 1, { what: 'the first apply', timeoutMs: 30_000 });

    await rm(join(tree, 'b.yaml'));
    expect((await ctl(daemon.url, 'reconcile')).code).toBe(0);
    await waitUntil(() => reconciles('partial').length > 0, { what: 'a reconcile that holds the delete', timeoutMs: 30_000 });
    const held = String((await statusOf(daemon.url)).heldFingerprint);
    expect(held).toMatch(/^held-[0-9a-f]{12}-[0-9a-f]{12}$/);
    expect((await ctl(daemon.url, 'status')).stdout).toMatch(new RegExp(`^held\\s+degraded: 1 held \\(approve exactly these: wsync ctl approve ${held}\\)$`, 'm'));
    expect(await (await fetch(`${daemon.url}/`)).text()).toContain(`approve exactly these: <code>wsync ctl approve ${held}</code>`);

    const other = `held-${held.slice(5, 17)}-000000000000`;
    const refused = await ctl(daemon.url, 'approve', other);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`ctl approve: refused (HTTP 409): ${other} does not approve what is held: a held object changed since the approved plan read it`);
    expect((await ctl(daemon.url, 'approve')).stderr).toContain('approve needs the fingerprint of the held changes');
    expect((await runCli(['ctl', 'approve', held, '--daemon', daemon.url])).stderr).toContain('approve needs the control token');

    const approved = await ctl(daemon.url, 'approve', held);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved ${held}: a reconcile runs now and applies exactly the 1 held change(s) (Notifier/${prefix}-b)`);
    await waitFor((l) => l.msg === 'approval used: the approved held changes were applied' && l.fingerprint === held);
    expect(await notifierNames()).not.toContain(`${prefix}-b`);
    expect(await notifierNames()).toContain(`${prefix}-a`);
    const after = await statusOf(daemon.url);
    expect(after).toMatchObject({ held: 0, degraded: null, heldFingerprint: null, approval: null });
    expect(sampleValue(await scrapeMetrics(daemon.url), 'wsync_held_changes')).toBe(0);
    // Its writer lease ends with it: the next test's daemon writes the same workspace.
    await daemon.stop('test over');
  });

  it('keeps an approval while suspended, and drops it when the held set changes', async () => {
    const prefix = 'ap2';
    const tree = scratch.tree({ 'a.yaml': notifierYaml(`${prefix}-a`), 'b.yaml': notifierYaml(`${prefix}-b`), 'c.yaml': notifierYaml(`${prefix}-c`) });
    const { daemon, lines, waitFor } = await startDaemon({
      dir: tree,
      stateDir: join(tree, '.wsync'),
      policy: { ...DEFAULT_POLICY, prune: true, maxDeletes: 0 },
      controlToken: () => TOKEN,
    });
    await waitUntil(() => lines.some((l) => l.msg === 'reconcile' && l.result === 'applied'), { what: 'the first apply', timeoutMs: 30_000 });
    expect((await ctl(daemon.url, 'suspend')).code).toBe(0);
    await rm(join(tree, 'b.yaml'));
    const count = (): number => lines.filter((l) => l.msg === 'reconcile').length;
    let before = count();
    expect((await ctl(daemon.url, 'reconcile')).code).toBe(0);
    await waitUntil(async () => count() > before && typeof (await statusOf(daemon.url)).heldFingerprint === 'string', { what: 'a planned reconcile holding the delete', timeoutMs: 30_000 });
    const held = String((await statusOf(daemon.url)).heldFingerprint);

    // Suspended: the reconcile the approval requests only plans, and the approval waits.
    before = count();
    expect((await ctl(daemon.url, 'approve', held)).code).toBe(0);
    await waitUntil(() => count() > before, { what: 'the reconcile the approval requested', timeoutMs: 30_000 });
    expect((await statusOf(daemon.url)).approval).toMatchObject({ fingerprint: held });
    expect((await ctl(daemon.url, 'status')).stdout).toMatch(new RegExp(`^approval\\s+${held} \\(given [^)]+\\): applied by the next reconcile that writes$`, 'm'));
    expect(await notifierNames()).toContain(`${prefix}-b`);

    // Another delete held too: the approval no longer names what is held, and is dropped.
    await rm(join(tree, 'c.yaml'));
    expect((await ctl(daemon.url, 'reconcile')).code).toBe(0);
    const dropped = await waitFor((l) => l.msg === 'approval dropped: the plan holds other changes now');
    expect(dropped).toMatchObject({ fingerprint: held, why: expect.stringContaining(`the changes held now are not the ones approved (held now too: Notifier/${prefix}-c; 2 held:`) });
    expect((await statusOf(daemon.url)).approval).toBeNull();
    expect((await ctl(daemon.url, 'resume')).code).toBe(0);
    await waitUntil(() => lines.some((l) => l.msg === 'reconcile' && l.result === 'partial'), { what: 'a reconcile that writes and holds both', timeoutMs: 30_000 });
    expect(await notifierNames()).toEqual(expect.arrayContaining([`${prefix}-b`, `${prefix}-c`]));
  });
});
