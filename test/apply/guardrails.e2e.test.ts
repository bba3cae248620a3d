// Issue #27's guard rails, end to end: the real CLI against the emulator.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { useScratch, writeTree } from '../support/tree.js';
import { monitorYaml as appMonitorYaml, notifierYaml } from '../support/yaml.js';

/** A threshold monitor on the demo dataset `checkout` (a monitor on a dataset the token cannot query is refused). */
function monitorYaml(name: string, threshold: number): string {
  return appMonitorYaml(name, threshold).replace("['app']", "['checkout']");
}

const scratch = useScratch('wsync-guardrails-');

/** An emulator of its own (the demo datasets, closed when the test ends) and a tree in a scratch directory. */
async function setUp(files: Record<string, string>): Promise<{ dir: string; env: Record<string, string>; emulator: TestEmulator }> {
  const emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
  onTestFinished(() => emulator.close());
  const dir = join(await scratch.dir(), 'tree');
  await writeTree(dir, files);
  return { dir, env: emulator.env, emulator };
}

describe('a mistyped apiVersion', () => {
  it('is an error naming file and line with a did-you-mean, and never leads to a delete', async () => {
    const { dir, env, emulator: emu } = await setUp({ 'notifiers.yaml': notifierYaml('team-email'), 'monitors.yaml': monitorYaml('errors', 10) });
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('errors', 10).replace('apiVersion: wsync/v1', 'apiVersion: wsyn/v1'));
    await writeFile(join(dir, 'ci.yaml'), 'name: ci\non: [push]\n');
    await emu.clearRequests();

    const validate = await runCli(['validate', dir], { env });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('monitors.yaml:1:1: Monitor/errors: apiVersion: "wsyn/v1" is not wsync\'s (did you mean "wsync/v1"?');
    // The document that is nothing of ours is listed as skipped, with why.
    expect(validate.stdout).toContain('ci.yaml:1:1: skipped: no apiVersion, no kind: not a wsync resource');

    const applied = await runCli(['apply', dir, '--prune', '--force-deletes'], { env });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('did you mean "wsync/v1"?');
    expect(await emu.writes()).toEqual([]);

    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('errors', 10));
    const planned = await runCli(['plan', dir, '--prune'], { env });
    expect(planned.code).toBe(0);
    expect(planned.stderr).toContain('ci.yaml:1:1: skipped: no apiVersion, no kind: not a wsync resource');
    expect(planned.stdout).not.toContain('delete');
  });
});

describe('a refusal holds only what it refuses', () => {
  it('applies the update of a plan whose delete is refused, holds the delete, and exits 3 (partially applied)', async () => {
    const files = { 'a.yaml': notifierYaml('team-email'), 'b.yaml': notifierYaml('old-email'), 'monitors.yaml': monitorYaml('errors', 10) };
    const { dir, env, emulator: emu } = await setUp(files);
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    await rm(join(dir, 'b.yaml'));
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('errors', 20));
    await emu.clearRequests();

    const applied = await runCli(['apply', dir, '--prune', '--max-deletes', '0'], { env });
    expect(applied.code).toBe(3);
    expect(applied.stdout).toContain('Held: apply applies the rest of the plan and holds these changes');
    expect(applied.stdout).toContain('! held    Notifier/old-email');
    expect(applied.stdout).toContain('Monitor/errors: updated');
    expect(applied.stderr).toContain('held: Refusing to delete 1 object: more than --max-deletes 0.');
    expect(applied.stderr).toContain('held: Notifier/old-email: owned by wsync and no longer declared; held: over the delete budget');
    expect(applied.stderr).toContain('apply: partially applied: the rest of the plan was applied, 1 change held (exit 3)');
    expect((await emu.writes()).map((w) => w.method)).toEqual(['PUT']);
    const state = await emu.state();
    expect(state.monitors?.find((m) => m.name === 'errors')?.threshold).toBe(20);
    expect(state.notifiers?.map((n) => n.name).sort()).toEqual(['old-email', 'team-email']);

    const json = await runCli(['apply', dir, '--prune', '--max-deletes', '0', '--format', 'json'], { env });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'partial', plan: { summary: { refused: 1, update: 0 } } });
  });

  it('holds the deletes below a held one: a notifier a held monitor may still reference is not deleted', async () => {
    const files = { 'a.yaml': notifierYaml('team-email'), 'm1.yaml': monitorYaml('m1', 10), 'm2.yaml': monitorYaml('m2', 10) };
    const { dir, env, emulator: emu } = await setUp(files);
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    // Every monitor and the notifier undeclared: emptying Monitor is refused (no --allow-empty), Notifier is allowed.
    await rm(join(dir, 'm1.yaml'));
    await rm(join(dir, 'm2.yaml'));
    await writeFile(join(dir, 'a.yaml'), notifierYaml('other-email'));
    await emu.clearRequests();
    const applied = await runCli(['apply', dir, '--prune', '--force-deletes'], { env });
    expect(applied.code).toBe(3);
    // other-email has team-email's fields: the plan says it may be a rename (#27.5).
    expect(applied.stderr).toContain(
      'held: Notifier/team-email: owned by wsync and no longer declared; renamed? Notifier/other-email is declared with the same fields; held: Monitor/m',
    );
    expect(applied.stderr).toContain('is held, and it may still reference this');
    expect((await emu.writes()).map((w) => w.method)).toEqual(['POST']);
  });
});

describe('the delete ratio on a small kind', () => {
  it('lets prune delete 1 of 3 owned notifiers, and holds 2 of 3', async () => {
    const files = { 'a.yaml': notifierYaml('n-a'), 'b.yaml': notifierYaml('n-b'), 'c.yaml': notifierYaml('n-c') };
    const { dir, env, emulator: emu } = await setUp(files);
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    await rm(join(dir, 'c.yaml'));
    const one = await runCli(['apply', dir, '--prune'], { env });
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('Notifier/n-c: deleted');
    await writeTree(dir, { 'c.yaml': notifierYaml('n-c') });
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    await rm(join(dir, 'b.yaml'));
    await rm(join(dir, 'c.yaml'));
    await emu.clearRequests();
    const two = await runCli(['apply', dir, '--prune'], { env });
    expect(two.code).toBe(3);
    expect(two.stderr).toContain('Refusing to delete 2 of 3 live Notifier objects (67%)');
    expect(await emu.writes()).toEqual([]);
  });
});
