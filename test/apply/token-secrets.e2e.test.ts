// API token secrets through the real CLI (#13.4, #17.1): a rotation keeps the old token working for
// its grace period and plans nothing more afterwards; an apply killed at every step of saving a new
// token's secret, then run again, leaves the token live with a working secret on disk and no
// duplicate; a token directory that cannot take the secret stops the POST before it is sent; and no
// secret ever reaches the output. The killed applies are processes (WSYNC_TEST_CRASH_AT); the rest
// run in this one.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ISSUE_STEPS } from '../../src/apply/index.js';
import { runCli, spawnCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { removeDir, tempDir, writeTree } from '../support/tree.js';
import { liveObjects, readInventory } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

const NAME = 'ci-ingest';
const CAPABILITIES = { orgCapabilities: { annotations: ['create'] } };

let emulator: TestEmulator | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await emulator?.close();
  if (scratch) await removeDir(scratch);
  emulator = undefined;
  scratch = undefined;
});

interface Setup {
  emu: TestEmulator;
  tree: string;
  state: string;
  tokens: string;
  outputs: CliResult[];
  run(...args: string[]): Promise<CliResult>;
}

async function setUp(description: string): Promise<Setup> {
  const emu = (emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE }));
  scratch = await tempDir('wsync-token-secrets-');
  const tree = join(scratch, 'tree');
  const state = join(scratch, 'state');
  const tokens = join(scratch, 'tokens');
  await writeTree(tree, { 'token.yaml': resource('ApiToken', NAME, { description, ...CAPABILITIES }) });
  const outputs: CliResult[] = [];
  const run = async (...args: string[]): Promise<CliResult> => {
    const result = await runCli([...args, tree, '--state-dir', state, '--token-output-dir', tokens], { env: emu.env });
    outputs.push(result);
    return result;
  };
  return { emu, tree, state, tokens, outputs, run };
}

/** The status a request made with `secret` gets: anything but 401 means the token works. */
async function statusWith(emu: TestEmulator, secret: string): Promise<number> {
  const res = await fetch(`${emu.url}/v2/tokens`, { headers: { authorization: `Bearer ${secret}` } });
  await res.text();
  return res.status;
}

async function secretOnDisk(tokens: string): Promise<string> {
  return (await readFile(join(tokens, NAME), 'utf8')).trim();
}

/** Every secret the workspace ever issued for NAME (the dump carries them), for the leak check. */
async function issuedSecrets(emu: TestEmulator): Promise<string[]> {
  return liveObjects(await emu.state(), 'tokens')
    .filter((t) => t.name === NAME)
    .map((t) => String(t.token));
}

function expectNoSecretIn(outputs: CliResult[], secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  for (const { stdout, stderr } of outputs) for (const secret of secrets) expect(stdout + stderr).not.toContain(secret);
}

describe('token rotation', () => {
  it('regenerates a changed token with the old one valid for the grace period, and then plans no changes', async () => {
    const { emu, tree, state, tokens, outputs, run } = await setUp('first');
    expect((await run('apply')).code).toBe(0);
    const first = await secretOnDisk(tokens);

    await writeTree(tree, { 'token.yaml': resource('ApiToken', NAME, { description: 'second', ...CAPABILITIES }) });
    const planned = await run('plan', '--format', 'json');
    const [change] = (JSON.parse(planned.stdout) as { changes: { action: string; reason: string; grace: { ms: number; oldValidUntil: string } }[] }).changes;
    expect(change?.action).toBe('replace');
    expect(change?.grace.ms).toBe(24 * 3_600_000);
    expect(change?.reason).toContain(`the old one stays valid until ${change?.grace.oldValidUntil} (grace 24h)`);
    expect((await run('plan')).stdout).toContain('the old one stays valid until');

    const applied = await run('apply');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/the old token tok_[0-9a-f]+ stays valid until \d{4}-/);
    const second = await secretOnDisk(tokens);
    expect(second).not.toBe(first);
    // Both work: the old one until its grace ends.
    expect(await statusWith(emu, first)).not.toBe(401);
    expect(await statusWith(emu, second)).not.toBe(401);
    const live = liveObjects(await emu.state(), 'tokens').filter((t) => t.name === NAME);
    expect(live).toHaveLength(2);

    // The listing holds both tokens of the name: the old one is retired, not an ambiguous duplicate.
    const settled = await run('plan', '--detailed-exitcode');
    expect(settled.stdout).toContain('No changes');
    expect(settled.code).toBe(0);
    const inventory = await readInventory(state);
    expect(inventory.entries.filter((e) => e.key === NAME).map((e) => Boolean((e as { retiredUntil?: string }).retiredUntil)).sort()).toEqual([false, true]);
    expectNoSecretIn(outputs, await issuedSecrets(emu));
  });
});

