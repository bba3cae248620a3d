// Approving exactly what a plan holds (#27 item 4): the held changes and the live objects they
// touch, as the plan read them, make a fingerprint; an approval naming that fingerprint lets those
// changes through, and nothing else. Pure: values in, the plan's changes amended in place.
import { createHash } from 'node:crypto';
import { HELD_FINGERPRINT } from '../core/held-fingerprint.js';
import { REDACTED } from '../core/redact.js';
import { canonicalJson, cloneJson } from '../core/json.js';
import { findPaths, replaceExisting } from '../core/json-paths.js';
import { hashSecret } from '../core/secret-hash.js';
import { changeRef, type ApprovalOutcome, type Change, type HeldChanges, type JsonObject } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { LiveIndex } from './live-index.js';

const PART_LENGTH = 12;

function digest(lines: readonly string[]): string {
  return createHash('sha256').update([...lines].sort().join('\n'), 'utf8').digest('hex').slice(0, PART_LENGTH);
}

/** The changes an approval may let through: held by a safety rule, with the action they had before. */
export function approvableChanges(changes: readonly Change[]): Change[] {
  return changes.filter((c) => c.action === 'refused' && c.heldFrom !== undefined);
}

/** What a held change would do: its action and the values it writes (a secret's path only: its value never is in a diff). */
function changeLine(change: Change): string {
  const diffs = change.diffs.map((d) => (d.sensitive ? `${d.path}:(sensitive)` : `${d.path}:${canonicalJson(d.after ?? null)}`)).sort();
  return canonicalJson([change.kind, change.key, change.heldFrom?.action ?? change.action, diffs]);
}

/**
 * The live object a held change touches as listed, secret values as keyed hashes (the inventory's
 * key, as secrets are compared) or, without a state directory, `(sensitive)`: never in clear, and
 * a secret changed live since still moves the hash where the key is known.
 */
function objectLine(change: Change, live: LiveIndex, hashKey: string): string {
  const entry = change.id === undefined ? undefined : live.byId.get(change.kind, change.id);
  if (entry === undefined) return canonicalJson([change.kind, change.key, change.id ?? null, null]);
  const module = KINDS[change.kind];
  const issued = module.issuedSecret ? [module.issuedSecret.wireField] : [];
  const secrets = findPaths(entry.object.raw, [...module.secretFields, ...issued]).filter((f) => typeof f.value === 'string' && f.value !== '');
  let raw: JsonObject = entry.object.raw;
  if (secrets.length > 0) {
    raw = cloneJson(raw);
    for (const f of secrets) replaceExisting(raw, f.segments, hashKey === '' ? REDACTED : hashSecret(hashKey, f.value as string));
  }
  return canonicalJson([change.kind, change.key, entry.object.id, raw]);
}

function parts(held: readonly Change[], live: LiveIndex, hashKey: string): { set: string; objects: string; each: Record<string, string> } {
  const lines = held.map((c) => [changeRef(c.kind, c.key), objectLine(c, live, hashKey)] as const);
  const each: Record<string, string> = {};
  for (const [ref, line] of [...lines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) each[ref] = digest([line]);
  return { set: digest(held.map(changeLine)), objects: digest(lines.map(([, line]) => line)), each };
}

/** The fingerprint of the held changes (undefined when none is held). */
export function heldChangesOf(changes: readonly Change[], live: LiveIndex, hashKey: string): HeldChanges | undefined {
  const held = approvableChanges(changes);
  if (held.length === 0) return undefined;
  const { set, objects, each } = parts(held, live, hashKey);
  return { fingerprint: `held-${set}-${objects}`, count: held.length, changes: held.map((c) => changeRef(c.kind, c.key)).sort(), objects: each };
}

/** What differs between the held changes approved (`known`, when a record of them is at hand) and those held now. */
function differences(known: HeldChanges, current: HeldChanges): string[] {
  const gone = known.changes.filter((ref) => !current.changes.includes(ref));
  const added = current.changes.filter((ref) => !known.changes.includes(ref));
  const changed = current.changes.filter((ref) => known.changes.includes(ref) && known.objects[ref] !== current.objects[ref]);
  return [
    ...(gone.length > 0 ? [`no longer held: ${gone.join(', ')}`] : []),
    ...(added.length > 0 ? [`held now too: ${added.join(', ')}`] : []),
    ...(changed.length > 0 ? [`changed live since: ${changed.join(', ')}`] : []),
  ];
}

/**
 * Why `approved` does not approve what `current` holds; undefined when it does. With `known`, the
 * held changes `approved` was made of (a record of an earlier plan), it names what differs.
 */
export function voidReason(approved: string, current: HeldChanges | undefined, known?: HeldChanges): string | undefined {
  const wanted = HELD_FINGERPRINT.exec(approved);
  if (wanted === null) return `${approved} is not a held-changes fingerprint (held-XXXXXXXXXXXX-XXXXXXXXXXXX)`;
  if (current === undefined) return 'nothing is held now: the plan differs from the one approved';
  if (current.fingerprint === approved) return undefined;
  const now = HELD_FINGERPRINT.exec(current.fingerprint);
  const which = known?.fingerprint === approved ? differences(known, current) : [];
  const detail = which.length > 0 ? `${which.join('; ')}; ` : '';
  if (now?.[1] === wanted[1]) {
    return `a held object changed since the approved plan read it (${detail}the same ${current.count} held, ${current.changes.join(', ')}; now ${current.fingerprint})`;
  }
  return `the changes held now are not the ones approved (${detail}${current.count} held: ${current.changes.join(', ')}; now ${current.fingerprint})`;
}

/**
 * Lets the held changes through when `approved` is their fingerprint: each gets back the action it
 * had, its reason saying who approved it. Returns what the plan says of the approval and of what
 * is still held; the caller clears the refusals when the approval released.
 */
export function approveHeld(
  changes: readonly Change[],
  live: LiveIndex,
  hashKey: string,
  approved: string | undefined,
  known?: HeldChanges,
): { held?: HeldChanges; approval?: ApprovalOutcome } {
  const held = heldChangesOf(changes, live, hashKey);
  if (approved === undefined) return held ? { held } : {};
  const why = voidReason(approved, held, known);
  if (why !== undefined) return { ...(held ? { held } : {}), approval: { fingerprint: approved, released: false, why } };
  for (const change of approvableChanges(changes)) {
    const before = change.heldFrom;
    if (before === undefined) continue;
    change.action = before.action;
    change.reason = `${before.reason === undefined ? '' : `${before.reason}; `}approved (${approved})`;
  }
  return { approval: { fingerprint: approved, released: true } };
}
