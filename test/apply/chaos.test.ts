// Chaos: 5xx faults, connection resets and responses dropped after the write was applied.
// Re-running apply must converge within 5 runs, never create a duplicate, never delete an object
// wsync does not own, and leave an inventory that matches the workspace. 20 seeds run the apply
// pass in process (reconcile, as the CLI does, with the real client over HTTP); one more runs the
// real CLI. Both wait milliseconds between retries instead of seconds: the retries are the same.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { reconcile } from '../../src/reconcile/index.js';
import { runCli } from '../support/cli.js';
import { apiClientFor, startTestEmulator, type LoggedRequest, type TestEmulator, type WorkspaceDump } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { removeDir, tempDir, writeTree } from '../support/tree.js';
import { duplicates, liveObjects, named, readInventory } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => 1000 + i * 7919);
const CLI_SEED = 424_242;
const CHAOS = { faultRate: 0.2, resetRate: 0.2, dropAfterWriteRate: 0.2 };
const CALM = { faultRate: 0, resetRate: 0, dropAfterWriteRate: 0 };
const MAX_RUNS = 5;
const PARALLEL = 4;
const SLACK = 'https://hooks.slack.example/services/T0/B0/chaos-slack-secret';
const ENV = { CHAOS_SLACK_URL: SLACK };

const monitorSpec = (notifiers: string[]): Record<string, unknown> => ({
  type: 'Threshold',
  aplQuery: "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)",
  operator: 'Above',
  threshold: 10,
  intervalMinutes: 5,
  rangeMinutes: 10,
  notifiers,
});

/** A dozen objects of most kinds, with references between them. */
const TREE: Record<string, string> = {
  'notifiers/slack.yaml': resource('Notifier', 'chaos-slack', { properties: { slack: { slackUrl: '${env:CHAOS_SLACK_URL}' } } }),
  'notifiers/email.yaml': resource('Notifier', 'chaos-email', { properties: { email: { emails: ['oncall@example.com'] } } }),
  'notifiers/spare.yaml': resource('Notifier', 'chaos-spare', { properties: { email: { emails: ['spare@example.com'] } } }),
  'monitors/a.yaml': resource('Monitor', 'chaos-a', monitorSpec(['chaos-slack'])),
  'monitors/b.yaml': resource('Monitor', 'chaos-b', monitorSpec(['chaos-slack', 'chaos-email'])),
  'monitors/c.yaml': resource('Monitor', 'chaos-c', monitorSpec(['chaos-spare'])),
  'access/role.yaml': resource('Role', 'chaos-role', {
    members: ['ann@example.com'],
    orgCapabilities: { monitors: ['read'] },
  }),
  'access/ann.yaml': resource('User', 'ann@example.com', { name: 'Ann', role: 'chaos-role' }),
  'access/bob.yaml': resource('User', 'bob@example.com', { name: 'Bob', role: 'user' }),
  'access/token.yaml': resource('ApiToken', 'chaos-token', { orgCapabilities: { annotations: ['create'] } }),
  'queries/q.yaml': resource('StarredQuery', 'chaos-query', { owner: 'ann@example.com', dataset: 'checkout', query: { apl: "['checkout'] | take 5" } }),
  'fields/vf.yaml': resource('VirtualField', 'chaos_vf', { dataset: 'checkout', expression: 'status * 2' }),
  'annotations.yaml': resource('Annotation', 'chaos deploy', { type: 'deploy', datasets: ['checkout'], time: '2026-01-01T00:00:00Z' }),
};

/** Files removed in the second phase: their owned objects are pruned under chaos too. */
const REMOVED = ['monitors/c.yaml', 'notifiers/spare.yaml', 'fields/vf.yaml'];

/** Objects that exist before wsync runs: not owned, never to be deleted. */
const UNOWNED_SEED = {
  notifiers: [{ name: 'manual-notifier', properties: { email: { emails: ['manual@example.com'] } } }],
  monitors: [{ name: 'manual-monitor', type: 'MatchEvent', aplQuery: "['checkout']", intervalMinutes: 1, rangeMinutes: 1 }],
};

/** `apply DIR --state-dir STATE --prune` (plus `--allow-empty --force-deletes` when pruning the last VirtualField). */
interface ApplyTarget {
  dir: string;
  stateDir: string;
  emulator: TestEmulator;
  pruneToEmpty: boolean;
}

/** One apply: whether it succeeded, and everything it printed or failed with. */
type ApplyRunner = (target: ApplyTarget) => Promise<{ ok: boolean; output: string }>;

/** The apply pass in this process, as `wsync apply` runs it, with a fresh client each time. */
const inProcess: ApplyRunner = async ({ dir, stateDir, emulator, pruneToEmpty }) => {
  const client = apiClientFor(emulator, { retryCapMs: 20 });
  const output: string[] = [];
  try {
    const outcome = await reconcile({
      dir,
      env: ENV,
      client,
      stateDir,
      policy: { ...DEFAULT_POLICY, prune: true, allowEmpty: pruneToEmpty, allowOverBudget: pruneToEmpty },
      mode: 'apply',
      onChange: (event) => output.push(JSON.stringify(event)),
    });
    output.push(...outcome.diagnostics.map((d) => d.message));
    return { ok: outcome.status === 'applied', output: output.join('\n') };
  } catch (err) {
    return { ok: false, output: [...output, String(err), JSON.stringify(err)].join('\n') };
  } finally {
    await client.close();
  }
};

