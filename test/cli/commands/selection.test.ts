// --target and --kind end to end: the real CLI against the emulator applies a subset, refuses a
// target whose dependency is neither selected nor live, and never prunes outside the subset.
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runWith } from '../../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../../support/emulator.js';
import { removeDir, tempDir, writeTree } from '../../support/tree.js';
import { MONITOR_DATASETS, namedMonitorYaml, resource } from '../../support/yaml.js';

/** The CLI with `env` added to its clean environment. */
const runCli = (args: string[], env: Record<string, string | undefined>) => runWith(args, { env });

const monitor = (name: string, notifiers: string[] = []): string => namedMonitorYaml(name, notifiers);

describe('plan and apply a subset', () => {
  let emulator: TestEmulator;
  let root: string;
  let tree: string;
  let args: (...more: string[]) => string[];

  const posts = async (): Promise<string[]> => (await emulator.writes()).map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await emulator.seed(MONITOR_DATASETS);
    root = await tempDir();
    tree = join(root, 'tree');
    const state = join(root, 'state');
    args = (...more) => [...more, '--state-dir', state];
    await writeTree(tree, {
      'notifiers.yaml': resource('Notifier', 'subset-oncall', { properties: { email: { emails: ['oncall@example.com'] } } }),
      'monitors/errors.yaml': monitor('subset-errors', ['subset-oncall']),
      'monitors/latency.yaml': monitor('subset-latency'),
      'monitors/old.yaml': monitor('subset-old'),
    });
  });
  afterAll(async () => {
    await emulator.close();
    await removeDir(root);
  });

  it('refuses a target whose dependency is declared but neither selected nor live, and writes nothing', async () => {
    await emulator.clearRequests();
    const result = await runCli(args('apply', tree, '--target', 'Monitor/subset-errors'), emulator.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('apply: a subset of the files (--target Monitor/subset-errors): nothing else is planned, and nothing is pruned');
    expect(result.stderr + result.stdout).toContain(
      'Notifier "subset-oncall" is declared but not selected (--target, --kind) and does not exist live yet, so this cannot be applied without it: select it too (--target Notifier/subset-oncall)',
    );
    expect(await posts()).toEqual([]);
  });

  it('applies just the targets (globs and kinds too)', async () => {
    await emulator.clearRequests();
    const one = await runCli(args('apply', tree, '--target', 'Monitor/subset-l*'), emulator.env);
    expect(one.code, one.stderr).toBe(0);
    expect(await posts()).toEqual(['POST /v2/monitors']);
    await emulator.clearRequests();
    const rest = await runCli(args('apply', tree, '--kind', 'Notifier', '--target', 'Monitor/subset-errors', '--target', 'Monitor/subset-old'), emulator.env);
    expect(rest.code, rest.stderr).toBe(0);
    expect((await posts()).sort()).toEqual(['POST /v2/monitors', 'POST /v2/monitors', 'POST /v2/notifiers']);
    const plan = await runCli(args('plan', tree, '--detailed-exitcode'), emulator.env);
    expect(plan.code).toBe(0);
  });

  it('never prunes outside the subset, even with --prune', async () => {
    await rm(join(tree, 'monitors', 'old.yaml'));
    await emulator.clearRequests();
    const subset = await runCli(args('apply', tree, '--prune', '--max-delete-ratio', '1', '--target', 'Monitor/subset-latency'), emulator.env);
    expect(subset.code, subset.stderr).toBe(0);
    expect(subset.stdout).not.toContain('subset-old');
    expect(await posts()).toEqual([]);
    const whole = await runCli(args('plan', tree, '--prune', '--max-delete-ratio', '1'), emulator.env);
    expect(whole.stdout).toMatch(/- delete {2}Monitor\/subset-old/);
  });

  it('says what is wrong with a selection', async () => {
    const cases: [string[], string][] = [
      [['--target', 'subset-errors'], '--target: "subset-errors" is not KIND/NAME'],
      [['--kind', 'Gadget'], '--kind: "Gadget" is not a kind'],
      [['--target', 'Monitor/nothing-like-this'], '--target Monitor/nothing-like-this matches no declared resource'],
    ];
    for (const [flags, message] of cases) {
      const result = await runCli(args('plan', tree, ...flags), emulator.env);
      expect(result.code, flags.join(' ')).toBe(1);
      expect(result.stderr + result.stdout).toContain(message);
    }
  });
});
