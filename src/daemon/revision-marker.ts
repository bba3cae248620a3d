// The daemon's marks of what it applied (#26.3): after a reconcile that wrote, an annotation on the
// datasets written; after each reconcile in enforce mode, the revision's commit status when it
// changed (a resync every 5 minutes would otherwise post the same status again and again: GitHub
// keeps only so many per commit and context). Never a reason for a reconcile to fail or retry.
import type { ApiClient } from '../api/types.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import { appliedRevision, markRevision, revisionStatus, type MarkSetup, type RevisionMarks } from '../reconcile/revision-marks.js';
import type { Logger } from './logger.js';
import type { Snapshot } from './snapshot.js';

export class RevisionMarker {
  /** `commit state description` of the last status set: not set again while it holds. */
  private lastStatus: string | undefined;
  /** The last warning logged: a reconcile every 5 minutes does not repeat one that still holds. */
  private lastWarning: string | undefined;

  constructor(
    private readonly setup: MarkSetup,
    private readonly log: Logger,
    private readonly redact: (text: string) => string,
  ) {}

  /** Marks the revision `snap` names (HEAD of its work tree, else the git-sync worktree's name). */
  async mark(outcome: ReconcileOutcome, snap: Snapshot, client: ApiClient): Promise<void> {
    const revision = await appliedRevision(snap.target, undefined, snap.revision);
    const status = revisionStatus(outcome);
    const statusKey = status && revision.commit && !revision.dirty ? `${revision.commit} ${status.state} ${status.description}` : undefined;
    const marks: RevisionMarks = { ...this.setup.marks };
    if (statusKey !== undefined && statusKey === this.lastStatus) delete marks.commitStatus;
    const made = await markRevision({
      outcome,
      revision,
      marks,
      client,
      now: new Date(),
      warn: (message) => {
        if (message !== this.lastWarning) this.log.warn({ revision: snap.revision }, this.redact(message));
        this.lastWarning = message;
      },
    });
    if (made.annotation !== undefined || made.status !== undefined) this.lastWarning = undefined;
    if (made.status !== undefined) this.lastStatus = statusKey;
    if (made.annotation !== undefined || made.status !== undefined) {
      this.log.info({ revision: snap.revision, commit: revision.commit, annotation: made.annotation, commit_status: made.status }, 'revision marked');
    }
  }

  /** The GitHub token, for the daemon's redactor. */
  secrets(): string[] {
    return this.setup.secrets();
  }

  close(): Promise<void> {
    return this.setup.close();
  }
}
