// Which writes of a reconcile replaced a version saved outside wsync (a dashboard saved in the UI):
// the daemon writes those over like any drift, and says so. Pure: the daemon keeps one per process.
import type { ApplyEvent } from '../apply/index.js';
import type { JsonObject, KindName, LiveState, Plan } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { OverwrittenItem } from './notify/events.js';

/** A write that replaced a version wsync had not written or seen in sync with the files. */
export interface Overwrite {
  kind: KindName;
  key: string;
  id: string;
  /** The live version the write replaced. */
  replaced: number;
  /** The version wsync last wrote, or last found matching the files. */
  known: number;
}

function slot(kind: KindName, id: string): string {
  return `${kind}\u0000${id}`;
}

/**
 * Remembers, per object of a versioned kind (KindModule.versionOf), the version at which it
 * matched the files as this daemon knows: the version its own write made, or the one listed when
 * the plan found it in sync. A later write that replaces another version writes over a save made
 * outside wsync. A write skipped as stale keeps what was known, so the write that follows (the next
 * reconcile's) is reported. Nothing is known before the daemon's first reconcile of an object.
 */
export class VersionWatch {
  private readonly known = new Map<string, number>();

  /** After a reconcile that wrote (or could have): what its writes replaced that wsync did not know. */
  observe(plan: Plan, live: LiveState | undefined, events: readonly ApplyEvent[]): Overwrite[] {
    this.learnInSync(plan, live);
    const overwrites: Overwrite[] = [];
    for (const event of events) {
      if (event.outcome !== 'done' || event.versions === undefined || event.id === undefined) continue;
      const at = slot(event.kind, event.id);
      const known = this.known.get(at);
      const { replaced, written } = event.versions;
      if (known !== undefined && replaced !== undefined && replaced !== known) {
        overwrites.push({ kind: event.kind, key: event.key, id: event.id, replaced, known });
      }
      if (written === undefined) this.known.delete(at);
      else this.known.set(at, written);
    }
    return overwrites;
  }

  /** The listed versions of the objects the plan found in sync. */
  private learnInSync(plan: Plan, live: LiveState | undefined): void {
    const byKind = new Map<KindName, Map<string, JsonObject>>();
    for (const change of plan.changes) {
      const versionOf = KINDS[change.kind].versionOf;
      if (change.action !== 'noop' || change.id === undefined || !versionOf) continue;
      let objects = byKind.get(change.kind);
      if (objects === undefined) {
        objects = new Map((live?.objects[change.kind] ?? []).map((o) => [o.id, o.raw]));
        byKind.set(change.kind, objects);
      }
      const raw = objects.get(change.id);
      const version = raw === undefined ? undefined : versionOf(raw);
      if (version !== undefined) this.known.set(slot(change.kind, change.id), version);
    }
  }
}

/** The overwrites as the log, the notifications and the status show them: names through `redact`. */
export function overwrittenItems(overwrites: readonly Overwrite[], redact: (text: string) => string): OverwrittenItem[] {
  return overwrites.map((o) => ({ kind: o.kind, key: redact(o.key), id: redact(o.id), replacedVersion: o.replaced, knownVersion: o.known }));
}

/** The warning the daemon logs for one overwrite. */
export function overwriteLine(item: OverwrittenItem): string {
  return (
    `wrote the files over ${item.kind}/${item.key} (id ${item.id}): it replaced version ${item.replacedVersion}, ` +
    `saved outside wsync (wsync last wrote or found in sync version ${item.knownVersion}); that version is gone from the workspace`
  );
}
