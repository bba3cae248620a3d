// End to end (the CLI against the emulator over 127.0.0.1): a workspace
// shaped as the service's makers show theirs (#24 items 2, 4, 5, 6) exports to files that plan with
// no changes and apply with no write; retention cuts and a dataset's region are guarded.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { useTestEmulator, type SeedObject } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { liveObjects } from '../support/workspace.js';
import { doc, resource } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-service-shapes-');

const DEPLOY_TIMES = ['2026-11-02T09:30:00.000Z', '2026-11-03T10:00:00.000Z', '2026-11-04T16:45:12.345Z'];

function seed(): Record<string, SeedObject[]> {
  return {
    datasets: [
      { name: 'logs', description: 'Application logs', useRetentionPeriod: true, retentionDays: 30 },
      { name: 'eu-logs', edgeDeployment: 'cloud.eu-central-1.aws' },
    ],
    annotations: [
      // A deploy marker from every deploy: one type and title, many times.
      ...DEPLOY_TIMES.map((time) => ({ type: 'production-deployment', title: 'Production deployment', datasets: ['logs'], time })),
      // No title, and a url that is not a URL (the OpenAPI takes any string).
      { type: 'deploy', datasets: ['logs'], time: '2026-11-05T08:00:00.000Z', url: 'JIRA-1234' },
      { type: 'deploy', datasets: ['eu-logs'], time: '2026-11-05T09:00:00.000Z' },
    ],
    monitors: [
      // Sent with another schedule: the service keeps 1 and 1 for a match monitor.
      { name: 'panics', type: 'MatchEvent', aplQuery: "['logs'] | where message contains 'panic'", intervalMinutes: 5, rangeMinutes: 10 },
    ],
  };
}

beforeAll(async () => {
  await emulator.seed(seed());
});

function wsync(args: string[], cwd?: string): Promise<CliResult> {
  return runCli(args, { env: emulator.env, ...(cwd === undefined ? {} : { cwd }) });
}