describe('secrets before ownership', () => {
  it.each(ISSUE_STEPS)('an apply killed at "%s" is followed by a run that leaves one working token and its secret on disk', async (step) => {
    const { emu, state, tokens, outputs, run } = await setUp('crash');
    const killed = await spawnCli(['apply', join(scratch ?? '', 'tree'), '--state-dir', state, '--token-output-dir', tokens], { env: { ...emu.env, WSYNC_TEST_CRASH_AT: step } }).done;
    outputs.push(killed);
    expect(killed.signal).toBe('SIGKILL');

    const plan = await run('plan');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    if (step === 'answered' || step === 'secret-written') expect(plan.stdout).toContain('regenerate: secret missing (a run stopped before saving it)');
    if (step === 'secret-synced') expect(plan.stdout).toMatch(/adopt/);

    // Grace 0: nobody holds the secret of the token the dead run made, so it may stop at once.
    const again = await run('apply', '--token-rotation-grace', '0s');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const settled = await run('plan', '--detailed-exitcode');
    expect(settled.code, settled.stdout).toBe(0);

    const live = liveObjects(await emu.state(), 'tokens').filter((t) => t.name === NAME);
    expect(live).toHaveLength(1);
    const secret = await secretOnDisk(tokens);
    expect(secret).toBe(live[0]?.token);
    expect(await statusWith(emu, secret)).not.toBe(401);
    // One current entry; the token the dead run made is kept as retired until an apply sees it gone.
    const owned = (await readInventory(state)).entries.filter((e) => e.key === NAME && !('retiredUntil' in e));
    expect(owned.map((e) => e.id)).toEqual([live[0]?.id]);
    // No temporary file holding a secret is left behind.
    expect((await readdir(tokens)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expectNoSecretIn(outputs, await issuedSecrets(emu));
  });

  it.each(['answered', 'secret-synced'] as const)('a rotation killed at "%s" still leaves the old token working and one current token with its secret', async (step) => {
    const { emu, tree, state, tokens, outputs, run } = await setUp('before');
    expect((await run('apply')).code).toBe(0);
    const old = await secretOnDisk(tokens);
    await writeTree(tree, { 'token.yaml': resource('ApiToken', NAME, { description: 'after', ...CAPABILITIES }) });
    const killed = await spawnCli(['apply', tree, '--state-dir', state, '--token-output-dir', tokens], { env: { ...emu.env, WSYNC_TEST_CRASH_AT: step } }).done;
    outputs.push(killed);
    expect(killed.signal).toBe('SIGKILL');

    const again = await run('apply', '--token-rotation-grace', '0s');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await run('plan', '--detailed-exitcode')).code).toBe(0);
    const secret = await secretOnDisk(tokens);
    const current = (await readInventory(state)).entries.filter((e) => e.key === NAME && !('retiredUntil' in e));
    const live = liveObjects(await emu.state(), 'tokens').filter((t) => t.name === NAME);
    expect(current.map((e) => e.id)).toEqual([live.find((t) => t.token === secret)?.id]);
    // The old token keeps its grace (24h, from the killed run); only the one nobody had the secret of is gone.
    expect(await statusWith(emu, old)).not.toBe(401);
    expect(live.map((t) => t.token).sort()).toEqual([old, secret].sort());
    expectNoSecretIn(outputs, await issuedSecrets(emu));
  });

  it('regenerates an owned token whose secret file was lost, instead of saying "No changes"', async () => {
    const { emu, tokens, outputs, run } = await setUp('lost');
    expect((await run('apply')).code).toBe(0);
    await writeFile(join(tokens, NAME), '');
    const plan = await run('plan', '--detailed-exitcode');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('regenerate: secret missing');
    expect((await run('apply')).code).toBe(0);
    expect(await statusWith(emu, await secretOnDisk(tokens))).not.toBe(401);
    expect((await run('plan', '--detailed-exitcode')).code).toBe(0);
    expectNoSecretIn(outputs, await issuedSecrets(emu));
  });

  it('refuses to adopt a live token it has no secret for, unless the file says the secret is held elsewhere', async () => {
    const { emu, tree, run } = await setUp('made by hand');
    await emu.seed({ tokens: [{ name: NAME, description: 'made by hand', ...CAPABILITIES }] });
    const refused = await run('apply');
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(`ApiToken "${NAME}" exists live`);
    expect(refused.stdout + refused.stderr).toContain('wsync holds no secret for it');

    await writeTree(tree, { 'token.yaml': resource('ApiToken', NAME, { description: 'made by hand', ...CAPABILITIES }, { 'wsync/issued-secret': 'held-elsewhere' }) });
    const adopted = await run('apply');
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(0);
    expect((await run('plan', '--detailed-exitcode')).code).toBe(0);
  });

  it('sends nothing when the token directory cannot take the secret', async () => {
    const { emu, tree, state, tokens } = await setUp('nowhere');
    await writeFile(tokens, 'a file, not a directory\n');
    await emu.clearRequests();
    const result = await runCli(['apply', tree, '--state-dir', state, '--token-output-dir', tokens], { env: emu.env });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(`nothing was sent: the token's secret could not be saved (the token output directory ${tokens} cannot take it: it is not a directory)`);
    expect((await emu.writes()).filter((r) => r.path.startsWith('/v2/tokens'))).toEqual([]);
    expect(liveObjects(await emu.state(), 'tokens').filter((t) => t.name === NAME)).toEqual([]);
  });
});
