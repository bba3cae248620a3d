// #26.3 in the daemon: a git-sync worktree (named by its commit) applied with --annotate and
// --commit-status marks the commit on the datasets written and on GitHub (the stand-in); a resync
// that puts drift back marks it again; a quiet reconcile adds no annotation and sets a status only
// when it changed. The GitHub token is in no log line.
import { mkdir, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRevisionMarks } from '../../src/cli/revision-marks.js';
import { CLOSE_WAIT_MS } from '../../src/daemon/lane.js';
import { useInProcessDaemons, type LogLine } from '../support/daemon.js';
import { useTestEmulator, type SeedObject } from '../support/emulator.js';
import { FakeClock } from '../support/fake-clock.js';
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
    // The marks are made after the reconcile, in the background (#28).
    await waitUntil(() => marked().length === 2, { what: 'the second mark' });
    expect((await marks()).map((m) => m.title)).toEqual([
      `wsync applied ${COMMIT.slice(0, 12)}: 1 created, 0 updated, 0 deleted`,
      `wsync applied ${COMMIT.slice(0, 12)}: 0 created, 1 updated, 0 deleted`,
    ]);
    await waitUntil(() => lines.some((l) => String(l.msg).startsWith('could not set the commit status')), { what: 'the warning' });
    const warning = lines.find((l) => String(l.msg).startsWith('could not set the commit status'));
    expect(warning?.msg).toBe(`could not set the commit status of ${COMMIT.slice(0, 12)} (the apply stands): GitHub POST /repos/acme/workspace/statuses/${COMMIT}: 500: broken near (sensitive)`);
    expect(lines.filter((l) => l.msg === 'reconcile').at(-1)).toMatchObject({ result: 'applied' });
    expect(gh.statuses).toHaveLength(1);

    // Quiet reconciles: the status turns to "in sync" once, then nothing more is sent.
    for (let i = 0; i < 2; i += 1) {
      const reconciles = lines.filter((l) => l.msg === 'reconcile').length;
      daemon.reload();
      await waitUntil(() => lines.filter((l) => l.msg === 'reconcile').length > reconciles, { what: 'a quiet reconcile' });
      await waitUntil(() => gh.statuses.length === 2, { what: 'the "in sync" status' });
    }
    // A stop waits for the marks queued: none of the second quiet reconcile's was sent.
    await daemon.stop('test over');
    expect(gh.statuses).toHaveLength(2);
    expect(gh.statuses[1]).toMatchObject({ state: 'success', description: 'in sync: nothing to apply' });
    expect(await marks()).toHaveLength(2);
    expect(lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain(gh.token);
  });

  it('marks in the background and in order: revisions are applied and reported while GitHub holds a status', async () => {
    await emulator.seed(MONITOR_DATASETS);
    const root = await scratch.dir();
    const commits = ['1', '2', '3'].map((c) => c.repeat(40));
    const fields = ['one', 'two', 'three'];
    // git-sync's layout: one worktree per commit, each declaring one more virtual field.
    for (const [i, commit] of commits.entries()) {
      const files = Object.fromEntries(fields.slice(0, i + 1).map((name, n) => [`${name}.yaml`, resource('VirtualField', name, { dataset: 'checkout', expression: `latency * ${n + 2}` })]));
      await writeTree(join(root, 'worktrees', commit), files);
    }
    await symlink(join(root, 'worktrees', commits[0] as string), join(root, 'current'));
    const gh = github.get();
    gh.reset();
    const earlier = (await marks()).length;
    const setup = resolveRevisionMarks({ annotate: true, commitStatus: true }, { WSYNC_GITHUB_REPOSITORY: 'acme/workspace', WSYNC_GITHUB_TOKEN: gh.token, WSYNC_GITHUB_API_URL: gh.url }, false);
    const { daemon, lines } = await startDaemon({ dir: join(root, 'current'), stateDir: join(root, '.wsync'), revisionMarks: setup, resync: null });
    const marked = (): LogLine[] => lines.filter((l) => l.msg === 'revision marked');
    const reconciles = (): LogLine[] => lines.filter((l) => l.msg === 'reconcile');
    /** SIGHUP (which also replaces the API client): a reconcile of what the link names, waited for. */
    const reconcile = async (commit?: string): Promise<LogLine | undefined> => {
      if (commit !== undefined) {
        await symlink(join(root, 'worktrees', commit), join(root, 'next'));
        await rename(join(root, 'next'), join(root, 'current'));
      }
      const before = reconciles().length;
      daemon.reload();
      await waitUntil(() => reconciles().slice(before).some((l) => l.trigger === 'sighup'), { what: 'a reconcile' });
      return reconciles().find((l, i) => i >= before && l.trigger === 'sighup');
    };
    await waitUntil(() => marked().length === 1, { what: 'the first mark' });

    // GitHub holds the next status: the next two revisions are applied and reported all the same.
    const hung = gh.holdNext();
    expect(await reconcile(commits[1])).toMatchObject({ revision: commits[1], result: 'applied' });
    expect(await hung.arrived).toBe(`POST /repos/acme/workspace/statuses/${commits[1]}`);
    expect(await reconcile(commits[2])).toMatchObject({ revision: commits[2], result: 'applied' });
    // The API client the third revision's mark was queued with is replaced and closed: the mark uses the new one.
    expect(await reconcile()).toMatchObject({ revision: commits[2], result: 'applied' });
    expect(((await emulator.state()).vfields ?? []).map((v) => v.name)).toEqual(expect.arrayContaining(fields));
    expect(gh.statuses.map((st) => st.sha)).toEqual([commits[0]]);
    expect(marked()).toHaveLength(1);

    // Released: the held status lands, then the later ones, in the reconciles' order.
    hung.release();
    await waitUntil(() => marked().length === 4, { what: 'the held marks made' });
    const applied = 'applied: 1 created, 0 updated, 0 deleted';
    expect(gh.statuses.map((st) => [st.sha, st.description])).toEqual([...commits.map((c) => [c, applied]), [commits[2], 'in sync: nothing to apply']]);
    expect(marked().map((l) => l.commit)).toEqual([...commits, commits[2]]);
    expect((await marks()).slice(earlier).map((m) => m.title)).toEqual(commits.map((c) => `wsync applied ${c.slice(0, 12)}: 1 created, 0 updated, 0 deleted`));
    expect(lines.filter((l) => l.level === 'warn')).toEqual([]);
    // Its writer lease would refuse the next test's daemon.
    await daemon.stop('test over');
  });

  it('a stop waits for the mark in flight, no longer than CLOSE_WAIT_MS', async () => {
    await emulator.seed(MONITOR_DATASETS);
    const gh = github.get();
    gh.reset();
    const setup = (): ReturnType<typeof resolveRevisionMarks> =>
      resolveRevisionMarks({ commitStatus: true }, { WSYNC_GITHUB_REPOSITORY: 'acme/workspace', WSYNC_GITHUB_TOKEN: gh.token, WSYNC_GITHUB_API_URL: gh.url }, false);
    const start = async (clock?: FakeClock): Promise<{ d: Awaited<ReturnType<typeof startDaemon>>; hung: ReturnType<typeof gh.holdNext> }> => {
      const root = await scratch.dir();
      const worktree = join(root, 'worktrees', COMMIT);
      await writeTree(worktree, { 'vfields.yaml': resource('VirtualField', 'stopped', { dataset: 'checkout', expression: 'latency * 4' }) });
      await symlink(worktree, join(root, 'current'));
      const hung = gh.holdNext();
      const d = await startDaemon({ dir: join(root, 'current'), stateDir: join(root, '.wsync'), revisionMarks: setup(), resync: null, ...(clock ? { clock } : {}) });
      await hung.arrived;
      return { d, hung };
    };

    // Answered while the stop waits: marked before "stopped".
    const first = await start();
    const stopping = first.d.daemon.stop('SIGTERM');
    await first.d.waitFor((l) => l.msg === 'stopping');
    first.hung.release();
    await stopping;
    const order = ['stopping', 'revision marked', 'stopped'].map((msg) => first.d.lines.findIndex((l) => l.msg === msg));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order[0]).toBeGreaterThanOrEqual(0);

    // Never answered: the stop gives up after CLOSE_WAIT_MS on the daemon's clock, and says so.
    const clock = new FakeClock();
    const second = await start(clock);
    const stopped = second.d.daemon.stop('SIGTERM');
    await waitUntil(() => clock.pending().includes(CLOSE_WAIT_MS), { what: 'the stop waiting for the marks' });
    await clock.advance(CLOSE_WAIT_MS);
    await second.d.waitFor((l) => l.msg === 'stopping with revision marks still being made: left unfinished');
    expect(second.d.lines.some((l) => l.msg === 'revision marked')).toBe(false);
    // Its GitHub client closes once the hung call ends (here: answered; else its own timeout).
    second.hung.release();
    await stopped;
  });
});
