// Which drift the daemon writes back (#26.2): a change made in the workspace, not one the files
// made. The daemon tells them apart by what it saw: an object it found in sync with the files,
// whose declaration has not changed since, and which now differs, was changed in the workspace. A
// file edit not applied yet (observe mode, or an apply still to come) changes the declaration, so
// it is never taken for a UI edit. Pure: the daemon keeps one watch for its lifetime.
import { createHash } from 'node:crypto';
import { ACTIONS, changeRef, type Action, type Change, type Desired, type KindName, type LiveState, type Plan } from '../../core/types.js';

/** A drifted object to write back, with who changed it and when where the service says so. */
export interface DriftedObject {
  kind: KindName;
  key: string;
  id: string;
  /** Dotted paths of the fields that differ. */
  fields: string[];
  who?: string;
  when?: string;
  /** What the workspace holds of the differing fields, for telling a second edit from the first. */
  fingerprint: string;
  /** The hash of the object's declaration when it was found changed. */
  declaration: string;
}

/** Kinds chosen by a setting: every kind, or those named. */
export type KindChoice = 'all' | readonly KindName[];

export function chosen(choice: KindChoice, kind: KindName): boolean {
  return choice === 'all' || choice.includes(kind);
}

function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** A change that says the live object differs from its declaration (observe mode skips it, diffs kept). */
function isLiveDifference(change: Change): boolean {
  if (change.id === undefined || change.diffs.length === 0) return false;
  return change.action === 'update' || change.action === 'skipped';
}

/** The live object matches its declaration (an adoption without differences too: observe mode skips it). */
export function isInSync(change: Change): boolean {
  if (change.action === 'noop') return true;
  return change.id !== undefined && change.diffs.length === 0 && (change.action === 'adopt' || change.action === 'skipped');
}

/**
 * The service's own word on the last change of an object: `updatedBy` (Dashboard) or `who`
 * (Dataset, StarredQuery), and `updatedAt` (reference/openapi-v2.json). Absent where it says none.
 */
export function lastChangeOf(live: LiveState, kind: KindName, id: string): { who?: string; when?: string } {
  const raw = live.objects[kind]?.find((o) => o.id === id)?.raw;
  if (raw === undefined) return {};
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const who = text(raw.updatedBy) ?? text(raw.who);
  const when = text(raw.updatedAt) ?? text(raw.updated);
  return { ...(who === undefined ? {} : { who }), ...(when === undefined ? {} : { when }) };
}

export class WorkspaceEditWatch {
  /** `Kind/key` -> the hash of its declaration when the daemon last found the object in sync. */
  private readonly inSync = new Map<string, string>();
  /** `Kind/key` -> the hash of its declaration in the last plan observed. */
  private declared = new Map<string, string>();

  constructor(private readonly kinds: KindChoice) {}

  /**
   * The plan's objects changed in the workspace since the daemon found them in sync, of the chosen
   * kinds; remembers the ones in sync now. Nothing is known of an object before the daemon has
   * seen it in sync once.
   */
  observe(plan: Plan, desired: Desired, live: LiveState): DriftedObject[] {
    const declared = new Map(desired.resources.map((r) => [changeRef(r.kind, r.key), hash([r.spec, r.annotations])]));
    this.declared = declared;
    const drifted: DriftedObject[] = [];
    for (const change of plan.changes) {
      const ref = changeRef(change.kind, change.key);
      const now = declared.get(ref);
      if (now === undefined) continue;
      if (isInSync(change)) {
        this.inSync.set(ref, now);
        continue;
      }
      if (!isLiveDifference(change) || !chosen(this.kinds, change.kind) || this.inSync.get(ref) !== now) continue;
      const id = change.id as string;
      drifted.push({
        kind: change.kind,
        key: change.key,
        id,
        fields: change.diffs.map((d) => d.path),
        ...lastChangeOf(live, change.kind, id),
        fingerprint: hash(change.diffs.map((d) => [d.path, d.sensitive === true ? 'sensitive' : (d.before ?? null)])),
        declaration: now,
      });
    }
    return drifted;
  }

  /** The hash of an object's declaration in the last plan observed (undefined: not declared then). */
  declarationOf(ref: string): string | undefined {
    return this.declared.get(ref);
  }
}

/**
 * The plan with the changes of `held` objects (`Kind/key` -> why) turned into skipped ones, their
 * diffs kept (the status shows them as drift still): the daemon does not put those back.
 */
export function holdChanges(plan: Plan, held: ReadonlyMap<string, string>): Plan {
  if (held.size === 0) return plan;
  let changed = false;
  const changes = plan.changes.map((change) => {
    const why = held.get(changeRef(change.kind, change.key));
    if (why === undefined || !isLiveDifference(change) || change.action === 'skipped') return change;
    changed = true;
    return { ...change, action: 'skipped' as const, reason: why };
  });
  if (!changed) return plan;
  const summary = Object.fromEntries(ACTIONS.map((a) => [a, 0])) as Record<Action, number>;
  for (const change of changes) summary[change.action] += 1;
  return { ...plan, changes, summary };
}
