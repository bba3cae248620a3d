// The daemon's write-back (#26.2): drift made in the workspace (not by the files) is written into a
// branch of the synced repository as a commit, pushed, and proposed as one pull request. In enforce
// mode the drift of the held kinds is not put back while that pull request is open: a merge brings
// the change into the files (the hold ends when the object's declaration changes), a close puts
// the files' values back. The reconcile only calls adjustPlan (pure, inside it) and afterReconcile
// (synchronous, after it): the git and GitHub work runs in the background, one step at a time, off
// the reconcile's path (#28), so a slow remote never delays an edit's write. Nothing here fails a
// reconcile: a failure is logged and the write-back is tried again after the next one.
import { treeSettingsOf, type TreeSettings } from '../source/tree-settings.js';
import type { ApiClient } from '../api/types.js';
import { changeRef, type Desired, type LiveState, type Plan } from '../core/types.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import { chosen, holdChanges, isInSync, WorkspaceEditWatch, type DriftedObject } from '../reconcile/write-back/drift.js';
import { WriteBackPublisher, type WriteBackSetup } from '../reconcile/write-back/publish.js';
import type { Clock, TimerHandle } from './clock.js';
import { CLOSE_WAIT_MS, finishedBeforeStop } from './lane.js';
import type { Logger } from './logger.js';

/** How often, while objects are held, the daemon asks whether the write-back was merged or closed. */
export const HOLD_CHECK_EVERY_MS = 30_000;
export { CLOSE_WAIT_MS };

export interface DaemonWriteBackOptions extends TreeSettings {
  setup: WriteBackSetup;
  /** Enforce mode: drift is put back, except the held kinds' while their pull request is open. */
  enforce: boolean;
  stateDir: string;
  log: Logger;
  redact: (text: string) => string;
  /** The daemon's API client now (SIGHUP replaces it). */
  client: () => ApiClient;
  /** The daemon's clock: the merged-or-closed question and a stop's wait are timed by it (tests: a FakeClock). */
  clock: Clock;
  /** Asks the daemon for a reconcile: holds were released, their objects are to be put back. */
  requestReconcile: () => void;
}

interface Hold {
  /** The object's declaration when the hold began: when it changes, the files speak again. */
  declaration: string;
}

/**
 * One background lane runs the write-back's git and GitHub work, a step at a time (the checkout is
 * one working tree): a publish of the drift queued by the reconciles (what they find meanwhile
 * waits for the next publish, merged into one), or the merged-or-closed question, asked at most
 * once per interval while objects are held. Every change to what is held happens in one
 * synchronous stretch, so a reconcile's plan hook sees either the state before or after it.
 */
export class DaemonWriteBack {
  private readonly watch: WorkspaceEditWatch;
  private readonly publisher: WriteBackPublisher;
  /** `Kind/key` of the objects not put back, and since which declaration. */
  private readonly held = new Map<string, Hold>();
  /** `Kind/key` -> the drift written back (its fingerprint): not written again until it changes or the object is in sync. */
  private readonly published = new Map<string, string>();
  /** `Kind/key` -> the drift the publish in flight writes back (its fingerprint). */
  private readonly publishing = new Map<string, string>();
  /** The drift waiting for the next publish, and the live state of the latest reconcile that queued some. */
  private readonly queued = new Map<string, DriftedObject>();
  private live: LiveState | null = null;
  /** The drift found by the plan of the reconcile running now, queued when it ends. */
  private found: DriftedObject[] = [];
  private lane: Promise<void> | null = null;
  private checkTimer: TimerHandle | null = null;
  private checkDue = false;
  private closed = false;

  constructor(private readonly options: DaemonWriteBackOptions) {
    this.watch = new WorkspaceEditWatch(options.setup.kinds);
    this.publisher = new WriteBackPublisher(options.setup, options.redact);
  }

  /** `Kind/key` of the objects held now. */
  heldObjects(): string[] {
    return [...this.held.keys()];
  }

  /** The reconcile's plan hook: finds the workspace's edits to write back; in enforce mode, holds those of the held kinds. */
  adjustPlan(plan: Plan, desired: Desired, live: LiveState): Plan {
    const drifted = this.watch.observe(plan, desired, live);
    for (const change of plan.changes) {
      if (!isInSync(change)) continue;
      const ref = changeRef(change.kind, change.key);
      this.published.delete(ref);
      this.publishing.delete(ref);
      this.queued.delete(ref);
    }
    for (const [ref, hold] of this.held) if (this.watch.declarationOf(ref) !== hold.declaration) this.held.delete(ref);
    for (const [ref, d] of this.queued) if (this.watch.declarationOf(ref) !== d.declaration) this.queued.delete(ref);
    this.found = drifted.filter((d) => {
      const ref = changeRef(d.kind, d.key);
      return this.published.get(ref) !== d.fingerprint && this.publishing.get(ref) !== d.fingerprint;
    });
    if (!this.options.enforce) return plan;
    for (const d of this.found) if (chosen(this.options.setup.hold, d.kind)) this.held.set(changeRef(d.kind, d.key), { declaration: d.declaration });
    this.armCheck();
    const why = `changed in the workspace and written back to branch ${this.options.setup.branch}: not put back until its pull request is merged or closed`;
    return holdChanges(plan, new Map(this.heldObjects().map((ref) => [ref, why])));
  }