async function exported(): Promise<string> {
  const out = join(await scratch.dir(), 'tree');
  const result = await wsync(['export', '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  return out;
}

/** `plan --detailed-exitcode`: its code, and the writes the emulator saw meanwhile (none, ever). */
async function planClean(dir: string, ...flags: string[]): Promise<CliResult> {
  await emulator.clearRequests();
  const plan = await wsync(['plan', dir, '--detailed-exitcode', ...flags]);
  expect(await emulator.writes()).toEqual([]);
  return plan;
}

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  expect(text).toContain(from);
  await writeFile(file, text.replace(from, to));
}

describe('a workspace as the service has it: export, then plan and apply of the export', () => {
  it('plans with no changes and applies with no write; annotations made later by CI or a monitor never block a plan', async () => {
    const dir = await exported();

    const first = await planClean(dir);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).not.toContain('ambiguous');

    await emulator.clearRequests();
    const applied = await wsync(['apply', dir]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await emulator.writes()).toEqual([]);

    // CI adds another marker of the same type and title; a monitor triggers and makes its own.
    await emulator.ok('POST', '/v2/annotations', { type: 'production-deployment', title: 'Production deployment', datasets: ['logs'] });
    const monitor = liveObjects(await emulator.state(), 'monitors').find((m) => m.name === 'panics');
    await emulator.ok('POST', '/_emulator/monitor-trigger', { monitorId: monitor?.id });
    const later = await planClean(dir, '--prune');
    expect(later.code, later.stdout + later.stderr).toBe(0);
  });

  it('writes each deploy marker, an untitled annotation and a non-URL url as the service holds them', async () => {
    const dir = await exported();
    expect((await runCli(['validate', dir])).code).toBe(0);
    const untitled = liveObjects(await emulator.state(), 'annotations').find((a) => a.url === 'JIRA-1234');
    expect(untitled?.title).toBeUndefined();
    const names = await readdir(join(dir, 'annotations'));
    const texts = await Promise.all(names.map((name) => readFile(join(dir, 'annotations', name), 'utf8')));
    const deploys = texts.filter((text) => text.includes('Production deployment'));
    for (const time of DEPLOY_TIMES) expect(deploys.filter((text) => text.includes(time))).toHaveLength(1);
    const jira = texts.filter((text) => text.includes('url: JIRA-1234'));
    expect(jira).toHaveLength(1);
    expect(jira[0]).toContain('untitled deploy 2026-11-05T08:00:00.000Z');
    expect(jira[0]).toContain('title: ""');
  });

  it('exports a match monitor with the schedule the service keeps, and refuses a file that sets another', async () => {
    const dir = await exported();
    const monitors = await readFile(join(dir, 'monitors', 'panics.yaml'), 'utf8');
    expect(monitors).toContain('intervalMinutes: 1');
    expect(monitors).toContain('rangeMinutes: 1');
    await writeFile(join(dir, 'monitors', 'panics.yaml'), monitors.replace('intervalMinutes: 1', 'intervalMinutes: 5'));
    const plan = await planClean(dir);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toMatch(/monitors\/panics\.yaml:\d+:\d+: .*spec\.intervalMinutes: must be 1 \(A match monitor runs every minute/);
  });
});

describe('retention cuts are data loss', () => {
  it('a lowered retention is shown under "Data loss" and refused; --allow-data-loss Dataset applies it; raising it is an update', async () => {
    const dir = await exported();
    const file = join(dir, 'datasets', 'logs.yaml');
    await edit(file, 'retentionDays: 30', 'retentionDays: 7');

    const plan = await planClean(dir);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain('Data loss (1): read this before you apply');
    expect(plan.stdout).toContain('LOWERS RETENTION from 30 days to 7 days');
    const markdown = await planClean(dir, '--format', 'markdown');
    expect(markdown.stdout).toContain('#### :rotating_light: Data loss (1)');

    await emulator.clearRequests();
    // Held: apply carries out the rest of the plan (nothing here) and says what it held (exit 3).
    const refused = await wsync(['apply', dir]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('held: Dataset/logs: lowering a retention deletes data for good; re-run with --allow-data-loss Dataset');
    expect(await emulator.writes()).toEqual([]);
    expect(liveObjects(await emulator.state(), 'datasets').find((d) => d.name === 'logs')?.retentionDays).toBe(30);

    const allowed = await wsync(['apply', dir, '--allow-data-loss', 'Dataset']);
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect((await emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual(['PUT /v2/datasets/logs']);
    expect(liveObjects(await emulator.state(), 'datasets').find((d) => d.name === 'logs')?.retentionDays).toBe(7);

    await edit(file, 'retentionDays: 7', 'retentionDays: 60');
    await emulator.clearRequests();
    const raised = await wsync(['apply', dir]);
    expect(raised.code, raised.stdout + raised.stderr).toBe(0);
    expect(raised.stdout).not.toContain('Data loss');
    expect((await emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual(['PUT /v2/datasets/logs']);
    expect((await planClean(dir)).code).toBe(0);
  });
});

describe("a dataset's region is chosen at its creation", () => {
  it('is sent when a dataset is created, and a change is reported as needing a new dataset, never written', async () => {
    const dir = await exported();
    const eu = await readFile(join(dir, 'datasets', 'eu-logs.yaml'), 'utf8');
    expect(eu).toContain('edgeDeployment: cloud.eu-central-1.aws');
    // A dataset made without one reads back the org's default: exported as it is, no drift.
    expect(await readFile(join(dir, 'datasets', 'logs.yaml'), 'utf8')).toContain('edgeDeployment: cloud.us-east-1.aws');

    await writeFile(join(dir, 'datasets', 'archive.yaml'), resource('Dataset', 'archive', { edgeDeployment: 'cloud.eu-central-1.aws' }));
    await writeFile(join(dir, 'datasets', 'plain.yaml'), doc('kind: Dataset', 'metadata:', '  name: plain'));
    await emulator.clearRequests();
    const created = await wsync(['apply', dir]);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const datasets = liveObjects(await emulator.state(), 'datasets');
    expect(datasets.find((d) => d.name === 'archive')?.edgeDeployment).toBe('cloud.eu-central-1.aws');
    expect(datasets.find((d) => d.name === 'plain')?.edgeDeployment).toBe('cloud.us-east-1.aws');
    expect((await planClean(dir)).code).toBe(0);

    await edit(join(dir, 'datasets', 'eu-logs.yaml'), 'cloud.eu-central-1.aws', 'cloud.us-east-1.aws');
    const plan = await planClean(dir);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("edgeDeployment changes are not applied through the API: a dataset's kind and edge deployment are chosen at its creation");
    await emulator.clearRequests();
    const applied = await wsync(['apply', dir]);
    expect(applied.code).toBe(0);
    expect(await emulator.writes()).toEqual([]);
  });
});
