// `wsync pull` on config-examples, adversarially: a credential the UI put into a secret field
// (written plainly in the file or not in it at all, on a declared or on a new object) is never
// printed by --dry-run or pull nor written into the tree; a file that is a link stays a link.
import { lstat, mkdir, readdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { commitTree, git } from '../support/tree.js';
import { DEMO_SECRETS, examplesWorkspace, idOf, type Workspace } from '../support/workspace.js';

let ws: Workspace;

beforeAll(async () => {
  ws = await examplesWorkspace({ applied: true });
  commitTree(ws.tree);
});
afterAll(() => ws.dispose());

const pull = (args: string[] = []) => runCli(['pull', ws.tree, ...args], { env: ws.env });

async function treeText(dir: string): Promise<string> {
  let out = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.parentPath.includes('.wsync') || entry.parentPath.includes('.git')) continue;
    out += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

describe('wsync pull never writes or prints a credential from a secret field', () => {
  it('the UI changed secret fields the file writes plainly (a webhook URL, a header)', async () => {
    const state = await ws.emulator.state();
    const id = idOf(state, 'notifiers', 'incident-webhook');
    const live = await ws.emulator.ok<{ properties: { customWebhook: Record<string, unknown> } }>('GET', `/v2/notifiers/${id}`);
    const url = 'https://incidents.example.com/hooks/wsync?key=capability-url-secret-77';
    const header = 'Bearer header-set-in-the-ui-secret-77';
    const hook = { ...live.properties.customWebhook, url, headers: { 'Content-Type': 'application/json', Authorization: header } };
    await ws.emulator.ok('PUT', `/v2/notifiers/${id}`, { ...live, properties: { customWebhook: hook } });

    for (const args of [['--dry-run'], []]) {
      const result = await pull(args);
      for (const secret of [url, header]) expect(result.stdout + result.stderr).not.toContain(secret);
      for (const secret of [url, header]) expect(await treeText(ws.tree)).not.toContain(secret);
    }
    git(ws.tree, 'checkout', '--', '.');
  });

  it('a webhook notifier made in the UI: its new file reads its secrets from the environment', async () => {
    const url = 'https://hooks.example.com/new?token=new-notifier-url-secret-88';
    const secretHeader = 'Bearer new-notifier-secret-header-88';
    const header = 'Basic new-notifier-plain-header-88';
    await ws.emulator.ok('POST', '/v2/notifiers', {
      name: 'made-in-the-ui',
      properties: { customWebhook: { url, headers: { Authorization: header }, secretHeaders: { 'X-Key': secretHeader }, body: '{}' } },
    });
    for (const args of [['--dry-run', '--kind', 'Notifier'], ['--kind', 'Notifier']]) {
      const result = await pull(args);
      for (const secret of [url, secretHeader, header]) expect(result.stdout + result.stderr).not.toContain(secret);
      for (const secret of [url, secretHeader, header]) expect(await treeText(ws.tree)).not.toContain(secret);
    }
    expect(await readFile(join(ws.tree, 'notifiers/made-in-the-ui.yaml'), 'utf8')).toContain('url: ${env:WSYNC_NOTIFIER_MADE_IN_THE_UI_URL}');
    // Its variables are not set here: out of the tree again for the next test.
    await rm(join(ws.tree, 'notifiers/made-in-the-ui.yaml'));
  });
});

describe('wsync pull and symbolic links in the tree', () => {
  it('a file that is a link inside the tree is edited where it points, the link kept', async () => {
    const link = join(ws.tree, 'monitors/checkout.yaml');
    const shared = join(ws.tree, '.shared/checkout.yaml');
    await mkdir(join(ws.tree, '.shared'));
    await rename(link, shared);
    await symlink('../.shared/checkout.yaml', link);
    git(ws.tree, 'add', '-A');
    git(ws.tree, 'commit', '-q', '-m', 'shared monitors');
    const state = await ws.emulator.state();
    const id = idOf(state, 'monitors', 'checkout-error-rate');
    const monitor = await ws.emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${id}`);
    await ws.emulator.ok('PUT', `/v2/monitors/${id}`, { ...monitor, threshold: 41 });

    const result = await pull(['--kind', 'Monitor']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(shared, 'utf8')).toContain('threshold: 41');
  });
});

describe('wsync pull and placeholders typed in the UI', () => {
  it('a "${env:...}" the UI wrote into a field comes back escaped ($${), so the next plan never reads the variable', async () => {
    git(ws.tree, 'add', '-A');
    git(ws.tree, 'commit', '-q', '--allow-empty', '-m', 'before placeholders');
    const smuggled = 'paged by ${env:WSYNC_PAGERDUTY_ROUTING_KEY}';
    const state = await ws.emulator.state();
    const id = idOf(state, 'monitors', 'checkout-error-rate');
    const monitor = await ws.emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${id}`);
    await ws.emulator.ok('PUT', `/v2/monitors/${id}`, { ...monitor, description: smuggled });
    await ws.emulator.ok('POST', '/v2/monitors', { ...monitor, id: undefined, name: 'made-in-the-ui-monitor', description: smuggled });

    const result = await pull(['--kind', 'Monitor']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const escaped = 'paged by $${env:WSYNC_PAGERDUTY_ROUTING_KEY}';
    expect(await readFile(join(ws.tree, '.shared/checkout.yaml'), 'utf8')).toContain(`description: ${escaped}\n`);
    expect(await readFile(join(ws.tree, 'monitors/made-in-the-ui-monitor.yaml'), 'utf8')).toContain(escaped);

    const plan = await ws.plan(['--kind', 'Monitor', '--detailed-exitcode']);
    expect(plan.stdout + plan.stderr).not.toContain(DEMO_SECRETS.WSYNC_PAGERDUTY_ROUTING_KEY);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });
});
