// Issue #27 item 7: inside a freeze window the daemon plans and reports, and writes nothing; one
// `wsync ctl reconcile --override-freeze` writes; when the window ends the daemon reconciles and
// the writes it held back go out. The daemon in this process on a fake clock, the emulator, ctl.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { parseFreezeWindow } from '../../src/daemon/freeze.js';
import { runCli } from '../support/cli.js';
import { useInProcessDaemons, type LogLine } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { FakeClock } from '../support/fake-clock.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { useScratch } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-freeze-');
const startDaemon = useInProcessDaemons(emulator);
const TOKEN = 'control-token-for-freeze-tests';
const HOUR = 3_600_000;

async function notifierNames(): Promise<string[]> {
  return ((await emulator.state()).notifiers ?? []).map((n) => String(n.name));
}

describe('a freeze window', () => {
  it('stops the daemon writing, lets one overriding reconcile write, and resumes the writes when it ends', async () => {
    const clock = new FakeClock();
    // 09:30 UTC, inside the window that opens at 09:00 for two hours.
    await clock.advance(9.5 * HOUR);
    const tree = scratch.tree({ 'a.yaml': notifierYaml('frozen-a') });
    const { daemon, lines } = await startDaemon({
      dir: tree,
      stateDir: join(tree, '.wsync'),
      policy: DEFAULT_POLICY,
      controlToken: () => TOKEN,
      freeze: [parseFreezeWindow('0 9 * * * 2h', '--freeze')],
      clock,
    });
    const reconciles = (): LogLine[] => lines.filter((l) => l.msg === 'reconcile');
    await waitUntil(() => reconciles().length > 0, { what: 'the first reconcile', timeoutMs: 30_000 });
    expect(reconciles()[0]).toMatchObject({ trigger: 'start', result: 'planned', frozen: true, created: 0 });
    expect(await notifierNames()).not.toContain('frozen-a');

    const until = '1970-01-01T11:00:00.000Z';
    const status = (await (await fetch(`${daemon.url}/status`)).json()) as Record<string, unknown>;
    expect(status.freeze).toEqual({ windows: ['0 9 * * * 2h'], active: { window: '0 9 * * * 2h', since: '1970-01-01T09:00:00.000Z', until } });
    expect(sampleValue(await scrapeMetrics(daemon.url), 'wsync_freeze_active')).toBe(1);
    expect(await (await fetch(`${daemon.url}/readyz`)).text()).toContain(`(frozen until ${until}: nothing is written)`);
    expect(await (await fetch(`${daemon.url}/`)).text()).toContain(`<dd id="freeze">yes, until ${until} (<code>0 9 * * * 2h</code>)`);
    const ctlStatus = await runCli(['ctl', 'status', '--daemon', daemon.url]);
    expect(ctlStatus.stdout).toMatch(new RegExp(`^freeze\\s+yes, until ${until} \\(0 9 \\* \\* \\* 2h\\): nothing is written`, 'm'));

    // An emergency: one reconcile writes.
    const override = await runCli(['ctl', 'reconcile', '--override-freeze', '--daemon', daemon.url], { env: { WSYNC_CONTROL_TOKEN: TOKEN } });
    expect(override.code).toBe(0);
    expect(override.stdout).toContain('overriding the freeze');
    await waitUntil(() => reconciles().some((l) => l.trigger === 'control' && l.result === 'applied' && l.created === 1), { what: 'the overriding reconcile', timeoutMs: 30_000 });
    expect(lines.some((l) => l.msg === 'freeze overridden (wsync ctl reconcile --override-freeze): this reconcile writes')).toBe(true);
    expect(await notifierNames()).toContain('frozen-a');

    // Still frozen: an edit is planned and reported, not written.
    const before = reconciles().length;
    await writeFile(join(tree, 'b.yaml'), notifierYaml('frozen-b'));
    await waitUntil(() => reconciles().slice(before).some((l) => l.trigger === 'change' && l.frozen === true && l.drift === 1), { what: 'a frozen reconcile of the edit', timeoutMs: 30_000 });
    expect(await notifierNames()).not.toContain('frozen-b');

    // 11:00: the window ends, the daemon reconciles by itself and writes what it held back.
    await clock.advance(1.5 * HOUR);
    // (The watcher may report the edit once more after 11:00: then that reconcile writes it first.)
    await waitUntil(() => reconciles().some((l) => l.trigger === 'freeze-end' && l.result === 'applied'), { what: 'the reconcile at the end of the window', timeoutMs: 30_000 });
    await waitUntil(async () => (await notifierNames()).includes('frozen-b'), { what: 'the write held back', timeoutMs: 30_000 });
    expect(reconciles().filter((l) => l.created === 1 && l.frozen !== true).length).toBe(2);
    expect(await notifierNames()).toContain('frozen-b');
    expect(sampleValue(await scrapeMetrics(daemon.url), 'wsync_freeze_active')).toBe(0);
    expect((await runCli(['ctl', 'status', '--daemon', daemon.url])).stdout).toMatch(/^freeze\s+not now \(windows: 0 9 \* \* \* 2h\)$/m);
  });

  it('is a clear error naming the flag, the variable or the line of wsync.yaml when it is not a window', async () => {
    const tree = scratch.tree({ 'a.yaml': notifierYaml('never-started'), 'wsync.yaml': 'freeze:\n  - "0 22 * * 5 60h"\n  - "0 22 * * 5"\n' });
    const env = { ...emulator.env, WSYNC_LISTEN: '127.0.0.1:0' };
    const flag = await runCli(['run', tree, '--freeze', '0 22 * * 5 60h', '--freeze', '0 25 * * * 1h'], { env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--freeze "0 25 * * * 1h": not a cron expression: 25 is not a valid expression for hour');
    const variable = await runCli(['run', tree], { env: { ...env, WSYNC_FREEZE: '0 22 * * 5 60h; 0 22 * * 5 forever' } });
    expect(variable.code).toBe(1);
    expect(variable.stderr).toContain('WSYNC_FREEZE "0 22 * * 5 forever": "forever" is not a duration of at least a minute');
    const file = await runCli(['run', tree], { env });
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('wsync.yaml:1: freeze[1] "0 22 * * 5": a cron of five fields (minute hour day-of-month month day-of-week), then a duration');
  });

  it('refuses --override-freeze with another verb', async () => {
    const result = await runCli(['ctl', 'suspend', '--override-freeze', '--daemon', 'http://127.0.0.1:9'], { env: { WSYNC_CONTROL_TOKEN: TOKEN } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--override-freeze goes with reconcile, not suspend');
  });
});
