// The README's manual sequence, on a bare `wsync emulator` (nothing seeded): validate, plan and
// apply config-examples, then plan again. The examples declare their own datasets, so one apply
// converges the whole workspace from files alone.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulatorProcess, type EmulatorProcess } from '../support/emulator.js';
import { EXAMPLES_DIR } from '../support/paths.js';
import { removeDir, tempDir } from '../support/tree.js';
import { DEMO_SECRETS } from '../support/workspace.js';

let emulator: EmulatorProcess | undefined;
let work: string | undefined;
afterEach(async () => {
  await emulator?.stop();
  if (work) await removeDir(work);
  emulator = undefined;
  work = undefined;
});

describe("the README's manual sequence", () => {
  it('validates, plans and applies config-examples on a bare emulator; the next plan has no changes', async () => {
    emulator = await startEmulatorProcess(['--token', 'dev-token']);
    // Run where a copy of config-examples sits, so the state directory it makes is not in the repository.
    work = await tempDir('wsync-readme-');
    await cp(EXAMPLES_DIR, join(work, 'config-examples'), { recursive: true });
    const options = { env: { ...emulator.env, ...DEMO_SECRETS }, cwd: work };
    const wsync = (...args: string[]) => runCli(args, options);

    const validated = await wsync('validate', 'config-examples');
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    const planned = await wsync('plan', 'config-examples');
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to delete, 0 to adopt\./);
    expect(planned.stdout).toMatch(/\+ create\s+Dataset\/checkout/);
    const applied = await wsync('apply', 'config-examples');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete: \d+ created, 0 updated, 0 deleted, 0 adopted, 0 failed, 0 skipped/);
    const again = await wsync('plan', 'config-examples', '--detailed-exitcode');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });
});
