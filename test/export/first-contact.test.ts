// First contact with a real workspace (issue #24): the CLI against the emulator seeded with objects
// shaped like the ones the service's makers show in their own tests (evidence in
// docs/wire-contract.md), and odd objects the API no longer takes. `export` then
// `plan --detailed-exitcode` of the export exits 0 with no write, and no header value appears in
// any file or output.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { editFile, useScratch } from '../support/tree.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-first-contact-');

/** Header values, as axiom-go's live test and the provider's acceptance test send them. */
const HEADER_AUTH = 'Bearer first-contact-header-5c1d7e';
const HEADER_KEY = 'hdr-key-first-contact-90ab12';
const WEBHOOK_URL = 'https://incidents.example.com/hook?token=first-contact-url-77e0c3';
const VARIABLES = {
  WSYNC_NOTIFIER_INCIDENTS_URL: WEBHOOK_URL,
  WSYNC_NOTIFIER_INCIDENTS_HEADERS_AUTHORIZATION: HEADER_AUTH,
  WSYNC_NOTIFIER_INCIDENTS_HEADERS_X_API_KEY: HEADER_KEY,
};
const GONE_NOTIFIER = 'notify_00000000000000ff';

const printed: string[] = [];
let out = '';

async function wsync(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const result = await runCli(args, { env: { ...emulator.env, ...env } });
  printed.push(result.stdout, result.stderr);
  return result;
}

async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name).slice(dir.length + 1), await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return files;
}

beforeAll(async () => {
  await emulator.seed({
    datasets: [{ name: 'logs' }],
    users: [{ id: 'usr_ada', name: 'Ada', email: 'ada@example.com', role: 'user' }],
    notifiers: [
      {
        id: 'notify_0000000000000001',
        name: 'incidents',
        properties: { customWebhook: { url: WEBHOOK_URL, body: '{"key":"value"}', headers: { Authorization: HEADER_AUTH, 'X-Api-Key': HEADER_KEY } } },
      },
    ],
    // The provider's acceptance tests give tokens capabilities on "new-dataset", which nothing made.
    roles: [{ name: 'future', datasetCapabilities: { 'new-dataset': { ingest: ['create'], query: ['read'] } } }],
    tokens: [{ name: 'ingest-later', datasetCapabilities: { 'new-dataset': { ingest: ['create'] } } }],
    starredQueries: [{ name: 'anywhere', kind: 'apl', who: 'usr_ada', dataset: '', query: { apl: "['logs'] | count" }, metadata: {} }],
    monitors: [{ name: 'good', type: 'Threshold', aplQuery: "['logs'] | count", operator: 'Above', threshold: 1, intervalMinutes: 5, rangeMinutes: 5, notifierIds: ['notify_0000000000000001'] }],
  });
  // What the API would refuse today but a workspace holds: stored as they are.
  await emulator.store({
    monitors: [
      { id: 'mon_00000000000000a1', name: 'no type', aplQuery: "['logs'] | count", intervalMinutes: 5, rangeMinutes: 5 },
      {
        id: 'mon_00000000000000a2',
        name: 'pages someone',
        type: 'Threshold',
        aplQuery: "['logs'] | count",
        operator: 'Above',
        threshold: 1,
        intervalMinutes: 5,
        rangeMinutes: 5,
        notifierIds: ['notify_0000000000000001', GONE_NOTIFIER],
      },
    ],
    dashboards: [
      { id: 'only-name', version: 1, dashboard: { name: 'Only a name' } },
      { id: 'team/board', version: 1, dashboard: { name: 'Slash', owner: 'X-AXIOM-EVERYONE', charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: 'qr-now-1h', timeWindowEnd: 'qr-now' } },
    ],
  });
  out = join(await scratch.dir(), 'workspace');
});

