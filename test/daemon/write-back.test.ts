// #26.2 in the daemon: a change made in the workspace (a PUT through the emulator's API, as the UI
// makes it) ends as one commit on the write-back branch of a local bare remote, with the pull
// request opened on the GitHub stand-in; in enforce mode it is not put back until that pull request
// is closed; a push the remote rejects (the branch moved meanwhile) is made again on the refreshed
// branch; without a GitHub token the branch is pushed and GitHub never called.
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveWriteBack } from '../../src/cli/commands/run/write-back.js';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import type { DaemonConfig } from '../../src/daemon/config.js';
import { CLOSE_WAIT_MS, HOLD_CHECK_EVERY_MS } from '../../src/daemon/write-back.js';
import { useInProcessDaemons, type InProcessDaemon, type LogLine } from '../support/daemon.js';
import { useTestEmulator, type SeedObject } from '../support/emulator.js';
import { FakeClock } from '../support/fake-clock.js';
import { useGitHubStandIn, type GitHubStandIn, type HeldRequest } from '../support/github.js';
import { commitTree, git, useScratch } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';
import { MONITOR_DATASETS } from '../support/yaml.js';

const emulator = useTestEmulator({ seed: 2602 });
const github = useGitHubStandIn();
const scratch = useScratch('wsync-write-back-');
const startDaemon = useInProcessDaemons(emulator);

const FILE = 'vfields.yaml';
const BRANCH = 'wsync/write-back';
const DECLARED = ['apiVersion: wsync/v1', 'kind: VirtualField', 'metadata:', '  name: doubled', 'spec:', '  dataset: checkout', '  # doubled, for the SLO board', '  expression: latency * 2', ''].join('\n');

/** A second object, declared in a file edit made while the write-back's GitHub call hangs. */
const TRIPLED = ['apiVersion: wsync/v1', 'kind: VirtualField', 'metadata:', '  name: tripled', 'spec:', '  dataset: checkout', '  expression: latency * 3', ''].join('\n');

interface Repo {
  root: string;
  /** The daemon's DIR: a clone of `bare` at main. */
  tree: string;
  bare: string;
  stateDir: string;
}

