// Issue #27's guard rails, end to end: the real CLI against the emulator.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { useScratch, writeTree } from '../support/tree.js';
import { monitorYaml, notifierYaml } from '../support/yaml.js';

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
