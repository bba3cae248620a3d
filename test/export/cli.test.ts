// End to end: the real CLI against the real emulator over 127.0.0.1, seeded with a varied workspace.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GROUPS_PATH, WRITER_LEASE_GROUP } from '../../src/core/writer-lease-record.js';
import { leaseDescription } from '../../src/reconcile/writer-lease.js';
import { runCli } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { SECRETS, VARIABLES, seedWorkspace } from './fixtures.js';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

const emulator = useTestEmulator({ seed: 11 });
const scratch = useScratch('wsync-export-cli-');
let work: string;
/** Everything any run printed, for the no-secret-in-output check. */
const printed: string[] = [];

async function wsync(args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const result = await runCli(args, { cwd: work, env: { ...emulator.env, ...extraEnv } });
  printed.push(result.stdout, result.stderr);
  return { code: result.code ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Relative path -> bytes of every file under `dir`, skipping the state directory unless asked. */
async function snapshot(dir: string, withState = false): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name).slice(dir.length + 1);
    if (path.startsWith('.wsync') && !withState) continue;
    out.set(path, await readFile(join(dir, path)));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function listedVariables(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.indexOf('Set these environment variables before plan/apply:');
  if (start < 0) return [];
  return lines.slice(start + 1).filter((line) => line.trim() !== '');
}

beforeAll(async () => {
  await emulator.seed(seedWorkspace());
  work = await scratch.dir();
});

/** Requests the emulator has answered so far, and how many of them were writes. */
async function requestCount(): Promise<{ all: number; writes: number }> {
  const log = await emulator.requests();
  return { all: log.length, writes: log.filter((r) => r.method !== 'GET' && r.path.startsWith('/v2/')).length };
}

describe('wsync export (CLI, emulator)', () => {
  it('round trip: export (no flag), set the listed variables, plan says no changes; after one apply, still none', async () => {
    const out = join(work, 'workspace');
    const exported = await wsync(['export', out]);
    expect(exported.stderr).not.toMatch(/^export:/m);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^Exported 38 objects \(/m);
    expect(exported.stdout).toContain(`Adopted 38 objects: recorded as owned by wsync in ${join('workspace', '.wsync')}`);
    expect(listedVariables(exported.stdout)).toEqual(Object.keys(VARIABLES).sort());
    const folders = (await readdir(out)).sort();
    expect(folders).toEqual(['.schemas', '.wsync', 'annotations', 'dashboards', 'datasets', 'fields', 'groups', 'monitors', 'notifiers', 'orgs', 'roles', 'starred-queries', 'tokens', 'users', 'vfields', 'views']);
    // The modelines point into the export itself, so they still resolve once the folder is committed elsewhere.
    const monitor = await readFile(join(out, 'monitors', 'payments.yaml'), 'utf8');
    expect(monitor.split('\n')[0]).toBe('# yaml-language-server: $schema=../.schemas/monitor.json');
    const schema = JSON.parse(await readFile(join(out, '.schemas', 'monitor.json'), 'utf8')) as { properties?: { kind?: unknown } };
    expect(schema.properties?.kind).toEqual({ const: 'Monitor' });

    const validated = await wsync(['validate', out], VARIABLES);
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);

    // PagerDuty secrets come back blank; --adopt trusts the values set for the listed variables.
    const first = await wsync(['plan', out, '--detailed-exitcode'], VARIABLES);
    expect(first.stdout).toContain('No changes');
    expect(first.code).toBe(0);

    // The first apply writes nothing and records the real hashes in place of the trust markers.
    const before = await requestCount();
    const applied = await wsync(['apply', out], VARIABLES);
    expect(applied.code).toBe(0);
    expect((await requestCount()).writes).toBe(before.writes);
    const inventory = await readFile(join(out, '.wsync', 'inventory.json'), 'utf8');
    expect(inventory).not.toContain('trust-on-first-use');
    expect(inventory).toMatch(/"\/properties\/pagerduty\/routingKey": "hmac-sha256:/);

    const second = await wsync(['plan', out, '--detailed-exitcode'], VARIABLES);
    expect(second.stdout).toContain('No changes');
    expect(second.code).toBe(0);

    // From then on a rotated PagerDuty key is an ordinary (sensitive) update.
    const rotatedVar = Object.keys(VARIABLES).find((name) => name.includes('PAGERDUTY') && name.endsWith('ROUTINGKEY'));
    expect(rotatedVar).toBeDefined();
    const rotated = await wsync(['plan', out, '--detailed-exitcode'], { ...VARIABLES, [rotatedVar as string]: 'rotated-routing-key-0042' });
    expect(rotated.code).toBe(2);
    expect(rotated.stdout).toMatch(/~ update\s+Notifier\/pages \/ pagerduty/);
    expect(rotated.stdout).toContain('(sensitive value changed)');
  });

  it('a second export of the unchanged workspace is byte-identical', async () => {
    const one = join(work, 'first');
    const two = join(work, 'second');
    expect((await wsync(['export', '--out', one])).code).toBe(0);
    expect((await wsync(['export', two])).code).toBe(0);
    const a = await snapshot(one);
    const b = await snapshot(two);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
    const yamlFiles = [...a].filter(([path]) => path.endsWith('.yaml'));
    expect(yamlFiles.length).toBeGreaterThan(20);
    for (const [, content] of yamlFiles) expect(content.toString('utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.schemas\/\S+\.json\n/);
    // A dashboard's document is pretty JSON beside its YAML, which names it.
    const documents = [...a].filter(([path]) => path.endsWith('.json') && !path.includes('.schemas'));
    expect(documents.map(([path]) => path)).toEqual(['dashboards/checkout-overview.json']);
    for (const [path, content] of documents) expect(JSON.parse(content.toString('utf8')), path).toHaveProperty('charts');

    // Into a non-empty directory only with --force, which rewrites the same bytes.
    const refused = await wsync(['export', '--out', one]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty; pass --force');
    const forced = await wsync(['export', '--out', one, '--force']);
    expect(forced.code).toBe(0);
    const again = await snapshot(one);
    expect([...again.keys()]).toEqual([...a.keys()]);
    for (const [path, bytes] of a) expect(again.get(path)?.equals(bytes), path).toBe(true);
  });

  it('exports only the kinds asked for, and names the kinds it knows when one is unknown', async () => {
    const out = join(work, 'some');
    const result = await wsync(['export', '--out', out, '--kinds', 'Monitor,notifiers', '--schema-base', 'https://schemas.example.com/wsync', '--no-adopt']);
    expect(result.code).toBe(0);
    // No schemas folder with a base given, no state directory with --no-adopt.
    expect((await readdir(out)).sort()).toEqual(['monitors', 'notifiers']);
    expect(result.stdout).toContain('Not adopted (--no-adopt)');
    const monitor = await readFile(join(out, 'monitors', 'payments.yaml'), 'utf8');
    expect(monitor.split('\n')[0]).toBe('# yaml-language-server: $schema=https://schemas.example.com/wsync/monitor.json');
    expect(monitor).toContain('  notifiers:\n    - payments\n');

    const unknown = await wsync(['export', '--out', join(work, 'none'), '--kinds', 'Monitor,Widgets']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--kind: unknown kind "Widgets"');
    expect(existsSync(join(work, 'none'))).toBe(false);
  });

  it('another wsync writing the workspace (its writer lease) refuses the adoption before any file is written', async () => {
    const holder = { id: 'f'.repeat(32), host: 'elsewhere', stateDir: '/var/lib/wsync', expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
    const made = await fetch(`${emulator.url}${GROUPS_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: WRITER_LEASE_GROUP, description: leaseDescription(holder), members: [], roles: [] }),
    });
    expect(made.ok).toBe(true);
    const { id } = (await made.json()) as { id: string };
    try {
      const out = join(work, 'leased');
      const refused = await wsync(['export', out]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^export: the workspace is being written by another wsync \(writer ffffffff on elsewhere/m);
      expect(existsSync(out)).toBe(false);

      // Without adoption export only reads: allowed, and the next plan adopts what it exported.
      const readOnly = await wsync(['export', out, '--no-adopt']);
      expect(readOnly.code).toBe(0);
      expect(existsSync(join(out, '.wsync'))).toBe(false);
      const planned = await wsync(['plan', out, '--detailed-exitcode'], VARIABLES);
      expect(planned.code).toBe(2);
      expect(planned.stdout).toMatch(/apply adopts them with no API write/);
      expect(existsSync(join(out, '.wsync'))).toBe(false);
    } finally {
      await fetch(`${emulator.url}${GROUPS_PATH}/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${emulator.token}` } });
    }
  });

  it('no secret value appears in any exported file or in any output', async () => {
    const files: string[] = [];
    for (const dir of await readdir(work)) {
      // The inventory too: adopt records no secret, apply records keyed hashes only.
      for (const [path, bytes] of await snapshot(join(work, dir), true)) files.push(`${dir}/${path}\n${bytes.toString('utf8')}`);
    }
    expect(files.length).toBeGreaterThan(60);
    expect(files.some((f) => f.startsWith('workspace/.wsync/inventory.json'))).toBe(true);
    const everything = [...files, ...printed].join('\n');
    expect(printed.length).toBeGreaterThan(10);
    for (const value of Object.values(SECRETS)) expect(everything).not.toContain(value);
  });
});