  /** After a reconcile: the drift its plan found is queued, and written back in the background. */
  afterReconcile(outcome: ReconcileOutcome | undefined): void {
    const found = this.found;
    this.found = [];
    if (found.length === 0 || outcome?.live === undefined) return;
    for (const d of found) this.queued.set(changeRef(d.kind, d.key), d);
    this.live = outcome.live;
    this.kick();
  }

  /** Stops asking, and waits (bounded) for the publish in flight and the one queued behind it. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.checkTimer !== null) this.options.clock.clearTimeout(this.checkTimer);
    this.checkTimer = null;
    if (this.lane !== null && !(await finishedBeforeStop(this.lane, this.options.clock))) {
      this.options.log.warn({ branch: this.options.setup.branch, waited_ms: CLOSE_WAIT_MS }, 'stopping with the write-back still running: left unfinished');
    }
    await this.options.setup.close();
  }

  /** Starts the lane when there is work and it is idle; after a stop only the publishes left. */
  private kick(): void {
    if (this.lane !== null) return;
    if (this.queued.size === 0 && (!this.checkDue || this.closed)) return;
    this.lane = this.drain().finally(() => {
      this.lane = null;
      this.armCheck();
      this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (;;) {
      const live = this.live;
      if (this.queued.size > 0 && live !== null) {
        await this.publishQueued(live);
      } else if (this.checkDue && !this.closed) {
        this.checkDue = false;
        await this.settleHolds();
      } else {
        return;
      }
    }
  }

  private armCheck(): void {
    if (this.closed || this.checkTimer !== null || this.held.size === 0) return;
    this.checkTimer = this.options.clock.setTimeout(() => {
      this.checkTimer = null;
      this.checkDue = true;
      this.kick();
    }, HOLD_CHECK_EVERY_MS);
  }

  /**
   * Ends the holds of a write-back that was closed. With GitHub: no pull request of the branch open
   * and the branch not merged into the base; without: the branch gone from the remote. A merged
   * branch keeps them held until the files the daemon reads have the change. Only the holds there
   * were when it asked end: one begun meanwhile belongs to a write-back still to come.
   */
  private async settleHolds(): Promise<void> {
    if (this.held.size === 0) return;
    const asked = new Map(this.held);
    const { setup, log, redact } = this.options;
    try {
      const state = await this.publisher.branchState();
      const github = setup.github;
      const open = github === undefined ? undefined : await github.client.findOpenPullRequest(github.repository, setup.branch);
      const closed = github === undefined ? state === 'absent' : open === undefined && state !== 'merged';
      if (!closed) return;
      const released = [...asked].filter(([ref, hold]) => this.held.get(ref) === hold).map(([ref]) => ref);
      for (const ref of released) this.held.delete(ref);
      if (released.length === 0) return;
      log.info({ branch: setup.branch, objects: released.map(redact) }, "write-back closed without a merge: its objects are put back to the files' values");
      this.options.requestReconcile();
    } catch (err) {
      log.warn({ branch: setup.branch, err: redact(errorText(err)) }, 'could not tell whether the write-back was merged or closed: its objects stay held');
    }
  }

  /** The queued drift written back (commit, push, pull request) against the latest live state. */
  private async publishQueued(live: LiveState): Promise<void> {
    const objects = [...this.queued.values()];
    this.queued.clear();
    // Not kept past its publish: a whole workspace's live state is large.
    this.live = null;
    for (const o of objects) this.publishing.set(changeRef(o.kind, o.key), o.fingerprint);
    const { setup, log, redact } = this.options;
    const refs = objects.map((o) => redact(changeRef(o.kind, o.key)));
    try {
      const done = await this.publisher.publish(objects, {
        live,
        client: this.options.client(),
        stateDir: this.options.stateDir,
        ...treeSettingsOf(this.options),
        holding: this.options.enforce && objects.some((o) => chosen(setup.hold, o.kind)),
        redact,
        warn: (message) => log.warn({ branch: setup.branch }, redact(message)),
      });
      // An object found in sync meanwhile (its publishing entry gone) is written again if it drifts again.
      for (const o of objects) if (this.publishing.get(changeRef(o.kind, o.key)) === o.fingerprint) this.published.set(changeRef(o.kind, o.key), o.fingerprint);
      // Nothing of an object could be written (a secret, a value from a variable, a conflict): no pull request holds it, so it is put back.
      const released = done.onlyReported.filter((ref) => this.held.delete(ref));
      if (done.notWritten.length > 0) log.warn({ branch: setup.branch, not_written: done.notWritten.map(redact) }, 'write-back: some differences were not written into the files');
      log.info(
        { branch: setup.branch, objects: refs, commit: done.commit ?? null, push_attempts: done.pushAttempts, pull_request: done.pullRequest?.htmlUrl ?? null },
        done.commit !== undefined ? 'written back' : done.pulled.length === 0 ? 'write-back: nothing could be written into the files' : 'write-back: the branch already holds these changes',
      );
      if (released.length > 0 && !this.closed) this.options.requestReconcile();
    } catch (err) {
      log.error({ branch: setup.branch, objects: refs, err: redact(errorText(err)) }, 'write-back failed: tried again at the next reconcile');
    } finally {
      for (const o of objects) if (this.publishing.get(changeRef(o.kind, o.key)) === o.fingerprint) this.publishing.delete(changeRef(o.kind, o.key));
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
