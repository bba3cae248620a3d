// `wsync apply --annotate --commit-status` (#26.3): the applied revision marked as an Annotation on
// the datasets written and as a commit status through the GitHub API (the stand-in), on a tree in a
// git repository. The marks are never pruned nor planned, and a failing GitHub never fails apply.
import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../support/cli.js';
import { useTestEmulator, type SeedObject } from '../../support/emulator.js';
import { useGitHubStandIn } from '../../support/github.js';
import { useScratch, writeTree } from '../../support/tree.js';
import { MONITOR_DATASETS, notifierYaml, resource } from '../../support/yaml.js';

const run = promisify(execFile);
const GIT_ID = ['-c', 'user.name=wsync test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false'];

const emulator = useTestEmulator({ seed: 26 });
const github = useGitHubStandIn();
const scratch = useScratch('wsync-marks-');

const TREE = {
  'datasets.yaml': resource('Dataset', 'marks-events', { description: 'Deploy events' }),
  'vfields.yaml': resource('VirtualField', 'doubled', { dataset: 'app', expression: 'latency * 2' }),
  'notifiers.yaml': notifierYaml('team-email'),
};

let repo: string;
let commit: string;
const git = async (...args: string[]): Promise<string> => (await run('git', [...GIT_ID, ...args], { cwd: repo })).stdout.trim();

function markEnv(extra: Record<string, string> = {}): Record<string, string> {
  const gh = github.get();
  return {
    ...emulator.env,
    WSYNC_GITHUB_REPOSITORY: 'acme/workspace',
    WSYNC_GITHUB_TOKEN: gh.token,
    WSYNC_GITHUB_API_URL: gh.url,
    ...extra,
  };
}

async function marks(): Promise<SeedObject[]> {
  const annotations = (await emulator.state()).annotations ?? [];
  return annotations.filter((a) => a.type === 'wsync-apply');
}

function expectNoToken(result: CliResult): void {
  expect(result.stdout).not.toContain(github.get().token);
  expect(result.stderr).not.toContain(github.get().token);
}

beforeAll(async () => {
  await emulator.seed(MONITOR_DATASETS);
  repo = await scratch.dir();
  await writeTree(repo, TREE);
  await git('init', '-q', '-b', 'main');
  await git('add', '.');
  await git('commit', '-q', '-m', 'workspace');
  commit = await git('rev-parse', 'HEAD');
});

beforeEach(() => github.get().reset());