/** The real CLI. */
const throughCli: ApplyRunner = async ({ dir, stateDir, emulator, pruneToEmpty }) => {
  const flags = pruneToEmpty ? ['--allow-empty', '--force-deletes'] : [];
  const args = ['apply', dir, '--state-dir', stateDir, '--prune', ...flags];
  const result = await runCli(args, { env: { ...emulator.env, ...ENV }, fastRetry: true });
  return { ok: result.code === 0, output: result.stdout + result.stderr };
};

async function runUntilConverged(apply: () => ReturnType<ApplyRunner>): Promise<{ runs: number; output: string }> {
  let output = '';
  for (let run = 1; run <= MAX_RUNS; run++) {
    const last = await apply();
    output += last.output;
    if (last.ok) return { runs: run, output };
  }
  throw new Error(`apply did not converge in ${MAX_RUNS} runs:\n${output}`);
}

function deletesOf(log: LoggedRequest[]): string[] {
  return log.filter((r) => r.method === 'DELETE').map((r) => r.path);
}

/** Some requests got a 5xx or a destroyed connection. */
function faulted(log: LoggedRequest[]): boolean {
  return log.some((r) => r.status === 0 || r.status >= 500);
}

async function checkConsistent(emulator: TestEmulator, stateDir: string, unowned: string[]): Promise<WorkspaceDump> {
  const state = await emulator.state();
  expect(duplicates(state)).toEqual([]);
  for (const id of unowned) {
    expect(Object.values(state).some((list) => (list ?? []).some((o) => o.id === id))).toBe(true);
  }
  // Every inventory entry names a live object, and no unowned object is in it.
  const inventory = await readInventory(stateDir);
  const liveIds = new Set(
    Object.keys(state).flatMap((collection) =>
      collection === 'datasets' ? [] : liveObjects(state, collection).map((o) => String(o.id)),
    ),
  );
  for (const entry of inventory.entries) expect(liveIds.has(entry.id), `${entry.kind}/${entry.key} ${entry.id}`).toBe(true);
  for (const id of unowned) expect(inventory.entries.some((e) => e.id === id)).toBe(false);
  // The token file holds the secret of the one live token.
  const token = named(state, 'tokens', 'chaos-token');
  expect((await readFile(join(stateDir, 'tokens', 'chaos-token'), 'utf8')).trim()).toBe(token?.token);
  return state;
}

async function chaosRun(runner: ApplyRunner, seed: number, prunePhase: boolean): Promise<{ seed: number; runs: number[] }> {
  const emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE, seed });
  const scratch = await tempDir('wsync-chaos-');
  try {
    await emulator.seed(UNOWNED_SEED);
    const before = await emulator.state();
    const unowned = [String(named(before, 'notifiers', 'manual-notifier')?.id), String(named(before, 'monitors', 'manual-monitor')?.id)];
    const target: ApplyTarget = { dir: join(scratch, 'tree'), stateDir: join(scratch, 'state'), emulator, pruneToEmpty: false };
    await writeTree(target.dir, TREE);

    await emulator.faults({ ...CHAOS, seed });
    const first = await runUntilConverged(() => runner(target));
    await emulator.faults(CALM);
    const chaotic = await emulator.requests();
    expect(faulted(chaotic)).toBe(true);
    await emulator.clearRequests();
    const noop = await runner(target);
    expect(noop.ok, noop.output).toBe(true);
    expect((await emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual([]);
    const state = await checkConsistent(emulator, target.stateDir, unowned);
    expect(liveObjects(state, 'monitors')).toHaveLength(4);
    expect(named(state, 'roles', 'chaos-role')?.members).toEqual([named(state, 'users', 'ann@example.com')?.id]);
    // Secrets stay out of every output, even of failed runs.
    expect(first.output).not.toContain(SLACK);

    // Pruning under chaos, for every other seed.
    if (!prunePhase) return { seed, runs: [first.runs] };
    for (const file of REMOVED) await rm(join(target.dir, file));
    await emulator.faults({ ...CHAOS, seed: seed + 1 });
    // The last VirtualField goes, so the empty-set rule and the ratio need their overrides.
    const pruning = { ...target, pruneToEmpty: true };
    const second = await runUntilConverged(() => runner(pruning));
    await emulator.faults(CALM);
    const log = [...chaotic, ...(await emulator.requests())];
    await emulator.clearRequests();
    const noop2 = await runner(pruning);
    expect(noop2.ok, noop2.output).toBe(true);
    expect(await emulator.writes()).toEqual([]);
    const after = await checkConsistent(emulator, target.stateDir, unowned);
    expect(named(after, 'monitors', 'chaos-c')).toBeUndefined();
    expect(named(after, 'notifiers', 'chaos-spare')).toBeUndefined();
    expect(liveObjects(after, 'vfields')).toEqual([]);
    for (const path of deletesOf(log)) for (const id of unowned) expect(path).not.toContain(id);
    expect(second.output).not.toContain(SLACK);
    return { seed, runs: [first.runs, second.runs] };
  } finally {
    await emulator.close();
    await removeDir(scratch);
  }
}

describe('apply under chaos', () => {
  it(`converges within ${MAX_RUNS} runs for ${SEEDS.length} seeds, without duplicates or deleting unowned objects`, async () => {
    const results: { seed: number; runs: number[] }[] = [];
    const queue = [...SEEDS];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
          results.push(await chaosRun(inProcess, seed, SEEDS.indexOf(seed) % 2 === 0));
        }
      }),
    );
    expect(results).toHaveLength(SEEDS.length);
    // The faults really hit: some seed needed more than one run.
    expect(results.some((r) => r.runs.some((n) => n > 1))).toBe(true);
  });

  it('converges the same way through the real CLI, and prunes, printing no secret', async () => {
    const result = await chaosRun(throughCli, CLI_SEED, true);
    expect(result.runs).toHaveLength(2);
  });
});
