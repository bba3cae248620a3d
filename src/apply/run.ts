// One apply run: the changes of a plan, scheduled level by level, each carried out and reported;
// then the deferred references, the deletes, and the inventory brought up to date.
import { ByKind } from '../core/by-kind.js';
import { isWriteAction, type Change, type DesiredResource, type KindName } from '../core/types.js';
import { ChangeActions, SkipChange } from './change-actions.js';
import { DeferredReferences } from './deferred-references.js';
import { InventoryRecords } from './inventory-records.js';
import { IssuedSecrets } from './issued-secrets.js';
import { KeyIdIndex } from './key-id-index.js';
import { ApplyReport } from './report.js';
import { Schedule } from './schedule.js';
import type { ApplyEvent, ApplyInput, ApplyOutcome, ApplyResult, Done } from './types.js';
import { messageOf, WriteChannel } from './writes.js';

export class ApplyRun {
  private readonly report: ApplyReport;
  private readonly index: KeyIdIndex;
  private readonly channel: WriteChannel;
  private readonly records: InventoryRecords;
  private readonly deferred: DeferredReferences;
  private readonly actions: ChangeActions;
  private aborted = false;

  constructor(private readonly input: ApplyInput & { tokenOutputDir: string }) {
    const byKey = new ByKind<DesiredResource>();
    for (const resource of input.desired.resources) byKey.set(resource.kind, resource.key, resource);
    const declared = (kind: KindName, key: string): DesiredResource | undefined => byKey.get(kind, key);
    this.report = new ApplyReport(input.desired.secretValues, input.onChange);
    this.index = new KeyIdIndex(input.desired, input.live, input.memo);
    // A rename in place keeps the id: references to the new name resolve to it from the start.
    for (const change of input.plan.changes) if (change.renamedFrom !== undefined && change.id !== undefined) this.index.set(change.kind, change.key, change.id);
    this.channel = new WriteChannel(input.client, this.index, input.state.inventory.hashKey);
    this.records = new InventoryRecords(input.state, declared);
    this.deferred = new DeferredReferences(this.channel);
    const secrets = new IssuedSecrets(this.channel, this.records, this.report, input.tokenOutputDir, input.onIssueStep);
    this.actions = new ChangeActions(this.channel, this.records, this.deferred, secrets, (change) => declared(change.kind, change.key));
  }

  async execute(): Promise<ApplyResult> {
    const started = performance.now();
    const { plan, concurrency } = this.input;
    const actionable = plan.changes.filter((c) => isWriteAction(c.action));
    const schedule = new Schedule(actionable, concurrency);
    const run = (change: Change): Promise<void> => this.run(change, schedule);

    await schedule.runLevels(actionable.filter((c) => c.action !== 'delete'), 'ascending', run);
    await this.deferred.complete({ schedule, concurrency, report: this.report, stopped: () => this.stopped() });
    await schedule.runLevels(actionable.filter((c) => c.action === 'delete'), 'descending', run);
    await this.records.dropVanished(this.input.live, this.index.liveObjects);
    await this.records.recordTrustedSecrets();
    await this.input.state.flush();

    const { counts } = this.report;
    return {
      ...counts,
      // What the plan already skipped (observe mode, fields the API cannot change) counts too: apply
      // and plan tell the same number.
      skipped: counts.skipped + plan.changes.filter((c) => c.action === 'skipped').length,
      unchanged: plan.changes.filter((c) => c.action === 'noop').length,
      writes: this.channel.writes,
      durationMs: performance.now() - started,
      aborted: this.aborted,
      events: this.report.events,
    };
  }

  /** The signal stopped the run: writes in flight finish, no new one starts. */
  private stopped(): boolean {
    if (this.input.signal?.aborted) this.aborted = true;
    return this.aborted;
  }

  private async run(change: Change, schedule: Schedule): Promise<void> {
    const finish = (outcome: ApplyOutcome, durationMs: number, done: Done = {}): void => {
      const event: ApplyEvent = { kind: change.kind, key: change.key, action: change.action, outcome, durationMs };
      const id = done.id ?? change.id;
      if (id !== undefined) event.id = id;
      if (done.message !== undefined) event.message = done.message;
      if (done.stale) event.stale = true;
      if (done.versions !== undefined) event.versions = done.versions;
      this.report.changeFinished(event);
      schedule.settle(change, outcome);
    };

    const blocked = await schedule.waitForDependencies(change);
    if (blocked) return finish(blocked.outcome, 0, { message: blocked.message });
    if (this.stopped()) return finish('skipped', 0, { message: 'not started: apply was stopped' });
    // The client found the server gone: no new write starts (each would fail at once anyway).
    const unreachable = this.input.client.unreachable;
    if (unreachable !== undefined) return finish('skipped', 0, { message: `not attempted: ${unreachable}; nothing was sent` });

    const started = performance.now();
    try {
      const done = await this.actions.perform(change);
      finish('done', performance.now() - started, done);
    } catch (err) {
      const skipped = err instanceof SkipChange;
      finish(skipped ? 'skipped' : 'failed', performance.now() - started, { message: messageOf(err), ...(skipped && err.stale ? { stale: true } : {}) });
    }
  }
}
