// `wsync plan --base REF` / `--base-dir DIR` end to end: a git repository in a temp dir with two
// commits, the second deleting a file; the base was applied by "the daemon" (its own state dir),
// and the pull request's plan (no inventory) shows the delete, as does the Action's plan step.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli as runWith } from '../../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../../support/emulator.js';
import { ROOT } from '../../support/paths.js';
import { removeDir, tempDir, writeTree } from '../../support/tree.js';
import { MONITOR_DATASETS, namedMonitorYaml } from '../../support/yaml.js';

/** The CLI with `env` added to its clean environment. */
const runCli = (args: string[], env: Record<string, string | undefined>) => runWith(args, { env });

const run = promisify(execFile);
const GIT_ID = ['-c', 'user.name=wsync test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false'];

const monitor = (name: string): string => namedMonitorYaml(name);

describe('plan --base: what a pull request deletes', () => {
  let emulator: TestEmulator;
  let root: string;
  let repo: string;
  let dir: string;
  let baseDir: string;

  const git = async (...args: string[]): Promise<string> => (await run('git', [...GIT_ID, ...args], { cwd: repo })).stdout;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await emulator.seed(MONITOR_DATASETS);
    root = await tempDir();
    repo = join(root, 'repo');
    dir = join(repo, 'workspace');
    // Five monitors, so that deleting one stays within the default delete ratio (25%).
    const kept = Object.fromEntries(['keep', 'a', 'b', 'c'].map((name) => [`monitors/${name}.yaml`, monitor(name)]));
    await writeTree(dir, { ...kept, 'monitors/old.yaml': monitor('old') });
    await writeTree(repo, { 'README.md': 'not a resource\n' });
    await git('init', '-q', '-b', 'main');
    await git('add', '.');
    await git('commit', '-q', '-m', 'base');
    // The daemon applied the base, with its own inventory.
    const applied = await runCli(['apply', dir, '--state-dir', join(root, 'daemon-state')], emulator.env);
    expect(applied.code, applied.stderr).toBe(0);
    // The pull request: one file deleted.
    await git('checkout', '-q', '-b', 'change');
    await git('rm', '-q', 'workspace/monitors/old.yaml');
    await git('commit', '-q', '-m', 'delete old');
    baseDir = join(root, 'base-copy');
    await mkdir(baseDir);
    await writeFile(join(baseDir, 'old.yaml'), monitor('old'));
    await writeFile(join(baseDir, 'keep.yaml'), monitor('keep'));
  });
  afterAll(async () => {
    await emulator.close();
    await removeDir(root);
  });

  it('shows the deleted file as a delete in the markdown plan, apart from the rest', async () => {
    await emulator.clearRequests();
    const result = await runCli(['plan', dir, '--base', 'main', '--prune', '--format', 'markdown', '--detailed-exitcode', '--state-dir', join(root, 'pr-state')], emulator.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/#### :wastebasket: Removed by this change \(1\)\n\nDeclared in the base and no longer in the files: what merging deletes\.\n\n- \*\*delete\*\* `Monitor\/old` \(id `mon_\w+`\) — declared in the base \(main\) and removed by this change\n/);
    expect(result.stdout).not.toContain('Other deletes');
    // What the daemon owns and the change keeps is no change at all.
    expect(result.stdout).toContain('4 objects already match the files');
    expect(await emulator.writes()).toEqual([]);
  });

  it('in text, and kept (with why) without --prune', async () => {
    const text = await runCli(['plan', dir, '--base', 'HEAD~1', '--prune', '--state-dir', join(root, 'pr-state')], emulator.env);
    expect(text.stdout).toMatch(/ {2}- delete {2}Monitor\/old \(id mon_\w+\)\n {8}# declared in the base \(HEAD~1\) and removed by this change\n/);
    const kept = await runCli(['plan', dir, '--base', 'main', '--state-dir', join(root, 'pr-state')], emulator.env);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('# removed by this change; not deleted: prune is off (--prune deletes it)');
  });

  it('--base-dir takes the base as a directory', async () => {
    const result = await runCli(['plan', dir, '--base-dir', baseDir, '--prune', '--state-dir', join(root, 'pr-state')], emulator.env);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/- delete {2}Monitor\/old .*\n {8}# declared in the base \(.*base-copy\) and removed by this change/);
  });

  it('refuses a revision the repository does not have, a directory outside git, and both flags at once', async () => {
    const state = ['--state-dir', join(root, 'pr-state')];
    const missing = await runCli(['plan', dir, '--base', 'no-such-branch', ...state], emulator.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('plan: --base: no commit "no-such-branch" in the repository of');
    const option = await runCli(['plan', dir, '--base', '--upload-pack=touch', ...state], emulator.env);
    expect(option.code).toBe(1);
    const outside = await runCli(['plan', baseDir, '--base', 'main', ...state], emulator.env);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/plan: --base: .*base-copy is not in a git repository/);
    const both = await runCli(['plan', dir, '--base', 'main', '--base-dir', baseDir, ...state], emulator.env);
    expect(both.stderr).toContain('plan: use either --base or --base-dir, not both');
    const noDir = await runCli(['plan', dir, '--base-dir', join(root, 'nowhere'), ...state], emulator.env);
    expect(noDir.stderr).toMatch(/plan: --base-dir: .*nowhere: no such directory/);
  });

  it("works through the Action's plan step and its base input", async () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: { id?: string; run?: string }[] } };
    const script = action.runs.steps.find((s) => s.id === 'plan')?.run ?? '';
    const temp = join(root, 'runner');
    await mkdir(join(temp, 'wsync-bin'), { recursive: true });
    await mkdir(join(temp, 'wsync'), { recursive: true });
    await rm(join(temp, 'wsync-bin', 'wsync'), { force: true });
    await run('ln', ['-s', join(ROOT, 'bin', 'wsync.js'), join(temp, 'wsync-bin', 'wsync')]);
    const output = join(temp, 'output');
    await run('bash', ['-e', '-c', script], {
      cwd: repo,
      env: {
        PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
        HOME: temp,
        RUNNER_TEMP: temp,
        GITHUB_OUTPUT: output,
        WSYNC_DIR: 'workspace',
        WSYNC_PLAN_BASE: 'main',
        WSYNC_PLAN_FORMAT: 'markdown',
        WSYNC_PLAN_ARGS: `--prune --state-dir ${join(root, 'action-state')}`,
        WSYNC_INPUT_URL: emulator.url,
        WSYNC_INPUT_ORG_ID: '',
        WSYNC_FROM_FORK: 'false',
        WSYNC_INPUT_TOKEN: emulator.env.WSYNC_TOKEN ?? '',
      },
    });
    expect(await readFile(output, 'utf8')).toContain('exitcode=2');
    expect(await readFile(join(temp, 'wsync', 'plan.md'), 'utf8')).toMatch(/Removed by this change \(1\)[\s\S]*`Monitor\/old`/);
  });
});