describe('apply --annotate --commit-status', () => {
  it('marks the applied commit once on each dataset it wrote to, and sets its commit status', async () => {
    const applied = await runCli(['apply', repo, '--annotate', '--commit-status'], { env: markEnv() });
    expect(applied.code, applied.stderr).toBe(0);
    expectNoToken(applied);
    expect(applied.stderr).toContain(`apply: annotated ${commit.slice(0, 12)} on the datasets written`);

    const [mark, ...more] = await marks();
    expect(more).toEqual([]);
    expect(mark?.datasets).toEqual(['app', 'marks-events']);
    expect(mark?.title).toBe(`wsync applied ${commit.slice(0, 12)}: 3 created, 0 updated, 0 deleted`);
    expect(mark?.description).toBe(`wsync applied ${commit}: 3 created, 0 updated, 0 deleted; datasets app, marks-events`);
    // The commit's page, from the API URL (an Enterprise server's host; github.com for api.github.com).
    expect(mark?.url).toBe(`${github.get().url}/acme/workspace/commit/${commit}`);

    expect(github.get().statuses).toEqual([
      { sha: commit, state: 'success', context: 'wsync', description: 'applied: 3 created, 0 updated, 0 deleted', target_url: null },
    ]);
    expect(github.get().requests[0]?.headers.authorization).toBe(`Bearer ${github.get().token}`);
  });

  it('leaves the mark out of every later plan, also with --prune, and marks nothing more when nothing was written', async () => {
    const plan = await runCli(['plan', repo, '--prune', '--detailed-exitcode'], { env: emulator.env });
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).not.toContain('wsync applied');
    // Nor written into files: export (and pull, which writes new objects as export does) leave it out.
    const out = await scratch.dir();
    const exported = await runCli(['export', '--out', join(out, 'tree'), '--kind', 'Annotation'], { env: emulator.env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(`${exported.stdout}${exported.stderr}`).not.toContain('wsync applied');
    expect((await readdir(join(out, 'tree'), { recursive: true })).filter((path) => path.startsWith('annotations/'))).toEqual([]);
    const pulled = await runCli(['pull', repo, '--kind', 'Annotation', '--dry-run'], { env: emulator.env });
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(`${pulled.stdout}${pulled.stderr}`).not.toContain('wsync applied');

    const again = await runCli(['apply', repo, '--prune', '--annotate', '--commit-status'], { env: markEnv() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
    expect(await marks()).toHaveLength(1);
    expect(github.get().statuses).toEqual([{ sha: commit, state: 'success', context: 'wsync', description: 'in sync: nothing to apply', target_url: null }]);
  });

  it('warns when GitHub fails and still applies (exit 0), the token in no output', async () => {
    await writeFile(join(repo, 'vfields.yaml'), resource('VirtualField', 'doubled', { dataset: 'app', expression: 'latency * 3' }));
    await git('commit', '-q', '-am', 'triple');
    const head = await git('rev-parse', 'HEAD');
    github.get().failNext({ status: 500, body: { message: `upstream broke near ${github.get().token}` } });
    const applied = await runCli(['apply', repo, '--annotate', '--commit-status'], { env: markEnv() });
    expect(applied.code, applied.stderr).toBe(0);
    expectNoToken(applied);
    expect(applied.stderr).toContain(`warning: could not set the commit status of ${head.slice(0, 12)} (the apply stands): GitHub POST /repos/acme/workspace/statuses/${head}: 500: upstream broke near (sensitive)`);
    // A POST that may have been applied is not sent twice.
    expect(github.get().requests).toHaveLength(1);
    const latest = (await marks()).filter((m) => String(m.title).includes(head.slice(0, 12)));
    expect(latest.map((m) => [m.datasets, m.title])).toEqual([[['app'], `wsync applied ${head.slice(0, 12)}: 0 created, 1 updated, 0 deleted`]]);

    const refused = await runCli(['apply', repo, '--commit-status', '--format', 'json'], { env: markEnv({ WSYNC_GITHUB_TOKEN: 'ghp_notTheRightToken42' }) });
    expect(refused.code).toBe(0);
    // The warning goes to stderr: stdout stays the JSON document.
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'applied' });
    expect(refused.stdout).not.toContain('ghp_notTheRightToken42');
    expect(refused.stderr).toContain('401: Bad credentials');
    expect(refused.stderr).not.toContain('ghp_notTheRightToken42');
  });

  it('names uncommitted changes and sets no status on a commit the files are not', async () => {
    await writeFile(join(repo, 'vfields.yaml'), resource('VirtualField', 'doubled', { dataset: 'app', expression: 'latency * 4' }));
    const applied = await runCli(['apply', repo, '--annotate', '--commit-status'], { env: markEnv() });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('warning: no commit status set: the files read have uncommitted changes');
    expect(github.get().requests).toEqual([]);
    const dirty = (await marks()).filter((m) => String(m.description).includes('with uncommitted changes'));
    expect(dirty).toHaveLength(1);
    await git('checkout', '-q', '--', 'vfields.yaml');
  });

  it('names a --revision given outside git, and refuses an incomplete opt-in before writing anything', async () => {
    const plain = await scratch.dir();
    await writeTree(plain, { 'datasets.yaml': resource('Dataset', 'marks-plain', {}) });
    const applied = await runCli(['apply', plain, '--annotate', '--revision', 'release-7'], { env: emulator.env });
    expect(applied.code, applied.stderr).toBe(0);
    const mark = (await marks()).find((m) => String(m.title).startsWith('wsync applied release-7'));
    expect(mark?.datasets).toEqual(['marks-plain']);
    expect(mark?.url).toBeUndefined();

    await emulator.clearRequests();
    const incomplete = await runCli(['apply', repo, '--commit-status'], { env: { ...emulator.env, WSYNC_GITHUB_TOKEN: 'ghp_x1234567' } });
    expect(incomplete.code).toBe(1);
    expect(incomplete.stderr).toContain('--commit-status needs the repository: set WSYNC_GITHUB_REPOSITORY=owner/name');
    expect(await emulator.writes()).toEqual([]);
  });
});
