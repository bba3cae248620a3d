// The daemon's marks of what it applied (#26.3): after a reconcile that wrote, an annotation on the
// datasets written; after each reconcile in enforce mode, the revision's commit status when it
// changed (a resync every 5 minutes would otherwise post the same status again and again: GitHub
// keeps only so many per commit and context). Never a reason for a reconcile to fail or retry.
// They are made in the background, after the reconcile (#28): a slow GitHub or Workspace API never
// delays the next edit. One at a time, in the reconciles' order: a later status on a commit
// replaces an earlier one, so revision N's must not land after N+1's.
import type { ApiClient } from '../api/types.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import {
  appliedRevision,
  markRevision,
  revisionStatus,
  touchedDatasets,
  type AppliedRevision,
  type MarkedOutcome,
  type MarkSetup,
  type RevisionMarks,
} from '../reconcile/revision-marks.js';
import type { Clock } from './clock.js';
import { CLOSE_WAIT_MS, finishedBeforeStop } from './lane.js';
import type { Logger } from './logger.js';
import type { Snapshot } from './snapshot.js';

export interface RevisionMarkerOptions {
  setup: MarkSetup;
  log: Logger;
  redact: (text: string) => string;
  /** The daemon's API client when the mark is made (SIGHUP replaces it and closes the old one). */
  client: () => ApiClient;
  /** Times a stop's wait (tests: a FakeClock). */
  clock: Clock;
}

/** A reconcile to mark: what it did, and the revision it read (resolved when it was queued). */
interface QueuedMark {
  outcome: MarkedOutcome;
  datasets: string[];
  revision: Promise<AppliedRevision>;
  name: string | null;
}

export class RevisionMarker {
  /** `commit state description` of the last status set: not set again while it holds. */
  private lastStatus: string | undefined;
  /** The last warning logged: a reconcile every 5 minutes does not repeat one that still holds. */
  private lastWarning: string | undefined;
  /** The marks queued and in flight, made one after the other. */
  private lane: Promise<void> = Promise.resolve();

  constructor(private readonly options: RevisionMarkerOptions) {}

  /**
   * Queues the marks of a reconcile of `snap` (HEAD of its work tree, else the git-sync worktree's
   * name). Its revision is read now, before the files can move on; the live and desired state are
   * not kept.
   */
  queue(outcome: ReconcileOutcome, snap: Snapshot): void {
    const revision = appliedRevision(snap.target, undefined, snap.revision);
    // Awaited by the lane; a failure there is its to log, not an unhandled rejection meanwhile.
    revision.catch(() => undefined);
    const mark: QueuedMark = { outcome: { status: outcome.status, result: outcome.result, plan: outcome.plan }, datasets: this.options.setup.marks.annotate ? touchedDatasets(outcome) : [], revision, name: snap.revision };
    this.lane = this.lane.then(() => this.mark(mark));
  }

  private async mark(queued: QueuedMark): Promise<void> {
    const { log, redact } = this.options;
    try {
      const revision = await queued.revision;
      const status = revisionStatus(queued.outcome);
      const statusKey = status && revision.commit && !revision.dirty ? `${revision.commit} ${status.state} ${status.description}` : undefined;
      const marks: RevisionMarks = { ...this.options.setup.marks };
      if (statusKey !== undefined && statusKey === this.lastStatus) delete marks.commitStatus;
      const made = await markRevision({
        outcome: queued.outcome,
        datasets: queued.datasets,
        revision,
        marks,
        client: this.options.client(),
        now: new Date(),
        warn: (message) => {
          if (message !== this.lastWarning) log.warn({ revision: queued.name }, redact(message));
          this.lastWarning = message;
        },
      });
      if (made.annotation !== undefined || made.status !== undefined) this.lastWarning = undefined;
      if (made.status !== undefined) this.lastStatus = statusKey;
      if (made.annotation !== undefined || made.status !== undefined) {
        log.info({ revision: queued.name, commit: revision.commit, annotation: made.annotation, commit_status: made.status }, 'revision marked');
      }
    } catch (err) {
      log.warn({ revision: queued.name, err: redact(err instanceof Error ? err.message : String(err)) }, 'could not mark the revision applied (the apply stands)');
    }
  }

  /** The GitHub token, for the daemon's redactor. */
  secrets(): string[] {
    return this.options.setup.secrets();
  }

  /** Waits (bounded) for the marks queued; then closes the GitHub client. Before the API client closes: a mark uses it. */
  async close(): Promise<void> {
    if (!(await finishedBeforeStop(this.lane, this.options.clock))) {
      this.options.log.warn({ waited_ms: CLOSE_WAIT_MS }, 'stopping with revision marks still being made: left unfinished');
    }
    await this.options.setup.close();
  }
}
