// #26.3 in the daemon: a git-sync worktree (named by its commit) applied with --annotate and
// --commit-status marks the commit on the datasets written and on GitHub (the stand-in); a resync
// that puts drift back marks it again; a quiet reconcile adds no annotation and sets a status only
// when it changed. The GitHub token is in no log line.
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRevisionMarks } from '../../src/cli/revision-marks.js';
import { useInProcessDaemons, type LogLine } from '../support/daemon.js';
import { useTestEmulator, type SeedObject } from '../support/emulator.js';
import { useGitHubStandIn } from '../support/github.js';
import { useScratch, writeTree } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';
import { MONITOR_DATASETS, resource } from '../support/yaml.js';

const emulator = useTestEmulator({ seed: 2603 });
const github = useGitHubStandIn();
const scratch = useScratch('wsync-daemon-marks-');
const startDaemon = useInProcessDaemons(emulator);

const COMMIT = '0123456789abcdef0123456789abcdef01234567';

async function marks(): Promise<SeedObject[]> {
  return ((await emulator.state()).annotations ?? []).filter((a) => a.type === 'wsync-apply');
}

describe('the daemon marks the revisions it applied', () => {
  it('annotates the datasets written and sets the commit status, once per change of either', async () => {
    await emulator.seed(MONITOR_DATASETS);
    const root = await scratch.dir();
    const worktree = join(root, 'worktrees', COMMIT);
    await mkdir(worktree, { recursive: true });
    await writeTree(worktree, { 'vfields.yaml': resource('VirtualField', 'doubled', { dataset: 'checkout', expression: 'latency * 2' }) });
    await symlink(worktree, join(root, 'current'));
    const gh = github.get();
    const setup = resolveRevisionMarks({ annotate: true, commitStatus: true }, { WSYNC_GITHUB_REPOSITORY: 'acme/workspace', WSYNC_GITHUB_TOKEN: gh.token, WSYNC_GITHUB_API_URL: gh.url }, false);
    const { daemon, lines } = await startDaemon({ dir: join(root, 'current'), stateDir: join(root, '.wsync'), revisionMarks: setup });
    const marked = (): LogLine[] => lines.filter((l) => l.msg === 'revision marked');

    await waitUntil(() => marked().length === 1, { what: 'the first mark' });
    expect(await marks()).toMatchObject([{ datasets: ['checkout'], title: `wsync applied ${COMMIT.slice(0, 12)}: 1 created, 0 updated, 0 deleted` }]);
    expect(gh.statuses).toEqual([{ sha: COMMIT, state: 'success', context: 'wsync', description: 'applied: 1 created, 0 updated, 0 deleted', target_url: null }]);

    // Drift made by hand, put back by the next full reconcile: marked again. GitHub fails this
    // time, echoing the token: a warning without it, and the reconcile stands.
    const vfield = ((await emulator.state()).vfields ?? []).find((v) => v.name === 'doubled');
    await emulator.ok('PUT', `/v2/vfields/${String(vfield?.id)}`, { ...vfield, expression: 'latency * 9' });
    gh.failNext({ status: 500, body: { message: `broken near ${gh.token}` } });
    const before = lines.filter((l) => l.msg === 'reconcile').length;
    daemon.reload();
    await waitUntil(() => lines.filter((l) => l.msg === 'reconcile').length > before, { what: 'the reconcile that puts the drift back' });
    expect(marked()).toHaveLength(2);
    expect((await marks()).map((m) => m.title)).toEqual([
      `wsync applied ${COMMIT.slice(0, 12)}: 1 created, 0 updated, 0 deleted`,
      `wsync applied ${COMMIT.slice(0, 12)}: 0 created, 1 updated, 0 deleted`,
    ]);
    const warning = lines.find((l) => String(l.msg).startsWith('could not set the commit status'));
    expect(warning?.msg).toBe(`could not set the commit status of ${COMMIT.slice(0, 12)} (the apply stands): GitHub POST /repos/acme/workspace/statuses/${COMMIT}: 500: broken near (sensitive)`);
    expect(lines.filter((l) => l.msg === 'reconcile').at(-1)).toMatchObject({ result: 'applied' });
    expect(gh.statuses).toHaveLength(1);

    // Quiet reconciles: the status turns to "in sync" once, then nothing more is sent.
    for (const expected of [2, 2]) {
      const reconciles = lines.filter((l) => l.msg === 'reconcile').length;
      daemon.reload();
      await waitUntil(() => lines.filter((l) => l.msg === 'reconcile').length > reconciles, { what: 'a quiet reconcile' });
      expect(gh.statuses).toHaveLength(expected);
    }
    expect(gh.statuses[1]).toMatchObject({ state: 'success', description: 'in sync: nothing to apply' });
    expect(await marks()).toHaveLength(2);
    expect(lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain(gh.token);
  });
});
