// `wsync ctl approve FINGERPRINT` (#27 item 4): the daemon keeps an approval of exactly the changes
// its last plan holds until a reconcile that writes uses it, or until the held set changes.
import { HELD_FINGERPRINT } from '../core/held-fingerprint.js';
import type { HeldChanges } from '../core/types.js';
import { voidReason } from '../plan/held.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import type { ControlAnswer } from './control.js';

export interface PendingApproval {
  fingerprint: string;
  /** ISO time it was given. */
  at: string;
}

/** What became of the pending approval after a reconcile, for the log. */
export type ApprovalSettled = { used: string } | { dropped: string; why: string } | undefined;

const RECENT = 10;

export class Approvals {
  /** The held changes of the last plan: what an approval must name. */
  private held: HeldChanges | undefined;
  private waiting: PendingApproval | null = null;
  /** The last few held sets, newest first: a refusal names what moved since the one approved. */
  private recent: HeldChanges[] = [];

  get pending(): PendingApproval | null {
    return this.waiting;
  }

  /** The fingerprint of what the last plan holds, if anything. */
  get heldFingerprint(): string | undefined {
    return this.held?.fingerprint;
  }

  /** An approval of `fingerprint` from `wsync ctl approve`: kept when it names what is held now. */
  offer(fingerprint: string, now: Date): ControlAnswer {
    if (!HELD_FINGERPRINT.test(fingerprint)) {
      return { status: 400, body: { error: `"${fingerprint}" is not a held-changes fingerprint (held-XXXXXXXXXXXX-XXXXXXXXXXXX)` } };
    }
    const why = this.held === undefined ? 'nothing is held now' : voidReason(fingerprint, this.held, this.known(fingerprint));
    if (why !== undefined) return { status: 409, body: { error: `${fingerprint} does not approve what is held: ${why}`, held: this.held?.fingerprint ?? null } };
    this.waiting = { fingerprint, at: now.toISOString() };
    return { status: 200, body: { ok: true, action: 'approve', fingerprint, held: this.held?.count ?? 0, changes: this.held?.changes ?? [] } };
  }

  /** The approval a reconcile that writes is made with. */
  forReconcile(writes: boolean): string | undefined {
    return writes ? this.waiting?.fingerprint : undefined;
  }

  /**
   * After a reconcile that made a plan: the approval is used once a write ran with it, dropped when
   * the plan holds other changes, kept otherwise (a reconcile that only planned).
   */
  settle(outcome: ReconcileOutcome | undefined): ApprovalSettled {
    const plan = outcome?.plan;
    if (!plan) return undefined;
    this.held = plan.held;
    if (plan.held !== undefined && this.recent[0]?.fingerprint !== plan.held.fingerprint) {
      this.recent = [plan.held, ...this.recent.filter((h) => h.fingerprint !== plan.held?.fingerprint)].slice(0, RECENT);
    }
    const waiting = this.waiting;
    if (waiting === null) return undefined;
    if (plan.approval?.released === true) {
      if (outcome?.result === undefined) return undefined;
      this.waiting = null;
      return { used: waiting.fingerprint };
    }
    const why = voidReason(waiting.fingerprint, plan.held, this.known(waiting.fingerprint));
    if (why === undefined) return undefined;
    this.waiting = null;
    return { dropped: waiting.fingerprint, why };
  }

  private known(fingerprint: string): HeldChanges | undefined {
    return this.recent.find((h) => h.fingerprint === fingerprint);
  }
}
