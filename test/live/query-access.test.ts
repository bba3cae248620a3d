// What the token cannot see (#24.8): the service lists only monitors on datasets the token may
// query. A declared monitor the list does not show is never created a second time: wsync asks
// whether the token may query its datasets, and refuses naming the missing capability.
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/core/types.js';
import { withQueryAccess } from '../../src/live/index.js';
import { indexLive } from '../../src/plan/live-index.js';
import { PlanMemo } from '../../src/plan/plan-memo.js';
import { desiredFromTexts } from '../../src/source/index.js';
import { runCli } from '../support/cli.js';
import { apiClientFor, useTestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';
import { resource } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-query-access-');

const LIMITED = 'limited-token-secret';
const hiddenQuery = "['audit-logs'] | where action == 'delete' | summarize count() by bin_auto(_time)";
const visibleQuery = "checkout | where status >= 500 | summarize count() by bin_auto(_time)";
const monitor = (aplQuery: string, threshold: number) => ({
  type: 'Threshold',
  aplQuery,
  operator: 'Above',
  threshold,
  intervalMinutes: 5,
  rangeMinutes: 10,
});

async function seedWorkspace(): Promise<void> {
  await emulator.seed({
    datasets: [{ name: 'checkout' }, { name: 'audit-logs' }],
    monitors: [
      { name: 'Audit deletes', ...monitor(hiddenQuery, 1) },
      { name: 'Checkout errors', ...monitor(visibleQuery, 5) },
    ],
    tokens: [
      {
        name: 'ci-limited',
        token: LIMITED,
        orgCapabilities: { monitors: ['create', 'read', 'update', 'delete'], notifiers: ['read'], datasets: ['read'] },
        datasetCapabilities: { checkout: { query: ['read'] } },
      },
    ],
  });
}

describe('a declared monitor the token cannot see in the list', () => {
  it('the emulator lists and answers monitors only on datasets the token may query', async () => {
    await seedWorkspace();
    const listed = await emulator.call('GET', '/v2/monitors', { token: LIMITED });
    const names = (listed.body as { name: string }[]).map((m) => m.name);
    expect(names).toContain('Checkout errors');
    expect(names).not.toContain('Audit deletes');
    const query = await emulator.call('POST', '/v1/datasets/_apl?format=tabular', { token: LIMITED, body: { apl: "['audit-logs'] | limit 0" } });
    expect(query.status).toBe(403);
    expect(JSON.stringify(query.body)).toContain('query|read');
    const allowed = await emulator.call('POST', '/v1/datasets/_apl?format=tabular', { token: LIMITED, body: { apl: "['checkout'] | limit 0" } });
    expect(allowed.status).toBe(200);
  });

  it('a token that may query every dataset, and the admin token, list every monitor, before and after a limited token lists', async () => {
    // The workspace of the test before (one emulator per file), and a token granted query on "*".
    await emulator.seed({
      tokens: [{ name: 'ci-everywhere', token: 'everywhere-token-secret', orgCapabilities: { monitors: ['read'] }, datasetCapabilities: { '*': { query: ['read'] } } }],
    });
    const namesFor = async (token?: string) => {
      const listed = await emulator.call('GET', '/v2/monitors', token === undefined ? {} : { token });
      expect(listed.status).toBe(200);
      return (listed.body as { name: string }[]).map((m) => m.name).sort();
    };
    const every = ['Audit deletes', 'Checkout errors'];
    expect(await namesFor()).toEqual(every);
    expect(await namesFor('everywhere-token-secret')).toEqual(every);
    expect(await namesFor(LIMITED)).toEqual(['Checkout errors']);
    expect(await namesFor()).toEqual(every);
    expect(await namesFor('everywhere-token-secret')).toEqual(every);
  });

  it('plan and apply refuse to create it, naming the capability; nothing is written; a visible one plans as usual', async () => {
    const dir = await scratch.dir();
    await writeTree(dir, {
      'monitors/audit.yaml': resource('Monitor', 'Audit deletes', monitor(hiddenQuery, 1)),
      'monitors/checkout.yaml': resource('Monitor', 'Checkout errors', monitor(visibleQuery, 5)),
    });
    const env = { WSYNC_URL: emulator.url, WSYNC_TOKEN: LIMITED };
    await emulator.clearRequests();
    const planned = await runCli(['plan', dir, '--detailed-exitcode'], { env });
    expect(planned.code).toBe(1);
    const said = planned.stdout + planned.stderr;
    expect(said).toContain('Monitor "Audit deletes" is not in the monitors list');
    expect(said).toContain('datasetCapabilities["audit-logs"].query: [read]');
    expect(said).not.toContain('Checkout errors: create');
    const applied = await runCli(['apply', dir, '--state-dir', `${dir}-state`], { env });
    expect(applied.code).not.toBe(0);
    expect(applied.stdout + applied.stderr).toContain('datasetCapabilities["audit-logs"].query: [read]');
    expect(await emulator.writes()).toEqual([]);
    const state = await emulator.state();
    expect((state.monitors ?? []).filter((m) => m.name === 'Audit deletes')).toHaveLength(1);
    // One query per dataset of an unlisted monitor, none for the visible one's.
    const queries = (await emulator.requests()).filter((r) => r.path.startsWith('/v1/datasets/_apl'));
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((r) => r.status === 403)).toBe(true);
  });

  it('with a token that may query the dataset, the same tree plans no create (the monitor is listed: adopted)', async () => {
    const dir = await scratch.dir();
    await writeTree(dir, {
      'monitors/audit.yaml': resource('Monitor', 'Audit deletes', monitor(hiddenQuery, 1)),
      'monitors/checkout.yaml': resource('Monitor', 'Checkout errors', monitor(visibleQuery, 5)),
    });
    await emulator.clearRequests();
    const planned = await runCli(['plan', dir, '--detailed-exitcode', '--format', 'json'], { env: emulator.env });
    expect(planned.stderr).toBe('');
    expect(planned.code).toBe(2);
    const changes = (JSON.parse(planned.stdout) as { changes: { key: string; action: string }[] }).changes;
    expect(changes.map((c) => [c.key, c.action]).sort()).toEqual([['Audit deletes', 'adopt'], ['Checkout errors', 'adopt']]);
    // Nothing unlisted: no query was needed.
    expect((await emulator.requests()).filter((r) => r.path.startsWith('/v1/'))).toEqual([]);
  });

  it('an export made with the limited token plans clean with it and writes nothing', async () => {
    const out = `${await scratch.dir()}/export`;
    const env = { WSYNC_URL: emulator.url, WSYNC_TOKEN: LIMITED };
    const exported = await runCli(['export', '--out', out, '--kinds', 'Monitor'], { env });
    expect(exported.code, exported.stderr).toBe(0);
    await emulator.clearRequests();
    const exportedFiles = await readdir(`${out}/monitors`);
    expect(exportedFiles.join(' ')).not.toMatch(/audit/i);
    // The export holds only what the token sees (adopted as it was written): nothing to do.
    const planned = await runCli(['plan', out, '--detailed-exitcode'], { env });
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(await emulator.writes()).toEqual([]);
  });
});

