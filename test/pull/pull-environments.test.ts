// `wsync pull --env prod` on config-examples/.two-environments in git: what the prod workspace
// changed lands in prod's files (its variables in wsync.yaml, its overlay), never in the base that
// staging renders too, and the next plan of prod says "no changes".
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { EXAMPLES_DIR } from '../support/paths.js';
import { commitTree, git, useScratch } from '../support/tree.js';
import { idOf } from '../support/workspace.js';

const scratch = useScratch('wsync-pull-env-');
let emulator: TestEmulator;
let tree: string;
let env: Record<string, string>;

beforeAll(async () => {
  // No seed: the workspace holds what the tree declares, nothing more to pull as new.
  emulator = await startTestEmulator();
  tree = join(await scratch.dir(), 'tree');
  await cp(join(EXAMPLES_DIR, '.two-environments'), tree, { recursive: true });
  commitTree(tree);
  env = { ...emulator.env, WSYNC_PAGERDUTY_ROUTING_KEY: 'example-routing-key-for-prod' };
  const applied = await runCli(['apply', '--env', 'prod', tree], { env });
  if (applied.code !== 0) throw new Error(`apply failed: ${applied.stdout}\n${applied.stderr}`);
});
afterAll(() => emulator.close());

describe('wsync pull --env', () => {
  it("writes prod's changes into prod's variable and overlay, reports a variable inside a text, and plans no changes after", async () => {
    const staging = await readFile(join(tree, 'environments/staging/checkout.yaml'), 'utf8');
    const base = await readFile(join(tree, 'monitors/checkout.yaml'), 'utf8');
    const id = idOf(await emulator.state(), 'monitors', 'checkout-error-rate');
    const monitor = await emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${id}`);
    await emulator.ok('PUT', `/v2/monitors/${id}`, { ...monitor, threshold: 40, rangeMinutes: 7, operator: 'AboveOrEqual' });

    const refused = await runCli(['pull', tree], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('prod');

    const result = await runCli(['pull', '--env', 'prod', tree], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(git(tree, 'diff', '--unified=0', '--no-color').split('\n').filter((l) => /^[-+] /.test(l) || /^[-+][a-z ]/.test(l))).toEqual([
      '-  rangeMinutes: 5',
      '+  rangeMinutes: 7',
      '+  operator: AboveOrEqual',
      '-      errorThreshold: 25',
      '+      errorThreshold: 40',
    ]);
    expect(git(tree, 'status', '--porcelain')).toBe(' M environments/prod/checkout.yaml\n M wsync.yaml\n');
    expect(await readFile(join(tree, 'environments/staging/checkout.yaml'), 'utf8')).toBe(staging);
    expect(await readFile(join(tree, 'monitors/checkout.yaml'), 'utf8')).toBe(base);

    const plan = await runCli(['plan', '--env', 'prod', '--detailed-exitcode', tree], { env });
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('reports a value read from a variable inside a longer text, never flattened', async () => {
    git(tree, 'commit', '-q', '-am', 'prod from the UI');
    const id = idOf(await emulator.state(), 'monitors', 'checkout-error-rate');
    const monitor = await emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${id}`);
    await emulator.ok('PUT', `/v2/monitors/${id}`, { ...monitor, description: '5xx answers of checkout (edited)' });
    const result = await runCli(['pull', '--env', 'prod', tree], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('Monitor/checkout-error-rate (monitors/checkout.yaml) description: the value comes from ${var:} of environment "prod"');
    expect(git(tree, 'status', '--porcelain')).toBe('');
  });

  it("makes prod's overlay of an object that had none, and leaves the base alone", async () => {
    git(tree, 'checkout', '-q', '--', '.');
    const id = idOf(await emulator.state(), 'notifiers', 'team-email');
    await emulator.ok('PUT', `/v2/notifiers/${id}`, { name: 'team-email', properties: { email: { emails: ['checkout-team@example.com', 'prod-watch@example.com'] } } });
    const result = await runCli(['pull', '--env', 'prod', '--kind', 'Notifier', tree], { env });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(git(tree, 'status', '--porcelain', '--untracked-files=all')).toBe('?? environments/prod/team.yaml\n');
    const overlay = await readFile(join(tree, 'environments/prod/team.yaml'), 'utf8');
    expect(overlay).toContain('# yaml-language-server: $schema=../../../../schemas/notifier.json\n');
    expect(overlay).toContain('kind: Notifier\nmetadata:\n  name: team-email\nspec:\n  properties:\n    email:\n      emails:\n        - checkout-team@example.com\n        - prod-watch@example.com\n');
    const plan = await runCli(['plan', '--env', 'prod', '--detailed-exitcode', tree], { env });
    expect(plan.code, plan.stdout).toBe(2);
    expect(plan.stdout).toContain('checkout-error-rate');
    expect(plan.stdout).not.toContain('team-email');
  });

  it("sets the variable an object of prod's own folder reads, never writing its value into the file", async () => {
    git(tree, 'checkout', '-q', '--', '.');
    git(tree, 'clean', '-fdq');
    const config = join(tree, 'wsync.yaml');
    const prodVars = '  prod:\n    description: what customers see\n    vars:\n';
    await writeFile(config, (await readFile(config, 'utf8')).replace(prodVars, `${prodVars}      latencyThreshold: 800\n`));
    const latency = join(tree, 'environments/prod/latency.yaml');
    const written = (await readFile(latency, 'utf8')).replace('threshold: 800', 'threshold: ${var:latencyThreshold}');
    await writeFile(latency, written);
    git(tree, 'commit', '-q', '-am', 'the latency threshold is a variable of prod');
    const id = idOf(await emulator.state(), 'monitors', 'checkout-latency');
    const monitor = await emulator.ok<Record<string, unknown>>('GET', `/v2/monitors/${id}`);
    await emulator.ok('PUT', `/v2/monitors/${id}`, { ...monitor, threshold: 900 });

    const result = await runCli(['pull', '--env', 'prod', '--target', 'Monitor/checkout-latency', tree], { env });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await readFile(latency, 'utf8')).toBe(written);
    expect(git(tree, 'diff', '--unified=0', '--no-color').split('\n').filter((l) => /^[-+] /.test(l))).toEqual(['-      latencyThreshold: 800', '+      latencyThreshold: 900']);
  });
});
