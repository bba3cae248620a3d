// What a new user meets in the first hour, through the real CLI against the emulator: the state
// directory stays out of git and is made only by a command that writes; the plan shows what apply
// sends and counts what apply will count.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { useTestEmulator } from '../../support/emulator.js';
import { DEMO_SEED_FILE, EXAMPLES_DIR } from '../../support/paths.js';
import { useScratch, writeTree } from '../../support/tree.js';
import { DEMO_SECRETS, named } from '../../support/workspace.js';
import { resource } from '../../support/yaml.js';

const emulator = useTestEmulator({ seedFile: DEMO_SEED_FILE });
const scratch = useScratch('wsync-first-hour-');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
}

describe('the state directory in a fresh git repository', () => {
  it('after apply, git status shows nothing under the state directory; the token secret is in it, and apply says where', async () => {
    const repo = join(await scratch.dir(), 'repo');
    await mkdir(repo);
    git(repo, 'init', '-q');
    // The examples as a team would start its own tree: without the examples' own .gitignore.
    await cp(EXAMPLES_DIR, join(repo, 'workspace'), { recursive: true });
    await rm(join(repo, 'workspace', '.gitignore'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'workspace');

    const applied = await runCli(['apply', 'workspace'], { env: { ...emulator.env, ...DEMO_SECRETS }, cwd: repo });
    // Only the list of the examples' deploy/ files, skipped as not wsync resources.
    expect(applied.stderr.split('\n').filter((line) => line !== '' && !line.includes(': skipped: '))).toEqual([]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`ApiToken/ci-annotations: created`);
    expect(applied.stdout).toContain(`wrote token to ${join('workspace', '.wsync', 'tokens', 'ci-annotations')}`);

    const state = join(repo, 'workspace', '.wsync');
    expect((await readdir(state)).sort()).toEqual(['.gitignore', 'hash.key', 'inventory.json', 'tokens', 'writer-id']);
    expect((await stat(state)).mode & 0o777).toBe(0o700);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    git(repo, 'add', '-A');
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});

describe('commands that write nothing to the workspace write no state', () => {
  const notifier = resource('Notifier', 'first-hour-mail', { properties: { email: { emails: ['a@example.com'] } } });
  const broken = resource('Monitor', 'first-hour-broken', {
    type: 'MatchEvent',
    aplQuery: "['checkout']",
    intervalMinutes: 1,
    rangeMinutes: 1,
    notifiers: ['nobody-declares-this'],
  });

  it('validate, plan, an apply whose plan has errors, a refused adoption and an empty apply leave no state directory', async () => {
    const work = await scratch.dir();
    const tree = join(work, 'readonly');
    await writeTree(tree, { 'notifiers.yaml': notifier, 'monitors.yaml': broken });
    const env = emulator.env;
    const stateDir = join(tree, '.wsync');

    const validated = await runCli(['validate', tree], { env });
    expect(validated.code).toBe(0);
    const planned = await runCli(['plan', tree], { env });
    expect(planned.code).toBe(1);
    // The summary counts the error, not only the changes.
    expect(planned.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 2 to create, 0 to update, 0 to delete, 0 to adopt; 1 error.');
    const unappliable = await runCli(['apply', tree], { env });
    expect(unappliable.code).toBe(1);
    expect(unappliable.stderr).toContain('the plan has errors; nothing was written');
    expect(existsSync(stateDir)).toBe(false);

    // An object that exists live and --no-adopt: refused, nothing written.
    await rm(join(tree, 'monitors.yaml'));
    await emulator.seed({ notifiers: [{ id: 'notify_firsthour', name: 'first-hour-mail', properties: { email: { emails: ['a@example.com'] } } }] });
    const refused = await runCli(['apply', tree, '--no-adopt'], { env });
    expect(refused.code).toBe(1);
    expect(existsSync(stateDir)).toBe(false);

    // Nothing to apply at all.
    const empty = join(work, 'empty');
    await writeTree(empty, { 'README.md': '# nothing declared yet\n' });
    const none = await runCli(['apply', empty, '--state-dir', join(empty, 'state', '.wsync')], { env });
    expect(none.code).toBe(0);
    expect(await readdir(empty)).toEqual(['README.md']);
  });
});

describe('the plan is honest to the write', () => {
  it('a create shows fields under wsync/ignore-fields (secrets masked), and plan and apply count the same skipped', async () => {
    const tree = join(await scratch.dir(), 'honest');
    const slackUrl = 'https://hooks.slack.example/services/T0/B0/first-hour-secret-77';
    await writeTree(tree, {
      'notifiers.yaml': [
        resource('Notifier', 'honest-mail', { properties: { email: { emails: ['oncall@example.com', 'lead@example.com'] } } }, {
          'wsync/ignore-fields': 'properties.email.emails',
        }),
        resource('Notifier', 'honest-slack', { properties: { slack: { slackUrl: '${env:FIRST_HOUR_SLACK}' } } }, {
          'wsync/ignore-fields': 'properties.slack',
        }),
      ].join('---\n'),
      // Observed, and missing live: the plan skips it (drift is reported, never written).
      'roles.yaml': resource('Role', 'honest-observed', { description: 'watched only' }, { 'wsync/mode': 'observe' }),
    });
    const env = { ...emulator.env, FIRST_HOUR_SLACK: slackUrl };

    const planned = await runCli(['plan', tree], { env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('properties.email.emails: ["oncall@example.com","lead@example.com"]');
    expect(planned.stdout).toContain('properties.slack.slackUrl: (sensitive value)');
    expect(planned.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete, 0 to adopt; 1 skipped.');

    const applied = await runCli(['apply', tree], { env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Apply complete: 2 created, 0 updated, 0 deleted, 0 adopted, 0 failed, 1 skipped in /m);
    expect(`${planned.stdout}${planned.stderr}${applied.stdout}${applied.stderr}`).not.toContain(slackUrl);
    // What the preview showed is what was sent.
    expect(named(await emulator.state(), 'notifiers', 'honest-mail')?.properties).toEqual({
      email: { emails: ['oncall@example.com', 'lead@example.com'] },
    });
  });
});
