// The per-object policies a resource carries in metadata.annotations.
import { parseDuration } from '../core/duration.js';
import { DEFAULT_ROTATION_GRACE_MS, type DesiredResource, type Policy } from '../core/types.js';

const ANNOTATION_PRUNE = 'wsync/prune';
const ANNOTATION_ROTATION_GRACE = 'wsync/rotation-grace';
const ANNOTATION_ISSUED_SECRET = 'wsync/issued-secret';
export const ANNOTATION_MODE = 'wsync/mode';
const ANNOTATION_IGNORE_FIELDS = 'wsync/ignore-fields';
const ANNOTATION_DETACH_UNLISTED = 'wsync/detach-unlisted';
export const ANNOTATION_RENAMED_FROM = 'wsync/renamed-from';

/** `wsync/renamed-from: OLD`: this declaration is the owned object OLD under a new name (src/plan/renames.ts). */
export function renamedFrom(resource: DesiredResource): string | undefined {
  return resource.annotations[ANNOTATION_RENAMED_FROM];
}

/** `wsync/detach-unlisted: "true"`: a write may drop references the lists do not show (src/plan/unlisted-ids.ts). */
export function mayDetachUnlisted(resource: DesiredResource): boolean {
  return resource.annotations[ANNOTATION_DETACH_UNLISTED] === 'true';
}

const NO_FIELDS: readonly string[][] = Object.freeze([]);

/** `wsync/ignore-fields: "description, properties.email"` -> [['description'], ['properties', 'email']]. */
export function ignoredFields(resource: DesiredResource): readonly string[][] {
  const text = resource.annotations[ANNOTATION_IGNORE_FIELDS];
  // Most resources ignore nothing: one shared empty list, not one each.
  if (!text) return NO_FIELDS;
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => part.split('.'));
}

export function isObserved(resource: DesiredResource | undefined, policy: Policy): boolean {
  return policy.mode === 'observe' || resource?.annotations[ANNOTATION_MODE] === 'observe';
}

/**
 * `wsync/mode: abandon`: stop managing the object without deleting it. The plan drops an owned
 * one from the inventory (action `abandon`), and an object wsync does not own is never written.
 */
export function isAbandoned(resource: DesiredResource): boolean {
  return resource.annotations[ANNOTATION_MODE] === 'abandon';
}

export function isPruneDisabled(resource: DesiredResource): boolean {
  return resource.annotations[ANNOTATION_PRUNE] === 'disabled';
}

/** How long the object this resource replaces keeps working: `wsync/rotation-grace`, else the policy's. */
export function rotationGraceMs(resource: DesiredResource | undefined, policy: Pick<Policy, 'rotationGraceMs'>): number {
  const text = resource?.annotations[ANNOTATION_ROTATION_GRACE];
  const fromAnnotation = text === undefined ? undefined : parseDuration(text);
  return fromAnnotation ?? policy.rotationGraceMs ?? DEFAULT_ROTATION_GRACE_MS;
}

/**
 * `wsync/issued-secret: held-elsewhere`: someone other than wsync holds the secret the API issued
 * for this object (an API token made by hand), so it may be adopted without its secret file, and
 * a missing file is no reason to regenerate it.
 */
export function isIssuedSecretHeldElsewhere(resource: DesiredResource): boolean {
  return resource.annotations[ANNOTATION_ISSUED_SECRET] === HELD_ELSEWHERE[ANNOTATION_ISSUED_SECRET];
}

/** The annotations of an object whose issued secret wsync does not hold (what `export` writes on a token). */
export const HELD_ELSEWHERE: Readonly<Record<string, string>> = { [ANNOTATION_ISSUED_SECRET]: 'held-elsewhere' };
