// The effectful part of a write-back (#26.2): the drifted objects pulled into the write-back
// branch's checkout (`wsync pull`'s planner and writer, narrowed to them, against the live state the
// reconcile read), committed, pushed (a push rejected because the branch moved on is tried again
// on the refreshed branch), and one pull request opened or updated when GitHub is configured.
import { treeSettingsOf, type TreeSettings } from '../../source/tree-settings.js';
import { join } from 'node:path';
import type { GitHubClient, PullRequest, Repository } from '../../api/github.js';
import type { ApiClient } from '../../api/types.js';
import type { KindName, LiveState } from '../../core/types.js';
import { runPull } from '../../pull/run.js';
import { GitCheckout, GitError, type BranchState } from '../../state/git-checkout.js';
import type { DriftedObject, KindChoice } from './drift.js';
import { commitMessage, pullRequestBody, PULL_REQUEST_TITLE } from './message.js';

/** How many times a push rejected as non-fast-forward is tried again on the refreshed branch. */
export const PUSH_ATTEMPTS = 3;

export interface WriteBackSetup {
  /** The kinds written back (observe mode: the drift of these kinds; enforce mode: these kinds' drift, before it is put back). */
  kinds: KindChoice;
  /** Enforce mode: the kinds whose drift is not put back until the write-back's pull request is merged or closed. */
  hold: KindChoice;
  /** The checkout of the write-back branch (a clone of its own, never the directory the daemon reads). */
  checkoutDir: string;
  /** The git remote the branch is pushed to (the synced repository). */
  remote: string;
  branch: string;
  /** The branch the daemon syncs from: the branch starts there, and the pull request targets it. */
  base: string;
  /** DIR's folder inside the repository ('' for its root). */
  path: string;
  author: { name: string; email: string };
  /** Open or update a pull request (a GitHub token is configured); without: commit and push only. */
  github?: { client: GitHubClient; repository: Repository };
  /** The GitHub token and any credential of the remote's URL, for the daemon's redactor. */
  secrets: () => string[];
  close(): Promise<void>;
}

/** The tree settings are the daemon's: the environment it syncs (--env) gets the changes in its overlays and variables. */
export interface PublishContext extends TreeSettings {
  live: LiveState;
  client: ApiClient;
  stateDir: string;
  /** Whether the pull request is to say that the objects are held (enforce mode). */
  holding: boolean;
  redact: (text: string) => string;
  warn: (message: string) => void;
}

export interface Published {
  /** The commit made, or undefined when the branch already said what the workspace holds. */
  commit?: string;
  pushAttempts: number;
  /** The objects whose fields were written. */
  pulled: { kind: KindName; key: string; fields: string[] }[];
  /** What pull reported and did not write (a secret, a conflict, ...): `Kind/key field: why`. */
  notWritten: string[];
  /** `Kind/key` of the objects of which nothing could be written, only reported. */
  onlyReported: string[];
  pullRequest?: PullRequest;
}

export class WriteBackPublisher {
  private readonly git: GitCheckout;

  constructor(
    private readonly setup: WriteBackSetup,
    redact: (text: string) => string,
  ) {
    this.git = new GitCheckout({ dir: setup.checkoutDir, remote: setup.remote, author: setup.author, redact });
  }

  /** Fetches, and tells where the branch stands on the remote: gone, merged into the base, or ahead of it. */
  async branchState(): Promise<BranchState> {
    await this.git.fetch();
    return this.git.branchState(this.setup.branch, this.setup.base);
  }

  async publish(objects: readonly DriftedObject[], context: PublishContext): Promise<Published> {
    const { branch, base } = this.setup;
    for (let attempt = 1; ; attempt++) {
      await this.git.fetch();
      await this.git.checkoutBranch(branch, base);
      const pulled = await this.pullInto(objects, context);
      const made = pulled.pulled.length > 0 && (await this.git.commitAll(commitMessage(pulled.pulled, objects)));
      // Nothing new (the branch has it already, say its push went through and GitHub did not): the pull request still.
      if (!made) return { pushAttempts: attempt - 1, ...pulled, ...(await this.pullRequest(context)) };
      const commit = await this.git.headCommit();
      const pushed = await this.git.push(branch);
      if (pushed === 'pushed') return { commit, pushAttempts: attempt, ...pulled, ...(await this.pullRequest(context)) };
      if (attempt >= PUSH_ATTEMPTS) throw new GitError(`the push of ${branch} was rejected ${attempt} times: the branch keeps moving on the remote; tried again at the next reconcile`);
      context.warn(`the push of ${branch} was rejected (the branch moved on the remote): writing back again on the refreshed branch`);
    }
  }

  private async pullInto(objects: readonly DriftedObject[], context: PublishContext): Promise<Pick<Published, 'pulled' | 'notWritten' | 'onlyReported'>> {
    const dir = join(this.setup.checkoutDir, this.setup.path);
    const outcome = await runPull({
      dir,
      client: context.client,
      stateDir: context.stateDir,
      ...treeSettingsOf(context),
      selection: { kinds: [], targets: objects.map((o) => ({ kind: o.kind, name: o.key, text: `${o.kind}/${o.key}` })) },
      live: context.live,
      // The branch's own commits are earlier write-backs, not edits waiting to be applied: what it holds is the base.
      base: 'HEAD',
      prune: false,
      dryRun: false,
      force: false,
      warn: context.warn,
    });
    if (outcome.status === 'invalid' || outcome.status === 'unpullable') {
      const first = outcome.diagnostics.find((d) => d.severity === 'error');
      throw new GitError(`the ${this.setup.branch} branch's files ${outcome.status === 'invalid' ? 'do not validate' : 'would not validate after the pull'}${first ? `: ${first.file}:${first.line}: ${first.message}` : ''}`);
    }
    if (outcome.status === 'dirty') throw new GitError(`the checkout of ${this.setup.branch} has uncommitted changes: ${outcome.files.join(', ')}`);
    const notWritten = outcome.plan.reports.map((r) => `${r.kind}/${r.key}${r.field === undefined ? '' : ` ${r.field}`}: ${r.message}`);
    const pulled = new Set(outcome.plan.pulled.map((p) => `${p.kind}/${p.key}`));
    const onlyReported = [...new Set(outcome.plan.reports.map((r) => `${r.kind}/${r.key}`))].filter((ref) => !pulled.has(ref));
    return { pulled: outcome.plan.pulled, notWritten, onlyReported };
  }

  /** Opens the branch's pull request, or updates the open one's body; nothing without GitHub. */
  private async pullRequest(context: PublishContext): Promise<{ pullRequest?: PullRequest }> {
    const github = this.setup.github;
    if (github === undefined) return {};
    const { branch, base } = this.setup;
    if ((await this.git.branchState(branch, base)) !== 'ahead') return {};
    const body = pullRequestBody(await this.git.messagesSince(`refs/remotes/origin/${base}`), context.holding);
    const open = await github.client.findOpenPullRequest(github.repository, branch);
    if (open !== undefined) return { pullRequest: await github.client.updatePullRequest(github.repository, open.number, { body }) };
    return { pullRequest: await github.client.createPullRequest(github.repository, { title: PULL_REQUEST_TITLE, head: branch, base, body }) };
  }
}
