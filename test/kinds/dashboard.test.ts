// A dashboard as code, through the real CLI against the emulator: the document in a JSON file
// beside the YAML, a no-op second plan, one edited chart shown per chart, a save made in the UI
// between plan and write (412: re-planned and reported, never written over), and export's round trip.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';

const UID = 'checkout-overview';

interface Chart {
  id: string;
  type: string;
  name?: string;
  query?: { apl: string };
}

interface Document {
  name: string;
  charts: Chart[];
  [key: string]: unknown;
}

const DOCUMENT: Document = {
  name: 'Checkout overview',
  charts: [
    { id: 'errors', name: 'Errors', type: 'TimeSeries', query: { apl: "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)" } },
    { id: 'p95', name: 'p95', type: 'Statistic', query: { apl: "['checkout'] | summarize percentile(duration_ms, 95)" } },
  ],
  layout: [
    { i: 'errors', x: 0, y: 0, w: 8, h: 4 },
    { i: 'p95', x: 8, y: 0, w: 4, h: 4 },
  ],
  refreshTime: 60,
  schemaVersion: 2,
  timeWindowStart: 'qr-now-1h',
  timeWindowEnd: 'qr-now',
};

const RESOURCE = ['apiVersion: wsync/v1', 'kind: Dashboard', 'metadata:', `  name: ${UID}`, 'spec:', '  file: checkout.json', ''].join('\n');

const emulator = useTestEmulator();
const scratch = useScratch('wsync-dashboard-');
let root: string;
let tree: string;

function wsync(args: string[]): Promise<CliResult> {
  return runCli(args, { env: emulator.env });
}

async function writeDocument(document: Document): Promise<void> {
  await writeFile(join(tree, 'dashboards', 'checkout.json'), `${JSON.stringify(document, null, 2)}\n`);
}

async function liveDashboard(): Promise<{ version: number; dashboard: Document }> {
  const found = ((await emulator.state()).dashboards ?? []).find((d) => d.uid === UID);
  if (!found) throw new Error(`no dashboard ${UID} in the emulator`);
  return found as unknown as { version: number; dashboard: Document };
}

/** The document with one chart's query changed. */
function withQuery(document: Document, chartId: string, apl: string): Document {
  return { ...document, charts: document.charts.map((c) => (c.id === chartId ? { ...c, query: { apl } } : c)) };
}

beforeAll(async () => {
  root = await scratch.dir();
  tree = join(root, 'tree');
  await writeTree(tree, { 'dashboards/checkout.yaml': RESOURCE });
  await writeDocument(DOCUMENT);
});

describe('Dashboard, end to end', () => {
  it('creates the dashboard from the JSON file with its uid, and a second plan has nothing to do', async () => {
    const applied = await wsync(['apply', tree]);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`Dashboard/${UID}: created ${UID}`);
    const live = await liveDashboard();
    expect(live.version).toBe(1);
    expect(live.dashboard.charts.map((c) => c.id)).toEqual(['errors', 'p95']);
    // Answered in lower case, as the service does: still the same owner, so no change below.
    expect(live.dashboard.owner).toMatch(/^x-axiom-everyone$/i);

    // The service adds uid, owner and its own keys to what it answers: none of them is a change.
    const again = await wsync(['plan', tree, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('shows an edited chart by its id, and writes it with the version it read', async () => {
    await writeDocument(withQuery(DOCUMENT, 'p95', "['checkout'] | summarize percentile(duration_ms, 99)"));
    const plan = await wsync(['plan', tree, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(`~ update  Dashboard/${UID}`);
    expect(plan.stdout).toMatch(/^ +chart p95\n +query\.apl: .*percentile\(duration_ms, \[-95-\]\{\+99\+\}\)/m);
    // Only the chart that changed is named.
    expect(plan.stdout).not.toMatch(/chart errors/);

    await emulator.clearRequests();
    const applied = await wsync(['apply', tree]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('0 created, 1 updated');
    const writes = await emulator.writes();
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([`PUT /v2/dashboards/uid/${UID}`]);
    const live = await liveDashboard();
    expect(live.version).toBe(2);
    expect(live.dashboard.charts.find((c) => c.id === 'p95')?.query?.apl).toBe("['checkout'] | summarize percentile(duration_ms, 99)");
  });

  it('never writes over a save made in the UI between plan and write: 412, re-planned, reported; the next apply writes it', async () => {
    const edited = withQuery(withQuery(DOCUMENT, 'p95', "['checkout'] | summarize percentile(duration_ms, 99)"), 'errors', "['checkout'] | where status >= 400 | count");
    await writeDocument(edited);
    // Someone renames the dashboard in the UI just before wsync's write reaches the service.
    await emulator.ok('POST', '/_emulator/dashboards/ui-save', { uid: UID, dashboard: { name: 'Checkout (renamed in the UI)' }, when: 'before-next-write' });

    const applied = await wsync(['apply', tree]);
    expect(applied.stdout).toMatch(
      /Dashboard\/checkout-overview: .*changed in the workspace since the plan: not written over\. Re-planned against it: 2 fields differ \(dashboard\.charts\[errors\]\.query\.apl, dashboard\.name\)/,
    );
    expect(applied.stdout).toContain('1 skipped');
    // The run goes on, and the next one writes it; the exit code says the files are not in effect yet.
    expect(applied.code).toBe(3);
    const live = await liveDashboard();
    // The UI's save stands; nothing of ours was written over it.
    expect(live.dashboard.name).toBe('Checkout (renamed in the UI)');
    expect(live.dashboard.charts.find((c) => c.id === 'errors')?.query?.apl).toBe(DOCUMENT.charts[0]?.query?.apl);
    expect(live.version).toBe(3);

    // The next plan shows what the UI changed as a change to undo, before anything is written.
    const plan = await wsync(['plan', tree]);
    expect(plan.stdout).toContain('Checkout (renamed in the UI)');
    expect(plan.stdout).toMatch(/^ +chart errors$/m);
    const next = await wsync(['apply', tree]);
    expect(next.code).toBe(0);
    expect(next.stdout).toContain('0 created, 1 updated');
    expect((await liveDashboard()).dashboard.name).toBe(DOCUMENT.name);
    expect((await liveDashboard()).version).toBe(4);
  });

  it('exports the dashboard as a YAML file and a JSON document a person can diff; the export plans clean', async () => {
    const out = join(root, 'exported');
    // Read only: the tree's own state directory holds the workspace's writer lease.
    const exported = await wsync(['export', '--out', out, '--kinds', 'Dashboard', '--no-adopt']);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const yaml = await readFile(join(out, 'dashboards', `${UID}.yaml`), 'utf8');
    expect(yaml).toContain(`  file: ${UID}.json`);
    const document = JSON.parse(await readFile(join(out, 'dashboards', `${UID}.json`), 'utf8')) as Document;
    // The service's own keys stay out of the file.
    for (const key of ['uid', 'version', 'createdAt', 'updatedBy']) expect(document).not.toHaveProperty(key);
    const ours = JSON.parse(await readFile(join(tree, 'dashboards', 'checkout.json'), 'utf8')) as Document;
    expect(document.charts).toEqual(ours.charts);
    expect(document.name).toBe(ours.name);

    // Planned with the inventory of the tree that made it: the same object, owned, no change.
    const plan = await wsync(['plan', out, '--detailed-exitcode', '--state-dir', join(tree, '.wsync')]);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });
});
