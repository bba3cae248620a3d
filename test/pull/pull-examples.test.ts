// `wsync pull` on a copy of config-examples in a git repository: edits made through the API as the
// UI makes them come back into the files, exactly those lines and files, comments and placeholders
// kept, and the next plan says "no changes".
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { commitTree, git, useScratch } from '../support/tree.js';
import { DEMO_SECRETS, examplesWorkspace, idOf, type Workspace } from '../support/workspace.js';

let ws: Workspace;
const scratch = useScratch('wsync-pull-remote-');

beforeAll(async () => {
  ws = await examplesWorkspace({ applied: true });
  commitTree(ws.tree);
});
afterAll(() => ws.dispose());

const pull = (args: string[] = []) => runCli(['pull', ws.tree, ...args], { env: ws.env });

/** The lines of `before` and `after` that differ, as git's `-`/`+` lines. */
function changedLines(): string[] {
  return git(ws.tree, 'diff', '--unified=0', '--no-color')
    .split('\n')
    .filter((line) => /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line));
}

function commentsOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim().startsWith('#'));
}

describe('wsync pull (config-examples in git)', () => {
  it('an unchanged workspace changes nothing', async () => {
    const result = await pull();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('nothing to pull');
    expect(git(ws.tree, 'status', '--porcelain')).toBe('');
  });

  it('brings a threshold, a renamed chart and a new notifier back as exactly those lines and files', async () => {
    const state = await ws.emulator.state();
    const monitorId = idOf(state, 'monitors', 'checkout-error-rate');
    const monitor = await ws.emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${monitorId}`);
    await ws.emulator.ok('PUT', `/v2/monitors/${monitorId}`, { ...monitor, threshold: 40 });
    const boards = await ws.emulator.ok<{ uid: string; version: number; dashboard: { charts: { id: string; name?: string }[] } }[]>('GET', '/v2/dashboards');
    const board = boards[0]!;
    const charts = board.dashboard.charts.map((c) => (c.id === 'errors' ? { ...c, name: '5xx per minute (all regions)' } : c));
    await ws.emulator.ok('PUT', `/v2/dashboards/uid/${board.uid}`, { dashboard: { ...board.dashboard, charts }, version: board.version });
    await ws.emulator.ok('POST', '/v2/notifiers', { name: 'platform-chat', properties: { email: { emails: ['chat@example.com'] } } });

    const before = {
      monitors: await readFile(join(ws.tree, 'monitors/checkout.yaml'), 'utf8'),
      notifiers: await readFile(join(ws.tree, 'notifiers/notifiers.yaml'), 'utf8'),
    };
    const dry = await pull(['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('-  threshold: 25\n+  threshold: 40');
    expect(git(ws.tree, 'status', '--porcelain')).toBe('');

    const result = await pull();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('A notifiers/platform-chat.yaml');
    expect(git(ws.tree, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).sort()).toEqual([
      ' M dashboards/checkout.json',
      ' M monitors/checkout.yaml',
      '?? notifiers/platform-chat.yaml',
    ]);
    expect(changedLines()).toEqual([
      '-      "name": "5xx per minute",',
      '+      "name": "5xx per minute (all regions)",',
      '-  threshold: 25',
      '+  threshold: 40',
    ]);
    const after = await readFile(join(ws.tree, 'monitors/checkout.yaml'), 'utf8');
    expect(commentsOf(after)).toEqual(commentsOf(before.monitors));
    expect(await readFile(join(ws.tree, 'notifiers/notifiers.yaml'), 'utf8')).toBe(before.notifiers);
    expect(before.notifiers).toContain('${env:WSYNC_SLACK_WEBHOOK_URL}');
    const created = await readFile(join(ws.tree, 'notifiers/platform-chat.yaml'), 'utf8');
    expect(created).toContain('name: platform-chat');
    expect(created).toContain('# yaml-language-server: $schema=../../schemas/notifier.json');

    const plan = await ws.plan(['--detailed-exitcode']);
    expect(plan.stdout + plan.stderr).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('refuses to write files with uncommitted changes unless --force, and a tree that does not validate', async () => {
    git(ws.tree, 'add', '-A');
    git(ws.tree, 'commit', '-q', '-m', 'pulled');
    const state = await ws.emulator.state();
    const monitorId = idOf(state, 'monitors', 'checkout-latency-anomaly');
    const monitor = await ws.emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${monitorId}`);
    await ws.emulator.ok('PUT', `/v2/monitors/${monitorId}`, { ...monitor, tolerance: 30 });
    const file = join(ws.tree, 'monitors/checkout.yaml');
    const edited = `${await readFile(file, 'utf8')}# a note not committed yet\n`;
    await writeFile(file, edited);

    const dirty = await pull();
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toContain('uncommitted changes');
    expect(dirty.stderr).toContain('monitors/checkout.yaml');
    expect(await readFile(file, 'utf8')).toBe(edited);

    const narrowed = await pull(['--kind', 'Notifier']);
    expect(narrowed.code, narrowed.stderr).toBe(0);
    expect(narrowed.stdout).toContain('nothing to pull');

    const forced = await pull(['--force', '--target', 'Monitor/checkout-latency-anomaly']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(edited.replace('tolerance: 25', 'tolerance: 30'));

    await writeFile(join(ws.tree, 'monitors/broken.yaml'), 'apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: broken\nspec:\n  type: Threshold\n');
    const invalid = await pull();
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('monitors/broken.yaml');
    expect(invalid.stderr).toContain('the files do not validate');
  });

  it('reports a secret changed in the workspace and never prints or writes it', async () => {
    await rm(join(ws.tree, 'monitors/broken.yaml'));
    git(ws.tree, 'add', '-A');
    git(ws.tree, 'commit', '-q', '-m', 'forced pull');
    const state = await ws.emulator.state();
    const id = idOf(state, 'notifiers', 'oncall-slack');
    const changed = 'https://hooks.slack.example/services/T9/B9/changed-in-the-ui-secret';
    await ws.emulator.ok('PUT', `/v2/notifiers/${id}`, { name: 'oncall-slack', properties: { slack: { slackUrl: changed } } });
    const before = await readFile(join(ws.tree, 'notifiers/notifiers.yaml'), 'utf8');

    for (const args of [['--dry-run'], []]) {
      const result = await pull(args);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).toContain('Notifier/oncall-slack (notifiers/notifiers.yaml) properties.slack.slackUrl: a secret differs');
      for (const secret of [changed, DEMO_SECRETS.WSYNC_SLACK_WEBHOOK_URL]) expect(result.stdout + result.stderr).not.toContain(secret);
    }
    expect(await readFile(join(ws.tree, 'notifiers/notifiers.yaml'), 'utf8')).toBe(before);
    expect(git(ws.tree, 'status', '--porcelain')).toBe('');
  });

  it("takes as the base where the branch left the remote's default branch: an edit committed on a branch is a conflict, not overwritten", async () => {
    const remote = await scratch.dir();
    git(remote, 'init', '-q', '--bare');
    git(ws.tree, 'remote', 'add', 'origin', remote);
    git(ws.tree, 'push', '-q', 'origin', 'main');
    git(ws.tree, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    git(ws.tree, 'switch', '-q', '-c', 'edits');
    const file = join(ws.tree, 'monitors/checkout.yaml');
    const edited = (await readFile(file, 'utf8')).replace('intervalMinutes: 5\n', 'intervalMinutes: 6\n');
    await writeFile(file, edited);
    git(ws.tree, 'commit', '-q', '-am', 'not merged, not applied');
    const id = idOf(await ws.emulator.state(), 'monitors', 'checkout-error-rate');
    const monitor = await ws.emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${id}`);
    await ws.emulator.ok('PUT', `/v2/monitors/${id}`, { ...monitor, intervalMinutes: 7 });

    const result = await pull();
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('Monitor/checkout-error-rate (monitors/checkout.yaml) intervalMinutes: changed both in the workspace and in the tree since the base');
    expect(await readFile(file, 'utf8')).toBe(edited);
  });
});
