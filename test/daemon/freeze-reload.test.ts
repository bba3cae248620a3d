// Issue #27 item 7: freeze windows are configuration SIGHUP reads again, as `wsync run` re-reads
// it (src/cli/commands/run/settings.ts, reloadedConfig): the daemon in this process on a fake
// clock, against its own emulator (one writer per workspace).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reloadedConfig } from '../../src/cli/commands/run/settings.js';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { useInProcessDaemons, type LogLine } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { FakeClock } from '../support/fake-clock.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { useScratch } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-freeze-reload-');
const startDaemon = useInProcessDaemons(emulator);
const HOUR = 3_600_000;

async function notifierNames(): Promise<string[]> {
  return ((await emulator.state()).notifiers ?? []).map((n) => String(n.name));
}

describe('freeze windows at SIGHUP', () => {
  it('is read again at SIGHUP: a window added in wsync.yaml freezes the daemon, one removed lets it write, a bad one keeps what was in force', async () => {
    const clock = new FakeClock();
    await clock.advance(9.5 * HOUR);
    const tree = scratch.tree({ 'a.yaml': notifierYaml('reload-a'), 'wsync.yaml': '# no freeze yet\n' });
    const { daemon, lines } = await startDaemon({
      dir: tree,
      stateDir: join(tree, '.wsync'),
      policy: DEFAULT_POLICY,
      clock,
      // What `wsync run` re-reads at SIGHUP: wsync.yaml (no --freeze flag, no WSYNC_FREEZE).
      reloadConfig: () => reloadedConfig(tree, {}, emulator.env),
    });
    const reconciles = (): LogLine[] => lines.filter((l) => l.msg === 'reconcile');
    await waitUntil(() => reconciles().some((l) => l.result === 'applied' && l.created === 1), { what: 'the first reconcile, not frozen', timeoutMs: 30_000 });

    // The window committed: nothing is frozen until SIGHUP, then everything is (b.yaml is written
    // only once the freeze is in force, so no reconcile of the watcher's can write it before).
    await writeFile(join(tree, 'wsync.yaml'), 'freeze:\n  - "0 9 * * * 2h"\n');
    const reread = lines.length;
    daemon.reload();
    await waitUntil(() => lines.slice(reread).some((l) => l.msg === 'reconcile' && l.frozen === true), { what: 'a frozen reconcile after SIGHUP', timeoutMs: 30_000 });
    expect(lines.slice(reread).find((l) => l.msg === 'configuration re-read')?.freeze).toEqual(['0 9 * * * 2h']);
    const status = (await (await fetch(`${daemon.url}/status`)).json()) as Record<string, unknown>;
    expect(status.freeze).toMatchObject({ windows: ['0 9 * * * 2h'], active: { until: '1970-01-01T11:00:00.000Z' } });
    const edited = lines.length;
    await writeFile(join(tree, 'b.yaml'), notifierYaml('reload-b'));
    await waitUntil(() => lines.slice(edited).some((l) => l.msg === 'reconcile' && l.frozen === true && l.drift === 1), { what: 'a frozen reconcile of the edit', timeoutMs: 30_000 });
    expect(await notifierNames()).not.toContain('reload-b');

    // A window that is not one: the re-read fails as a whole, the freeze in force stays.
    await writeFile(join(tree, 'wsync.yaml'), 'freeze:\n  - "0 9 * * * forever"\n');
    const failed = lines.length;
    daemon.reload();
    const failure = (): LogLine | undefined => lines.slice(failed).find((l) => l.msg === 'configuration re-read failed; keeping the previous one');
    await waitUntil(() => failure() !== undefined, { what: 'the failed re-read', timeoutMs: 30_000 });
    expect(String(failure()?.err)).toContain('wsync.yaml:1: freeze[0] "0 9 * * * forever"');
    const afterFailure = lines.indexOf(failure() as LogLine);
    await waitUntil(() => lines.slice(afterFailure).some((l) => l.msg === 'reconcile'), { what: 'the reconcile after the failed re-read', timeoutMs: 30_000 });
    expect(lines.slice(afterFailure).find((l) => l.msg === 'reconcile')).toMatchObject({ frozen: true, created: 0 });
    expect(await notifierNames()).not.toContain('reload-b');

    // The window removed: the next reconcile writes, the status and the gauge say no freeze.
    await writeFile(join(tree, 'wsync.yaml'), '# freeze lifted\n');
    daemon.reload();
    await waitUntil(async () => (await notifierNames()).includes('reload-b'), { what: 'the write once the window is gone', timeoutMs: 30_000 });
    expect(lines.filter((l) => l.msg === 'configuration re-read' && Array.isArray(l.freeze)).at(-1)?.freeze).toEqual([]);
    expect(((await (await fetch(`${daemon.url}/status`)).json()) as Record<string, unknown>).freeze).toBeNull();
    expect(sampleValue(await scrapeMetrics(daemon.url), 'wsync_freeze_active')).toBe(0);
  });
});
