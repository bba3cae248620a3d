import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { waitUntil } from '../support/wait.js';
import { notifierYaml } from '../support/yaml.js';

const env = useDaemonSuite();

const COUNT = 12;

describe('SIGTERM', () => {
  it('during an apply: the write in flight finishes, the inventory is flushed, exit 0; a restart converges without duplicates', async () => {
    const dir = join(env.tmp, 'slow');
    const stateDir = join(env.tmp, 'slow-state');
    await mkdir(dir);
    const names = Array.from({ length: COUNT }, (_, i) => `slow-${String(i).padStart(2, '0')}`);
    await writeFile(join(dir, 'notifiers.yaml'), names.map(notifierYaml).join('---\n'));
    // Every request takes 250 ms, and one change runs at a time: the apply takes seconds.
    await env.emulator.faults({ latencyMs: [250, 250] });

    const d = env.start([dir, '--state-dir', stateDir, '--resync', 'off', '--concurrency', '1']);
    await d.url();
    // Wait for two confirmed creates, so the third is in flight when the signal lands.
    await waitUntil(() => d.lines.filter((l) => l.msg === 'change' && l.outcome === 'done').length >= 2, { timeoutMs: 15_000, what: 'two creates' });
    // signal() fails the test if the daemon has not exited 10 s after the signal.
    expect(await d.signal('SIGTERM', 10_000)).toBe(0);
    expect(d.lines.some((l) => l.msg === 'stopping' && l.reason === 'SIGTERM')).toBe(true);
    expect(d.lines.at(-1)?.msg).toBe('stopped');

    const created = d.lines.filter((l) => l.msg === 'change' && l.outcome === 'done' && l.action === 'create').map((l) => String(l.key));
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(created.length).toBeLessThan(COUNT);
    // The write in flight when the signal came finished and was logged after it; no connection was cut.
    const stopping = d.lines.findIndex((l) => l.msg === 'stopping');
    expect(d.lines.slice(stopping).some((l) => l.msg === 'change' && l.outcome === 'done')).toBe(true);
    const posts = (await env.emulator.writes()).filter((w) => w.method === 'POST' && w.path.startsWith('/v2/'));
    expect(posts.every((w) => w.status === 200)).toBe(true);
    expect(posts).toHaveLength(created.length);
    const live = ((await env.emulator.state()).notifiers ?? []).map((n) => String(n.name));
    // Every object that exists was confirmed and is in the inventory: nothing half-done.
    expect(live.sort()).toEqual([...created].sort());
    const inventory = await readFile(join(stateDir, 'inventory.json'), 'utf8').catch(() => '');
    for (const name of created) expect(inventory).toContain(name);

    // Restart without latency: converges, creating only what is missing, adopting nothing (it owns the rest).
    await env.emulator.faults({ latencyMs: null });
    const again = env.start([dir, '--state-dir', stateDir, '--resync', 'off']);
    const summary = await again.waitReconcile(0, { trigger: 'start' });
    expect(summary).toMatchObject({ result: 'applied', created: COUNT - created.length, failed: 0 });
    expect(again.lines.some((l) => l.msg === 'change' && l.action === 'adopt')).toBe(false);
    const after = ((await env.emulator.state()).notifiers ?? []).map((n) => String(n.name)).sort();
    expect(after).toEqual(names);
    expect(new Set(after).size).toBe(COUNT);
    expect(await again.signal('SIGTERM')).toBe(0);
  });
});
