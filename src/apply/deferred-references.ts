// References that may point at objects created later in the same run (Role members -> Users,
// while Users need their Roles first): the first write leaves the unresolved names out, and the
// object is written once more after every other write, when the targets exist.
import { getAt } from '../core/json-paths.js';
import type { Change, DesiredResource } from '../core/types.js';
import { asStringArray } from '../kinds/common.js';
import { KINDS } from '../kinds/index.js';
import type { KindModule, Reference } from '../kinds/types.js';
import type { ApplyReport } from './report.js';
import { runBounded, type Schedule } from './schedule.js';
import type { ApplyEvent } from './types.js';
import { messageOf, type WriteChannel } from './writes.js';

interface Deferred {
  change: Change;
  resource: DesiredResource;
  /** The object's id; '' until the create that writes it first has answered. */
  id: string;
}

function deferrableReferences(module: KindModule): Reference[] {
  return module.references.filter((reference) => reference.deferrable);
}

export class DeferredReferences {
  private readonly pending: Deferred[] = [];

  constructor(private readonly channel: WriteChannel) {}

  private unresolved(reference: Reference, resource: DesiredResource): string[] {
    const names = asStringArray(getAt(resource.spec, reference.field.split('.')));
    return names.filter((name) => this.channel.index.resolveName(reference.target, name) === undefined);
  }

  /** Before a write: when a deferrable reference names an object that does not exist yet, write again later. */
  note(change: Change, resource: DesiredResource, id?: string): void {
    const waiting = deferrableReferences(KINDS[change.kind]).some((reference) => this.unresolved(reference, resource).length > 0);
    if (waiting) this.pending.push({ change, resource, id: id ?? '' });
  }

  /** A deferred write noted before the create answered gets the new id. */
  retarget(change: Change, id: string): void {
    for (const deferred of this.pending) if (deferred.change === change) deferred.id = id;
  }

  /**
   * Writes once more the objects whose first write was done, now that the objects they name were
   * written too. Each is reported as a follow-up `update`; one whose targets still do not exist fails.
   */
  async complete(options: { schedule: Schedule; concurrency: number; report: ApplyReport; stopped: () => boolean }): Promise<void> {
    await runBounded(this.pending, options.concurrency, async ({ change, resource, id }) => {
      const outcome = await options.schedule.outcomeOf(change);
      if (outcome !== 'done' || id === '') return;
      if (options.stopped()) return;
      const module = KINDS[change.kind];
      const references = deferrableReferences(module);
      const fields = references.map((reference) => reference.field).join(', ');
      const started = performance.now();
      const event: ApplyEvent = { kind: change.kind, key: change.key, action: 'update', outcome: 'done', id, durationMs: 0 };
      try {
        const missing = references.flatMap((reference) => this.unresolved(reference, resource));
        if (missing.length > 0) throw new Error(`not set: ${missing.join(', ')} (not created in this run)`);
        await this.channel.update(change, module, resource, id);
        const targets = [...new Set(references.map((reference) => KINDS[reference.target].plural))].join(' and ');
        event.message = `${fields} set once their ${targets} existed`;
      } catch (err) {
        event.outcome = 'failed';
        event.message = `${fields} ${messageOf(err)}`;
      }
      event.durationMs = performance.now() - started;
      options.report.followUpFinished(event);
    });
  }
}
