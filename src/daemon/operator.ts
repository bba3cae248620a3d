import { safeMessage } from '../core/safe-text.js';
import type { ReconcileOutcome } from '../reconcile/index.js';
import { Approvals, type ApprovalSettled } from './approvals.js';
import type { ControlAction, ControlAnswer, ControlRequestOptions } from './control.js';
import type { FreezeGate } from './freeze-gate.js';
import type { Logger } from './logger.js';
import type { DaemonMetrics } from './metrics.js';
import type { DaemonStatus } from './status.js';

export interface OperatorOptions {
  status: DaemonStatus;
  metrics: DaemonMetrics;
  log: Logger;
  freeze: FreezeGate;
  /** Asks for a reconcile (the control trigger). */
  request: () => void;
  /** The daemon is stopping: nothing more is requested. */
  stopping: () => boolean;
  redact: (text: string) => string;
}

/**
 * What people decide for the daemon and it keeps between reconciles: suspended or not (wsync ctl
 * suspend, resume), a reconcile asked for (and a freeze overridden for it), an approval of held
 * changes (wsync ctl approve), and whether the freeze windows let a reconcile write.
 */
export class OperatorControls {
  private readonly approvals = new Approvals();

  constructor(private readonly options: OperatorOptions) {}

  setSuspended(on: boolean): void {
    const { status, metrics } = this.options;
    status.suspendedSince = on ? (status.suspendedSince ?? new Date().toISOString()) : null;
    metrics.suspended.set(on ? 1 : 0);
  }

  /** An authorised control request; returns the answer's body. */
  control(action: ControlAction, options: ControlRequestOptions = {}): Record<string, unknown> {
    const { status, log } = this.options;
    const stopping = this.options.stopping();
    if (action === 'suspend') {
      const already = status.suspendedSince !== null;
      this.setSuspended(true);
      if (!already) log.warn('suspended: reconciles plan and report drift, nothing is written until resumed');
    } else if (action === 'resume') {
      const was = status.suspendedSince !== null;
      this.setSuspended(false);
      if (was) log.info('resumed: reconciling now');
      if (was && !stopping) this.options.request();
    } else if (!stopping) {
      if (options.overrideFreeze === true) this.options.freeze.overrideNext();
      log.info({ override_freeze: options.overrideFreeze === true || undefined }, 'reconcile requested');
      this.options.request();
    }
    const overrideFreeze = action === 'reconcile' && options.overrideFreeze === true ? { overrideFreeze: true } : {};
    return { ok: true, action, suspended: status.suspendedSince !== null, suspendedSince: status.suspendedSince, ...overrideFreeze };
  }

  /** `wsync ctl approve FINGERPRINT`: kept when it names what is held now, and a reconcile that writes is requested. */
  approve(fingerprint: string): ControlAnswer {
    const { status, log } = this.options;
    const answer = this.approvals.offer(fingerprint, new Date());
    status.approval = this.approvals.pending;
    if (answer.status !== 200) {
      log.warn({ fingerprint: safeMessage(fingerprint), error: answer.body.error }, 'approval refused');
      return answer;
    }
    log.info({ fingerprint }, 'approval given: the next reconcile that writes applies exactly the held changes');
    if (!this.options.stopping()) this.options.request();
    return answer;
  }

  /** The approval a reconcile that writes (or not) is made with. */
  approvalFor(write: boolean): string | undefined {
    return this.approvals.forReconcile(write);
  }

  /** Whether freeze windows let this reconcile write (it plans and reports otherwise). */
  admitWrites(record: { frozen?: boolean }): boolean {
    const decision = this.options.freeze.admit();
    if (decision.write && decision.overridden !== undefined) {
      const { window, until } = decision.overridden;
      this.options.log.warn({ window, until: new Date(until).toISOString() }, 'freeze overridden (wsync ctl reconcile --override-freeze): this reconcile writes');
    }
    if (!decision.write) record.frozen = true;
    return decision.write;
  }

  /** Logs what became of the pending approval, and shows it. */
  settleApproval(outcome: ReconcileOutcome | undefined): void {
    const { status, log } = this.options;
    const settled: ApprovalSettled = this.approvals.settle(outcome);
    status.approval = this.approvals.pending;
    status.heldFingerprint = this.approvals.heldFingerprint;
    if (settled === undefined) return;
    if ('used' in settled) log.info({ fingerprint: settled.used }, 'approval used: the approved held changes were applied');
    else log.warn({ fingerprint: settled.dropped, why: this.options.redact(settled.why) }, 'approval dropped: the plan holds other changes now');
  }
}