describe('export, then plan of the export', () => {
  it('the service answers custom webhook headers on GET as stored (axiom-go live test), and so does the emulator', async () => {
    const notifier = await emulator.ok<{ properties: { customWebhook: { headers: Record<string, string> } } }>('GET', '/v2/notifiers/notify_0000000000000001');
    expect(notifier.properties.customWebhook.headers).toEqual({ Authorization: HEADER_AUTH, 'X-Api-Key': HEADER_KEY });
  });

  it('exports what plans clean and names each object it leaves out by id', async () => {
    const exported = await wsync(['export', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('Monitor "no type" (id mon_00000000000000a1): not exported');
    expect(exported.stderr).toContain('Dashboard "only-name" (id only-name): not exported');
    expect(exported.stderr).toContain('Dashboard "team/board" (id team/board): not exported');
    expect(exported.stderr).toContain(`Monitor "pages someone" (id mon_00000000000000a2): its notifiers name 1 Notifier id(s)`);
    expect(exported.stdout.split('\n')).toEqual(expect.arrayContaining(Object.keys(VARIABLES)));
    const files = await filesUnder(out);
    expect([...files.keys()].filter((path) => !path.startsWith('.')).sort()).toEqual([
      'datasets/logs.yaml',
      'monitors/good.yaml',
      'monitors/pages-someone-ed598f.yaml',
      'notifiers/incidents.yaml',
      'roles/future.yaml',
      'starred-queries/ada-example-com-anywhere-44e68c.yaml',
      'tokens/ingest-later.yaml',
      'users/ada-example-com-35c657.yaml',
    ]);
    expect(files.get('monitors/pages-someone-ed598f.yaml')).toContain(`- id:${GONE_NOTIFIER}\n`);
    expect(files.get('roles/future.yaml')).toContain('new-dataset:');
    for (const [path, text] of files) {
      for (const secret of Object.values(VARIABLES)) expect(text, path).not.toContain(secret);
    }
  });

  it('plan --detailed-exitcode of the export exits 0 and writes nothing; capabilities on a missing dataset are a warning', async () => {
    await emulator.clearRequests();
    const planned = await wsync(['plan', out, '--detailed-exitcode'], VARIABLES);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.stdout).toContain('No changes');
    expect(planned.stdout + planned.stderr).toContain('spec.datasetCapabilities.new-dataset: no Dataset named "new-dataset"');
    expect(await emulator.writes()).toEqual([]);
  });

  it('a monitor file that drops a notifier the list does not show is refused, unless it says so', async () => {
    const file = join(out, 'monitors', 'pages-someone-ed598f.yaml');
    const original = await readFile(file, 'utf8');
    await editFile(file, (text) => text.replace(`    - id:${GONE_NOTIFIER}\n`, ''));
    const refused = await wsync(['apply', out], VARIABLES);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(`notifiers: id:${GONE_NOTIFIER}`);
    await editFile(file, (text) => text.replace('  name: pages someone\n', '  name: pages someone\n  annotations:\n    wsync/detach-unlisted: "true"\n'));
    const allowed = await wsync(['plan', out, '--detailed-exitcode'], VARIABLES);
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(2);
    expect(allowed.stdout).toContain(`id:${GONE_NOTIFIER}`);
    await editFile(file, () => original);
  });

  it('a tree that does not validate sends no request and fails at once', async () => {
    const file = join(out, 'monitors', 'good.yaml');
    const original = await readFile(file, 'utf8');
    await editFile(file, (text) => text.replace('type: Threshold', 'type: Thresold'));
    await emulator.clearRequests();
    const planned = await wsync(['plan', out, '--detailed-exitcode'], VARIABLES);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('nothing was read from the API');
    expect(await emulator.requests()).toEqual([]);
    await editFile(file, () => original);
  });

  it('no header value (nor the webhook URL) in any output', () => {
    const all = printed.join('\n');
    for (const secret of Object.values(VARIABLES)) expect(all).not.toContain(secret);
  });
});
