// `wsync apply` as a user runs it: flags, saved plans, JSON output (the lock between two processes
// and signals: apply.e2e.test.ts).
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { DEMO_SECRETS, examplesWorkspace, type Workspace } from '../../support/workspace.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

describe('wsync apply', () => {
  it('documents its flags', async () => {
    const help = await runCli(['apply', '--help']);
    expect(help.code).toBe(0);
    for (const flag of [
      '--state-dir',
      '--secrets-dir',
      '--token-output-dir',
      '--concurrency',
      '--prune',
      '--prune-all',
      '--max-deletes',
      '--max-delete-ratio',
      '--force-deletes',
      '--allow-empty',
      '--no-adopt',
      '--plan <file>',
      '--format',
      '--no-color',
      '--url',
      '--token-file',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    const bad = await runCli(['apply', '--concurrency', '0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--concurrency');
  });

  it('says what to set when there is no API to talk to, and writes nothing', async () => {
    workspace = await examplesWorkspace();
    const result = await runCli(['apply', workspace.tree], { env: DEMO_SECRETS });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('WSYNC_URL');
  });

  it('applies a saved plan while it matches, and refuses one made before the workspace or files moved', async () => {
    workspace = await examplesWorkspace();
    const planFile = join(workspace.tree, '..', 'plan.json');
    expect((await workspace.plan(['--out', planFile])).code).toBe(0);
    const applied = await workspace.apply(['--plan', planFile]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('19 created');

    expect((await workspace.plan(['--out', planFile])).code).toBe(0);
    // Someone edits the workspace by hand, and a file changes, after the plan was made.
    await workspace.emulator.seed({ notifiers: [{ name: 'hand-made', properties: { email: { emails: ['x@example.com'] } } }] });
    const file = join(workspace.tree, 'monitors', 'checkout.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('threshold: 25', 'threshold: 30'));
    await workspace.emulator.clearRequests();

    const stale = await workspace.apply(['--plan', planFile]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toContain(`the saved plan ${planFile} no longer matches; nothing was written`);
    expect(stale.stderr).toContain('Notifier/hand-made appeared live');
    expect(stale.stderr).toContain('Monitor/checkout-error-rate changed in the files');
    expect(await workspace.emulator.writes()).toEqual([]);
    // The lock was released.
    await expect(stat(join(workspace.stateDir, 'lock'))).rejects.toThrow(/ENOENT/);

    const missing = await workspace.apply(['--plan', join(workspace.tree, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file');
  });

  it('refuses a saved plan when a secret was rotated after the review, without naming the secret', async () => {
    workspace = await examplesWorkspace();
    expect((await workspace.apply()).code).toBe(0);
    const planFile = join(workspace.tree, '..', 'plan.json');
    expect((await workspace.plan(['--out', planFile])).code).toBe(0);
    await workspace.emulator.clearRequests();
    const rotated = 'https://hooks.slack.example/services/T0/B0/rotated-after-review-9';
    const stale = await workspace.apply(['--plan', planFile], { WSYNC_SLACK_WEBHOOK_URL: rotated });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('Notifier/oncall-slack: the change differs from the saved plan (update)');
    expect(stale.stderr + stale.stdout).not.toContain(rotated);
    expect(await workspace.emulator.writes()).toEqual([]);
  });

  it('prints one JSON document with --format json, without secrets', async () => {
    workspace = await examplesWorkspace();
    const result = await workspace.apply(['--format', 'json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout) as {
      status: string;
      plan: { changes: unknown[] };
      result: { created: number; adopted: number; failed: number; writes: number; events: { kind: string; outcome: string; message?: string }[] };
    };
    expect(doc.status).toBe('applied');
    // The seeded datasets (made by ingest) are adopted, the rest created.
    expect(doc.result).toMatchObject({ created: 19, adopted: 3, failed: 0 });
    expect(doc.result.events).toHaveLength(23);
    // At least a write per create and the writer lease's group (the seeded datasets already hold
    // the retention the examples declare, so adopting them may write nothing).
    expect(doc.result.writes).toBeGreaterThanOrEqual(20);
    expect(doc.plan.changes.length).toBeGreaterThanOrEqual(22);
    const token = (await readFile(join(workspace.stateDir, 'tokens', 'ci-annotations'), 'utf8')).trim();
    for (const secret of [...Object.values(DEMO_SECRETS), token]) expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it('writes token secrets to --token-output-dir', async () => {
    workspace = await examplesWorkspace();
    const out = join(workspace.tree, '..', 'secrets-out');
    const result = await workspace.apply(['--token-output-dir', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`wrote token to ${join(out, 'ci-annotations')}`);
    expect((await stat(join(out, 'ci-annotations'))).mode & 0o777).toBe(0o600);
  });
});
