// The daemon's write-back (#26.2): drift made in the workspace (not by the files) is written into a
// branch of the synced repository as a commit, pushed, and proposed as one pull request. In enforce
// mode the drift of the held kinds is not put back while that pull request is open: a merge brings
// the change into the files (the hold ends when the object's declaration changes), a close puts
// the files' values back. Three calls from the daemon: settleHolds before a reconcile, adjustPlan
// inside it (pure), afterReconcile after it. Nothing here fails a reconcile: a failure is logged
// and the write-back is tried again at the next one.
import type { ApiClient } from '../api/types.js';
import { changeRef, type Desired, type LiveState, type Plan } from '../core/types.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import { chosen, holdChanges, isInSync, WorkspaceEditWatch, type DriftedObject } from '../reconcile/write-back/drift.js';
import { WriteBackPublisher, type WriteBackSetup } from '../reconcile/write-back/publish.js';
import type { TreeLimits } from '../source/limits.js';
import type { Logger } from './logger.js';

export interface DaemonWriteBackOptions {
  setup: WriteBackSetup;
  /** Enforce mode: drift is put back, except the held kinds' while their pull request is open. */
  enforce: boolean;
  stateDir: string;
  env: Record<string, string | undefined>;
  secretsDir?: string;
  limits?: Partial<TreeLimits>;
  environment?: string;
  log: Logger;
  redact: (text: string) => string;
}

interface Hold {
  /** The object's declaration when the hold began: when it changes, the files speak again. */
  declaration: string;
}

export class DaemonWriteBack {
  private readonly watch: WorkspaceEditWatch;
  private readonly publisher: WriteBackPublisher;
  /** `Kind/key` of the objects not put back, and since which declaration. */
  private readonly held = new Map<string, Hold>();
  /** `Kind/key` -> the drift written back (its fingerprint): not written again until it changes or the object is in sync. */
  private readonly published = new Map<string, string>();
  /** The drift found by the last plan, to write back after its reconcile. */
  private pending: DriftedObject[] = [];

  constructor(private readonly options: DaemonWriteBackOptions) {
    this.watch = new WorkspaceEditWatch(options.setup.kinds);
    this.publisher = new WriteBackPublisher(options.setup, options.redact);
  }

  /** `Kind/key` of the objects held now. */
  heldObjects(): string[] {
    return [...this.held.keys()];
  }

  /**
   * Before a reconcile: ends the holds of a write-back that was closed. With GitHub: no pull request
   * of the branch open and the branch not merged into the base; without: the branch gone from the
   * remote. A merged branch keeps them held until the files the daemon reads have the change.
   */
  async settleHolds(): Promise<void> {
    if (this.held.size === 0) return;
    const { setup, log, redact } = this.options;
    try {
      const state = await this.publisher.branchState();
      const github = setup.github;
      const open = github === undefined ? undefined : await github.client.findOpenPullRequest(github.repository, setup.branch);
      const closed = github === undefined ? state === 'absent' : open === undefined && state !== 'merged';
      if (!closed) return;
      log.info({ branch: setup.branch, objects: this.heldObjects().map(redact) }, "write-back closed without a merge: its objects are put back to the files' values");
      this.held.clear();
    } catch (err) {
      log.warn({ branch: setup.branch, err: redact(errorText(err)) }, 'could not tell whether the write-back was merged or closed: its objects stay held');
    }
  }

  /** The reconcile's plan hook: finds the workspace's edits to write back; in enforce mode, holds those of the held kinds. */
  adjustPlan(plan: Plan, desired: Desired, live: LiveState): Plan {
    const drifted = this.watch.observe(plan, desired, live);
    for (const change of plan.changes) if (isInSync(change)) this.published.delete(changeRef(change.kind, change.key));
    for (const [ref, hold] of this.held) if (this.watch.declarationOf(ref) !== hold.declaration) this.held.delete(ref);
    this.pending = drifted.filter((d) => this.published.get(changeRef(d.kind, d.key)) !== d.fingerprint);
    if (!this.options.enforce) return plan;
    for (const d of this.pending) if (chosen(this.options.setup.hold, d.kind)) this.held.set(changeRef(d.kind, d.key), { declaration: d.declaration });
    const why = `changed in the workspace and written back to branch ${this.options.setup.branch}: not put back until its pull request is merged or closed`;
    return holdChanges(plan, new Map(this.heldObjects().map((ref) => [ref, why])));
  }

  /** After a reconcile: the drift its plan found written back (commit, push, pull request). */
  async afterReconcile(outcome: ReconcileOutcome | undefined, client: ApiClient): Promise<void> {
    const objects = this.pending;
    this.pending = [];
    if (objects.length === 0 || outcome?.live === undefined) return;
    const { setup, log, redact } = this.options;
    const refs = objects.map((o) => redact(changeRef(o.kind, o.key)));
    try {
      const done = await this.publisher.publish(objects, {
        live: outcome.live,
        client,
        stateDir: this.options.stateDir,
        env: this.options.env,
        ...(this.options.secretsDir === undefined ? {} : { secretsDir: this.options.secretsDir }),
        ...(this.options.limits === undefined ? {} : { limits: this.options.limits }),
        ...(this.options.environment === undefined ? {} : { environment: this.options.environment }),
        holding: this.options.enforce && objects.some((o) => chosen(setup.hold, o.kind)),
        redact,
        warn: (message) => log.warn({ branch: setup.branch }, redact(message)),
      });
      for (const o of objects) this.published.set(changeRef(o.kind, o.key), o.fingerprint);
      // Nothing of an object could be written (a secret, a value from a variable, a conflict): no pull request holds it, so it is put back.
      for (const ref of done.onlyReported) this.held.delete(ref);
      if (done.notWritten.length > 0) log.warn({ branch: setup.branch, not_written: done.notWritten.map(redact) }, 'write-back: some differences were not written into the files');
      log.info(
        { branch: setup.branch, objects: refs, commit: done.commit ?? null, push_attempts: done.pushAttempts, pull_request: done.pullRequest?.htmlUrl ?? null },
        done.commit !== undefined ? 'written back' : done.pulled.length === 0 ? 'write-back: nothing could be written into the files' : 'write-back: the branch already holds these changes',
      );
    } catch (err) {
      log.error({ branch: setup.branch, objects: refs, err: redact(errorText(err)) }, 'write-back failed: tried again at the next reconcile');
    }
  }

  close(): Promise<void> {
    return this.options.setup.close();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