/** A bare remote whose main declares the virtual field, DIR a clone of it, and the field live as declared. */
async function repository(declaration = DECLARED): Promise<Repo> {
  await emulator.seed({ ...MONITOR_DATASETS, vfields: [{ id: 'vfld_doubled', dataset: 'checkout', name: 'doubled', expression: 'latency * 2' }] });
  const root = await scratch.dir();
  const bare = join(root, 'remote.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  const tree = scratch.tree({ [FILE]: declaration });
  commitTree(tree);
  git(tree, 'remote', 'add', 'origin', bare);
  git(tree, 'push', '-q', 'origin', 'main');
  return { root, tree, bare, stateDir: join(root, 'state') };
}

async function liveExpression(): Promise<unknown> {
  return ((await emulator.state()).vfields ?? []).find((v: SeedObject) => v.name === 'doubled')?.expression;
}

async function editInTheUi(expression: string): Promise<void> {
  const vfield = ((await emulator.state()).vfields ?? []).find((v: SeedObject) => v.name === 'doubled');
  await emulator.ok('PUT', `/v2/vfields/${String(vfield?.id)}`, { ...vfield, expression });
}

/** Reconciles once more (SIGHUP: all live state read) and waits for its log line. */
async function reconcile(d: InProcessDaemon): Promise<LogLine> {
  const before = d.lines.filter((l) => l.msg === 'reconcile').length;
  d.daemon.reload();
  await waitUntil(() => d.lines.filter((l) => l.msg === 'reconcile').length > before, { what: 'a reconcile' });
  return d.lines.filter((l) => l.msg === 'reconcile').at(-1) as LogLine;
}

function branchLog(bare: string): string[] {
  return git(bare, 'log', '--format=%s', `main..${BRANCH}`).trim().split('\n').filter((l) => l !== '');
}

function githubEnv(): Record<string, string> {
  const gh = github.get();
  return { WSYNC_GITHUB_REPOSITORY: 'acme/workspace', WSYNC_GITHUB_TOKEN: gh.token, WSYNC_GITHUB_API_URL: gh.url };
}

/** A daemon writing KINDS back from a fresh repository, with GitHub, once its first reconcile is out. */
async function startWritingBack(kinds: string, config: Partial<DaemonConfig> = {}): Promise<{ repo: Repo; gh: GitHubStandIn; d: InProcessDaemon }> {
  const repo = await repository();
  const gh = github.get();
  gh.reset();
  const writeBack = resolveWriteBack({ writeBack: kinds, writeBackRemote: repo.bare }, githubEnv(), { dir: repo.tree, stateDir: repo.stateDir, cwd: repo.root }, false);
  const d = await startDaemon({ dir: repo.tree, stateDir: repo.stateDir, writeBack, ...config });
  await d.waitFor((l) => l.msg === 'reconcile');
  return { repo, gh, d };
}

/**
 * Enforce mode: a UI edit written back and held, its pull request closed, and the merged-or-closed
 * question under way with its GitHub call hung until `hung.release()`.
 */
async function closedWhileAsking(): Promise<{ repo: Repo; gh: GitHubStandIn; d: InProcessDaemon; hung: HeldRequest }> {
  const clock = new FakeClock();
  const { repo, gh, d } = await startWritingBack('all', { clock });
  await editInTheUi('latency * 10');
  await reconcile(d);
  await waitUntil(() => writtenBack(d).length === 1, { what: 'the write-back' });
  const pull = gh.pulls[0];
  if (pull) pull.state = 'closed';
  const hung = gh.holdNext();
  await clock.advance(HOLD_CHECK_EVERY_MS);
  return { repo, gh, d, hung };
}

const writtenBack = (d: InProcessDaemon): LogLine[] => d.lines.filter((l) => l.msg === 'written back');

/** A file edit, reconciled: the new object is live once its reconcile's log line is out. */
async function editTheFiles(d: InProcessDaemon, repo: Repo): Promise<LogLine> {
  await writeFile(join(repo.tree, 'tripled.yaml'), TRIPLED);
  const reconciled = await reconcile(d);
  const live = ((await emulator.state()).vfields ?? []).find((v: SeedObject) => v.name === 'tripled');
  expect(live?.expression).toBe('latency * 3');
  return reconciled;
}

describe('the daemon writes drift made in the workspace back to git', () => {
  it('observe mode: a UI edit ends as one commit on the write-back branch and one pull request', async () => {
    const { repo, gh, d } = await startWritingBack('all', { policy: { ...DEFAULT_POLICY, mode: 'observe' } });

    await editInTheUi('latency * 3');
    await reconcile(d);
    await waitUntil(() => writtenBack(d).length === 1, { what: 'the write-back' });

    expect(branchLog(repo.bare)).toEqual(['wsync: VirtualField/checkout/doubled changed in the workspace']);
    const message = git(repo.bare, 'log', '-1', '--format=%B', BRANCH);
    expect(message).toContain('- VirtualField/checkout/doubled: expression');
    // Only the changed line, the comment kept.
    expect(git(repo.bare, 'show', `${BRANCH}:${FILE}`)).toBe(DECLARED.replace('latency * 2', 'latency * 3'));
    // The branch the daemon reads is untouched.
    expect(git(repo.bare, 'show', `main:${FILE}`)).toContain('expression: latency * 2');
    expect(await readFile(join(repo.tree, FILE), 'utf8')).toContain('expression: latency * 2');
    expect(gh.pulls).toEqual([expect.objectContaining({ number: 1, head: BRANCH, base: 'main', state: 'open', title: 'wsync: changes made in the workspace' })]);
    expect(gh.pulls[0]?.body).toContain('VirtualField/checkout/doubled: expression');
    expect(gh.requests.map((r) => `${r.method} ${r.url} ${r.status}`)).toEqual([
      `GET /repos/acme/workspace/pulls?head=${encodeURIComponent(`acme:${BRANCH}`)}&state=open 200`,
      'POST /repos/acme/workspace/pulls 201',
    ]);
    expect(writtenBack(d)[0]).toMatchObject({ branch: BRANCH, objects: ['VirtualField/checkout/doubled'], push_attempts: 1 });
    // Observe mode writes nothing to the workspace.
    expect(await liveExpression()).toBe('latency * 3');

    // The same drift at the next reconcile is not written again; a second edit is, on the same pull request.
    await reconcile(d);
    expect(branchLog(repo.bare)).toHaveLength(1);
    await editInTheUi('latency * 4');
    await reconcile(d);
    await waitUntil(() => writtenBack(d).length === 2, { what: 'the second write-back' });
    expect(branchLog(repo.bare)).toHaveLength(2);
    expect(gh.pulls).toHaveLength(1);
    expect(gh.requests.at(-1)).toMatchObject({ method: 'PATCH', url: '/repos/acme/workspace/pulls/1', status: 200 });
    expect(d.lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain(gh.token);
  });

  it('enforce mode: the UI edit stays live until its pull request is closed, then is put back', async () => {
    const clock = new FakeClock();
    const { repo, gh, d } = await startWritingBack('VirtualField', { clock });

    await editInTheUi('latency * 5');
    await reconcile(d);
    await waitUntil(() => writtenBack(d).length === 1, { what: 'the write-back' });
    expect(await liveExpression()).toBe('latency * 5');
    expect(gh.pulls[0]?.body).toContain('does not put these objects back');

    // Held: further reconciles neither put it back nor write it again, nor ask GitHub anything.
    const asked = gh.requests.length;
    await reconcile(d);
    await reconcile(d);
    expect(await liveExpression()).toBe('latency * 5');
    expect(branchLog(repo.bare)).toHaveLength(1);
    expect(gh.requests).toHaveLength(asked);

    // Asked every HOLD_CHECK_EVERY_MS: the open pull request keeps it held.
    await clock.advance(HOLD_CHECK_EVERY_MS);
    await waitUntil(() => gh.requests.length === asked + 1, { what: 'the merged-or-closed question' });
    expect(gh.requests.at(-1)).toMatchObject({ method: 'GET', status: 200 });
    // The next question is armed once this one's answer is in.
    await waitUntil(() => clock.pending().includes(HOLD_CHECK_EVERY_MS), { what: 'the next question armed' });
    const pull = gh.pulls[0];
    if (pull) pull.state = 'closed';
    await clock.advance(HOLD_CHECK_EVERY_MS);
    // The answer asks for a reconcile of its own, which puts the edit back.
    await d.waitFor((l) => l.msg === 'reconcile' && l.trigger === 'write-back');
    await waitUntil(async () => (await liveExpression()) === 'latency * 2', { what: 'the edit put back' });
    expect(d.lines.some((l) => String(l.msg).startsWith('write-back closed without a merge'))).toBe(true);
    expect(gh.requests).toHaveLength(asked + 2);
    expect(writtenBack(d)).toHaveLength(1);
    // Its writer lease would keep the next test's enforcing daemon from writing.
    await d.daemon.stop('test over');
  });

  it('a push rejected because the branch moved is made again on the refreshed branch; no token: push only', async () => {
    const repo = await repository();
    const gh = github.get();
    gh.reset();
    // The checkout, cloned ahead of the daemon, with a hook that moves the remote's branch once,
    // right after the daemon fetched it: its first push is not a fast-forward.
    const checkout = join(repo.root, 'checkout');
    git(repo.root, 'clone', '-q', repo.bare, checkout);
    const other = join(repo.root, 'other');
    git(repo.root, 'clone', '-q', repo.bare, other);
    await writeFile(join(other, 'NOTES.md'), 'someone else\n');
    git(other, 'add', 'NOTES.md');
    git(other, 'commit', '-q', '-m', 'someone else on the branch');
    const hook = join(checkout, '.git', 'hooks', 'post-checkout');
    const marker = join(repo.root, 'moved');
    await writeFile(
      hook,
      `#!/bin/sh\n[ -e '${marker}' ] && exit 0\ntouch '${marker}'\nunset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE\ngit -C '${other}' push -q origin HEAD:refs/heads/${BRANCH}\n`,
    );
    await chmod(hook, 0o755);
    const writeBack = resolveWriteBack({ writeBack: 'all', writeBackRemote: repo.bare, writeBackDir: checkout }, {}, { dir: repo.tree, stateDir: repo.stateDir, cwd: repo.root }, false);
    const d = await startDaemon({ dir: repo.tree, stateDir: repo.stateDir, policy: { ...DEFAULT_POLICY, mode: 'observe' }, writeBack });
    await d.waitFor((l) => l.msg === 'reconcile');

    await editInTheUi('latency * 6');
    await reconcile(d);
    await waitUntil(() => writtenBack(d).length === 1, { what: 'the write-back' });

    expect(writtenBack(d)[0]).toMatchObject({ push_attempts: 2, pull_request: null });
    expect(d.lines.some((l) => String(l.msg).startsWith(`the push of ${BRANCH} was rejected`))).toBe(true);
    expect(branchLog(repo.bare)).toEqual(['wsync: VirtualField/checkout/doubled changed in the workspace', 'someone else on the branch']);
    expect(git(repo.bare, 'show', `${BRANCH}:${FILE}`)).toContain('expression: latency * 6');
    expect(gh.requests).toEqual([]);
  });

  it('a write-back that fails is logged without the credentials of the remote URL, and the reconcile stands', async () => {
    const repo = await repository();
    const remote = 'http://wsync-bot:s3cretPushPass@127.0.0.1:9/acme/workspace.git';
    const writeBack = resolveWriteBack({ writeBack: 'all', writeBackRemote: remote }, {}, { dir: repo.tree, stateDir: repo.stateDir, cwd: repo.root }, false);
    const d = await startDaemon({ dir: repo.tree, stateDir: repo.stateDir, policy: { ...DEFAULT_POLICY, mode: 'observe' }, writeBack });
    await d.waitFor((l) => l.msg === 'reconcile');

    await editInTheUi('latency * 7');
    const reconciled = await reconcile(d);
    const failed = await d.waitFor((l) => l.msg === 'write-back failed: tried again at the next reconcile');
    expect(failed).toMatchObject({ branch: BRANCH, objects: ['VirtualField/checkout/doubled'] });
    expect(String(failed.err)).toMatch(/^git clone: /);
    expect(reconciled).toMatchObject({ result: 'planned' });
    expect(d.lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain('s3cretPushPass');
  });

  it('enforce mode: drift that cannot be written into the files (a value from ${env:}) is not held, and put back', async () => {
    const repo = await repository(DECLARED.replace('latency * 2', '${env:EXPRESSION}'));
    const writeBack = resolveWriteBack({ writeBack: 'all', writeBackRemote: repo.bare }, {}, { dir: repo.tree, stateDir: repo.stateDir, cwd: repo.root }, false);
    const d = await startDaemon({ dir: repo.tree, stateDir: repo.stateDir, env: { EXPRESSION: 'latency * 2' }, writeBack });
    await d.waitFor((l) => l.msg === 'reconcile');

    await editInTheUi('latency * 8');
    await reconcile(d);
    const reported = await d.waitFor((l) => l.msg === 'write-back: some differences were not written into the files');
    expect(String(reported.not_written)).toContain('VirtualField/checkout/doubled expression: the value comes from ${env:}/${file:}');
    expect(d.lines.some((l) => l.msg === 'write-back: nothing could be written into the files')).toBe(true);
    expect(git(repo.bare, 'branch', '--list', BRANCH).trim()).toBe('');
    await reconcile(d);
    expect(await liveExpression()).toBe('latency * 2');
    await d.daemon.stop('test over');
  });

  // #28: the git and GitHub work runs beside the reconciles, never in their way.
  it('a write-back whose pull request call hangs holds up no reconcile: an edit meanwhile is applied, then the pull request opens and the drift found meanwhile follows', async () => {
    const { repo, gh, d } = await startWritingBack('all', { clock: new FakeClock() });

    const hung = gh.holdNext();
    await editInTheUi('latency * 9');
    await reconcile(d);
    expect(await hung.arrived).toBe(`GET /repos/acme/workspace/pulls?head=${encodeURIComponent(`acme:${BRANCH}`)}&state=open`);
    // The commit is pushed; the pull request call hangs. A file edit is applied and reported meanwhile,
    // the UI edit stays held, and nothing is written back twice.
    expect(branchLog(repo.bare)).toHaveLength(1);
    expect(await editTheFiles(d, repo)).toMatchObject({ result: 'applied' });
    expect(await liveExpression()).toBe('latency * 9');
    expect(writtenBack(d)).toEqual([]);
    expect(gh.pulls).toEqual([]);
    // A second UI edit found meanwhile waits for the next publish, after this one.
    await editInTheUi('latency * 13');
    await reconcile(d);
    expect(branchLog(repo.bare)).toHaveLength(1);

    hung.release();
    await waitUntil(() => writtenBack(d).length === 2, { what: 'both write-backs' });
    expect(writtenBack(d).map((l) => l.push_attempts)).toEqual([1, 1]);
    expect(gh.pulls).toEqual([expect.objectContaining({ number: 1, head: BRANCH, state: 'open' })]);
    expect(gh.requests.at(-1)).toMatchObject({ method: 'PATCH', url: '/repos/acme/workspace/pulls/1', status: 200 });
    expect(branchLog(repo.bare)).toHaveLength(2);
    expect(git(repo.bare, 'show', `${BRANCH}:${FILE}`)).toContain('expression: latency * 13');
    expect(await liveExpression()).toBe('latency * 13');
    await d.daemon.stop('test over');
  });

  it('a merged-or-closed question that hangs holds up no reconcile; its answer puts the objects back', async () => {
    const { repo, d, hung } = await closedWhileAsking();
    expect(await hung.arrived).toBe(`GET /repos/acme/workspace/pulls?head=${encodeURIComponent(`acme:${BRANCH}`)}&state=open`);
    expect(await editTheFiles(d, repo)).toMatchObject({ result: 'applied' });
    expect(await liveExpression()).toBe('latency * 10');
    expect(d.lines.some((l) => String(l.msg).startsWith('write-back closed without a merge'))).toBe(false);

    hung.release();
    await d.waitFor((l) => l.msg === 'reconcile' && l.trigger === 'write-back');
    await waitUntil(async () => (await liveExpression()) === 'latency * 2', { what: 'the edit put back' });
    const closed = await d.waitFor((l) => String(l.msg).startsWith('write-back closed without a merge'));
    expect(closed.objects).toEqual(['VirtualField/checkout/doubled']);
    await d.daemon.stop('test over');
  });

  it('the answer "closed" ends only the holds there were when it was asked: a second edit meanwhile goes to a new pull request, held', async () => {
    const { gh, d, hung } = await closedWhileAsking();
    await hung.arrived;

    await editInTheUi('latency * 14');
    await reconcile(d);
    hung.release();
    await waitUntil(() => writtenBack(d).length === 2, { what: 'the second write-back' });
    expect(gh.pulls.map((p) => [p.number, p.state])).toEqual([
      [1, 'closed'],
      [2, 'open'],
    ]);
    expect(d.lines.some((l) => String(l.msg).startsWith('write-back closed without a merge'))).toBe(false);
    await reconcile(d);
    expect(await liveExpression()).toBe('latency * 14');
    await d.daemon.stop('test over');
  });

  it('a stop waits for the write-back in flight: the pull request opens before the daemon says stopped', async () => {
    const { gh, d } = await startWritingBack('all', { policy: { ...DEFAULT_POLICY, mode: 'observe' } });
    const hung = gh.holdNext();
    await editInTheUi('latency * 11');
    await reconcile(d);
    await hung.arrived;

    const stopped = d.daemon.stop('SIGTERM');
    await d.waitFor((l) => l.msg === 'stopping');
    hung.release();
    await stopped;
    const said = d.lines.map((l) => l.msg);
    expect(said.indexOf('written back')).toBeGreaterThan(said.indexOf('stopping'));
    expect(said.indexOf('written back')).toBeLessThan(said.indexOf('stopped'));
    expect(gh.pulls).toEqual([expect.objectContaining({ number: 1, state: 'open' })]);
  });

  it('a stop waits for a hung write-back no longer than CLOSE_WAIT_MS, and says it left it unfinished', async () => {
    const clock = new FakeClock();
    const { gh, d } = await startWritingBack('all', { policy: { ...DEFAULT_POLICY, mode: 'observe' }, clock });
    const hung = gh.holdNext();
    await editInTheUi('latency * 12');
    await reconcile(d);
    await hung.arrived;

    const stopped = d.daemon.stop('SIGTERM');
    await waitUntil(() => clock.pending().includes(CLOSE_WAIT_MS), { what: 'the stop waiting for the write-back' });
    await clock.advance(CLOSE_WAIT_MS);
    await d.waitFor((l) => l.msg === 'stopping with the write-back still running: left unfinished');
    expect(writtenBack(d)).toEqual([]);
    // Its GitHub client closes once the hung call ends (here: answered; else its own timeout).
    hung.release();
    await stopped;
  });
});
