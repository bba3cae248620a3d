// `wsync run --annotate --commit-status` as a process (#26.3): the flags and the WSYNC_GITHUB_*
// variables reach the daemon, which marks the commit of its git work tree on the datasets written
// and on GitHub (the stand-in), and says so in its log; the token is in none of its output.
// The marks themselves in detail: test/daemon/revision-marks.test.ts (in process).
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { useGitHubStandIn } from '../support/github.js';
import { writeTree } from '../support/tree.js';
import { resource } from '../support/yaml.js';

const run = promisify(execFile);
const GIT_ID = ['-c', 'user.name=wsync test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false'];

const suite = useDaemonSuite();
const github = useGitHubStandIn();

describe('wsync run --annotate --commit-status', () => {
  it('marks the commit it applied, from the flags and the environment', async () => {
    const dir = join(suite.tmp, 'marked');
    await mkdir(dir);
    await writeTree(dir, { 'views.yaml': resource('View', 'recent-app', { aplQuery: "['app'] | take 10", datasets: ['app'] }) });
    const git = async (...args: string[]): Promise<string> => (await run('git', [...GIT_ID, ...args], { cwd: dir })).stdout.trim();
    await git('init', '-q', '-b', 'main');
    await git('add', '.');
    await git('commit', '-q', '-m', 'a view');
    const commit = await git('rev-parse', 'HEAD');

    const gh = github.get();
    const daemon = suite.start([dir, '--annotate', '--commit-status', '--resync', 'off'], {
      WSYNC_GITHUB_REPOSITORY: 'acme/workspace',
      WSYNC_GITHUB_TOKEN: gh.token,
      WSYNC_GITHUB_API_URL: gh.url,
      WSYNC_COMMIT_STATUS_CONTEXT: 'wsync/staging',
    });
    const marked = await daemon.waitFor((line) => line.msg === 'revision marked', { what: 'the mark of the first reconcile' });
    expect(marked).toMatchObject({ commit, commit_status: 'success' });
    expect(gh.statuses).toEqual([{ sha: commit, state: 'success', context: 'wsync/staging', description: 'applied: 1 created, 0 updated, 0 deleted', target_url: null }]);
    const annotations = (await suite.emulator.state()).annotations ?? [];
    expect(annotations.filter((a) => a.type === 'wsync-apply').map((a) => [a.datasets, a.url])).toEqual([
      [['app'], `${gh.url}/acme/workspace/commit/${commit}`],
    ]);
    expect(`${JSON.stringify(daemon.lines)}${daemon.stderr}`).not.toContain(gh.token);
  });
});