describe('the query check', () => {
  it('says a dataset the service does not know (404) does not exist or is not visible, not that a capability is missing', async () => {
    await seedWorkspace();
    const dir = await scratch.dir();
    await writeTree(dir, { 'monitors/typo.yaml': resource('Monitor', 'Typo', monitor("['checkuot'] | summarize count() by bin_auto(_time)", 1)) });
    const planned = await runCli(['plan', dir], { env: emulator.env });
    expect(planned.code).toBe(1);
    const said = planned.stdout + planned.stderr;
    expect(said).toContain('dataset "checkuot" does not exist, or the token may not see it');
    expect(said).toContain('check the dataset name (or declare the dataset)');
    expect(said).not.toContain('datasetCapabilities["checkuot"]');
    expect(await emulator.writes()).toEqual([]);
  });

  it('reads the live objects through their kinds once per live snapshot: the planner takes the index the check made', async () => {
    await seedWorkspace();
    const client = apiClientFor(emulator);
    const listed = (await emulator.ok('GET', '/v2/monitors')) as { id: string }[];
    const live: LiveState = {
      objects: { Monitor: listed.map((raw) => ({ kind: 'Monitor' as const, id: raw.id, raw })) },
      listedKinds: ['Monitor'],
      listedDatasets: {},
      requests: 1,
    };
    const desired = desiredFromTexts([{ path: 'm.yaml', text: resource('Monitor', 'Not there yet', monitor(visibleQuery, 2)) }]);
    const memo = new PlanMemo();
    const checked = await withQueryAccess(client, desired, live, { memo });
    expect(checked.queryAccess).toEqual({ checkout: { allowed: true } });
    const index = memo.lastIndex?.index;
    expect(index?.entries.length).toBe(listed.length);
    // The planner's indexLive of the checked state is that index, not a second reading.
    expect(indexLive(checked, memo)).toBe(index);
    // The next reconcile over the same objects (the live cache's) reads none of them again.
    const again = await withQueryAccess(client, desired, { ...live }, { memo });
    expect(indexLive(again, memo).entries.every((entry, i) => entry === index?.entries[i])).toBe(true);
  });
});
