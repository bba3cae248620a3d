// Issue #27 in the daemon: held changes make it "degraded: N held" in every place it reports.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useDaemonSuite } from '../support/daemon.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { notifierYaml } from '../support/yaml.js';

const env = useDaemonSuite();

describe('wsync run with a held delete', () => {
  it('applies the rest, says "degraded: 1 held" in status, metrics, readyz and ctl status, and recovers when it is gone', async () => {
    const dir = join(env.tmp, 'held');
    await mkdir(dir);
    await writeFile(join(dir, 'a.yaml'), notifierYaml('held-team'));
    await writeFile(join(dir, 'b.yaml'), notifierYaml('held-old'));

    const d = env.start([dir, '--resync', 'off', '--debounce', '50', '--prune', '--max-deletes', '0']);
    const url = await d.url();
    await d.waitReconcile(0, { trigger: 'start', result: 'applied' });

    let mark = d.mark;
    await rm(join(dir, 'b.yaml'));
    await writeFile(join(dir, 'a.yaml'), notifierYaml('held-team').replace('oncall@example.com', 'team@example.com'));
    // The removal and the edit are two file events; a reconcile may see the removal alone first.
    const partial = await d.waitFor((l) => l.msg === 'reconcile' && l.trigger === 'change' && l.updated === 1, { from: mark });
    expect(partial).toMatchObject({ result: 'partial', updated: 1, deleted: 0, held: 1 });
    expect(String(partial.error)).toMatch(/^degraded: 1 held: Refusing to delete 1 object/);
    const state = await env.emulator.state();
    expect(JSON.stringify(state.notifiers?.find((n) => n.name === 'held-team'))).toContain('team@example.com');
    expect((state.notifiers ?? []).map((n) => n.name)).toContain('held-old');

    expect(await (await fetch(`${url}/readyz`)).text()).toBe('ready (degraded: 1 held)\n');
    expect(await (await fetch(`${url}/`)).text()).toContain('id="held">degraded: 1 held<br><code>Notifier/held-old</code>');
    expect(sampleValue(await scrapeMetrics(url), 'wsync_held_changes')).toBe(1);
    const status = await runCli(['ctl', 'status', '--daemon', url]);
    expect(status.stdout).toMatch(/^held\s+degraded: 1 held \(approve exactly these: wsync ctl approve held-[0-9a-f]{12}-[0-9a-f]{12}\)$/m);

    // Declared again: nothing is held any more.
    mark = d.mark;
    await writeFile(join(dir, 'b.yaml'), notifierYaml('held-old'));
    expect(await d.waitReconcile(mark, { trigger: 'change', result: 'applied' })).toMatchObject({ deleted: 0 });
    expect(sampleValue(await scrapeMetrics(url), 'wsync_held_changes')).toBe(0);
    expect((await runCli(['ctl', 'status', '--daemon', url])).stdout).toMatch(/^held\s+none$/m);
  });
});

describe('wsync run --freeze', () => {
  it('reaches the daemon from the flag: inside the window the first reconcile plans and writes nothing', async () => {
    const dir = join(env.tmp, 'frozen');
    await mkdir(dir);
    await writeFile(join(dir, 'a.yaml'), notifierYaml('frozen-by-flag'));
    // Every minute opens a window of an hour: always frozen.
    const d = env.start([dir, '--resync', 'off', '--freeze', '* * * * * 1h']);
    const url = await d.url();
    expect(await d.waitReconcile(0, { trigger: 'start' })).toMatchObject({ result: 'planned', frozen: true, created: 0 });
    expect(((await env.emulator.state()).notifiers ?? []).map((n) => n.name)).not.toContain('frozen-by-flag');
    expect(sampleValue(await scrapeMetrics(url), 'wsync_freeze_active')).toBe(1);
  });
});
