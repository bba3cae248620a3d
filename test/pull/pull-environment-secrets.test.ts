// `wsync pull --env prod` where secret fields read `${var:}` values of wsync.yaml: a credential the
// UI put there is reported, never written into wsync.yaml or the overlay, never printed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { commitTree, git, useScratch } from '../support/tree.js';
import { idOf } from '../support/workspace.js';

const scratch = useScratch('wsync-pull-env-probe-');
let emulator: TestEmulator;
let tree: string;

const HOOK = `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: hook
spec:
  properties:
    customWebhook:
      url: \${var:hookUrl}
      body: '{}'
      headers:
        Authorization: \${var:auth}
`;

beforeAll(async () => {
  emulator = await startTestEmulator();
  tree = scratch.tree({
    'wsync.yaml': 'environments:\n  prod:\n    vars: { hookUrl: "https://hooks.example.com/prod-plain", auth: "Basic plain-auth" }\n  staging:\n    vars: { hookUrl: "https://hooks.example.com/staging", auth: "Basic s" }\n',
    'hook.yaml': HOOK,
  });
  commitTree(tree);
  const applied = await runCli(['apply', '--env', 'prod', tree], { env: emulator.env });
  if (applied.code !== 0) throw new Error(`apply failed: ${applied.stdout}\n${applied.stderr}`);
});
afterAll(() => emulator.close());

describe('wsync pull --env and secret fields read from variables', () => {
  it('a webhook URL and headers changed in the UI are reported, not written into wsync.yaml, in --dry-run and pull', async () => {
    const id = idOf(await emulator.state(), 'notifiers', 'hook');
    const live = await emulator.ok<{ properties: { customWebhook: Record<string, unknown> } }>('GET', `/v2/notifiers/${id}`);
    const url = 'https://hooks.example.com/prod?key=capability-from-ui-secret-5';
    const auth = 'Bearer from-ui-secret-5';
    await emulator.ok('PUT', `/v2/notifiers/${id}`, { ...live, properties: { customWebhook: { ...live.properties.customWebhook, url, headers: { Authorization: auth, 'X-Extra': 'extra-secret-header-5' } } } });
    for (const args of [['--dry-run'], []]) {
      const r = await runCli(['pull', '--env', 'prod', tree, ...args], { env: emulator.env });
      const files = (await readFile(join(tree, 'wsync.yaml'), 'utf8')) + git(tree, 'status', '--porcelain', '--untracked-files=all') + git(tree, 'diff');
      for (const s of [url, auth, 'extra-secret-header-5']) {
        expect(r.stdout + r.stderr).not.toContain(s);
        expect(files).not.toContain(s);
      }
    }
  });
});
