// The README's manual sequence, on a bare `wsync emulator` (nothing seeded): validate, plan and
// apply config-examples, then plan again. The examples declare their own datasets, so one apply
// converges the whole workspace from files alone.
import { spawn } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv, DEMO_SECRETS, removeDir, ROOT, runCli, tempDir } from './helpers.js';

const TOKEN = 'dev-token';
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** `wsync emulator --port 0 --token dev-token`: the URL from its first line. */
async function startEmulatorCli(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--token', TOKEN], { env: cliEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`wsync emulator exited with ${String(code)}`)));
  });
  return {
    url: line.replace(/^listening on /, ''),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe("the README's manual sequence", () => {
  it('validates, plans and applies config-examples on a bare emulator; the next plan has no changes', async () => {
    const emulator = await startEmulatorCli();
    const work = await tempDir('wsync-readme-');
    cleanup = async () => {
      await emulator.stop();
      await removeDir(work);
    };
    // Run where a copy of config-examples sits, so the state directory it makes is not in the repository.
    await cp(join(ROOT, 'config-examples'), join(work, 'config-examples'), { recursive: true });
    const env = { WSYNC_URL: emulator.url, WSYNC_TOKEN: TOKEN, ...DEMO_SECRETS };
    const wsync = (...args: string[]) => runCli(args, env, work);

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
