// A fingerprint of the inputs of a plan, so that `apply --plan FILE` can refuse a plan made
// against files or a workspace that have moved since, and say what moved.
import { createHash } from 'node:crypto';
import { REDACTED } from '../core/redact.js';
import { changeRef, type Desired, type JsonObject, type KindName, type LiveState, type Plan, type PlanFingerprint } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { canonicalJson, cloneJson, compareText } from '../core/json.js';
import { findPaths, pointerSegments, replaceExisting } from '../core/json-paths.js';
import { indexLive, type LiveIndex } from './live-index.js';

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

function redactPaths(value: JsonObject, patterns: readonly string[], pointers: readonly string[] = []): JsonObject {
  const found = findPaths(value, patterns);
  if (found.length === 0 && pointers.length === 0) return value;
  const out = cloneJson(value);
  for (const f of found) replaceExisting(out, f.segments, REDACTED);
  for (const pointer of pointers) replaceExisting(out, pointerSegments(pointer), REDACTED);
  return out;
}

/** Spec-relative form of `interpolated` pointers (the reader roots them at the document). */
export function specPointer(pointer: string): string {
  return pointer.startsWith('/spec/') ? pointer.slice('/spec'.length) : pointer;
}

function byText<T>(pick: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => compareText(pick(a), pick(b));
}

/**
 * sha256 over canonical JSON (keys sorted) of every declared object (secret values standing as
 * `(sensitive)`) and of every live object as listed (volatile fields such as updatedAt included:
 * a change by hand moves them). The totals hash the per-object hashes in a fixed order.
 */
export function fingerprintInputs(desired: Desired, live: LiveState, liveIndex: LiveIndex = indexLive(live)): PlanFingerprint {
  const desiredObjects: Record<string, string> = {};
  for (const resource of desired.resources) {
    const module = KINDS[resource.kind];
    // Secret values never enter a plan file, not even hashed.
    const spec = redactPaths(resource.spec, module.secretFields, resource.interpolated.map(specPointer));
    const object: JsonObject = { kind: resource.kind, key: resource.key, name: resource.name, annotations: { ...resource.annotations }, spec };
    desiredObjects[changeRef(resource.kind, resource.key)] = sha256(canonicalJson(object));
  }

  const perId: [KindName, string, string][] = [];
  const perKey = new Map<string, string[]>();
  for (const entry of liveIndex.entries) {
    const module = KINDS[entry.kind];
    // An issued secret is only answered by create and replace, but a live state built from those answers must not carry it either.
    const issued = module.issuedSecret ? [module.issuedSecret.wireField] : [];
    const raw = redactPaths(entry.object.raw, [...module.secretFields, ...issued]);
    const hash = sha256(canonicalJson({ kind: entry.kind, id: entry.object.id, raw }));
    perId.push([entry.kind, entry.object.id, hash]);
    const ref = changeRef(entry.kind, entry.key);
    const same = perKey.get(ref);
    if (same) same.push(hash);
    else perKey.set(ref, [hash]);
  }
  const liveObjects: Record<string, string> = {};
  for (const [ref, hashes] of perKey) liveObjects[ref] = hashes.length === 1 ? (hashes[0] as string) : sha256(hashes.join('\n'));

  const listedDatasets: JsonObject = {};
  for (const kind of KIND_NAMES) {
    const datasets = live.listedDatasets[kind];
    if (datasets) listedDatasets[kind] = [...datasets].sort();
  }
  const desiredList = Object.entries(desiredObjects).sort(byText(([ref]) => ref));
  perId.sort(byText(([kind, id]) => `${kind}\u0000${id}`));
  return {
    desired: sha256(canonicalJson(desiredList)),
    live: sha256(canonicalJson({ listedKinds: [...live.listedKinds].sort(), listedDatasets, objects: perId })),
    desiredObjects: sortRecord(desiredObjects),
    liveObjects: sortRecord(liveObjects),
  };
}

function sortRecord(record: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key] as string;
  return out;
}

function moved(saved: Record<string, string>, current: Record<string, string>, where: 'files' | 'live'): string[] {
  const lines: string[] = [];
  for (const ref of [...new Set([...Object.keys(saved), ...Object.keys(current)])].sort()) {
    const before = saved[ref];
    const after = current[ref];
    if (before === after) continue;
    if (where === 'files') {
      lines.push(`${ref} ${before === undefined ? 'added to the files' : after === undefined ? 'removed from the files' : 'changed in the files'}`);
    } else {
      lines.push(`${ref} ${before === undefined ? 'appeared live' : after === undefined ? 'disappeared live' : 'changed live'}`);
    }
  }
  return lines;
}

/** What moved between the fingerprint a plan was made with and the current one; [] when nothing. */
export function diffFingerprints(saved: PlanFingerprint, current: PlanFingerprint): string[] {
  const lines: string[] = [];
  if (saved.desired !== current.desired) {
    const files = moved(saved.desiredObjects, current.desiredObjects, 'files');
    lines.push(...(files.length > 0 ? files : ['the files changed']));
  }
  if (saved.live !== current.live) {
    const live = moved(saved.liveObjects, current.liveObjects, 'live');
    lines.push(...(live.length > 0 ? live : ['the kinds or datasets read from the workspace changed']));
  }
  return lines;
}

/** A change as it matters for review: what happens to which object, and which fields move. */
function reviewedForm(change: Plan['changes'][number]): string {
  const diffs = change.diffs
    .map((d) => (d.sensitive ? `${d.path}:(sensitive)` : `${d.path}:${canonicalJson(d.before ?? null)}->${canonicalJson(d.after ?? null)}`))
    .sort();
  // A held change reads as what it would do: holding it is the policy's doing, approving it (--approve) is checked apart.
  return `${change.heldFrom?.action ?? change.action} ${diffs.join(' ')}`;
}

/**
 * What separates a saved (reviewed) plan from the plan made now: moved fingerprints, and changes
 * that differ. Secret values are not in the fingerprint, so a secret rotated after the review
 * shows up here, as a change the saved plan did not have.
 */
export function diffSavedPlan(saved: Plan, current: Plan): string[] {
  const lines = diffFingerprints(saved.fingerprint, current.fingerprint);
  if (saved.environment !== current.environment) {
    lines.push(`the saved plan is for ${saved.environment === undefined ? 'no environment' : `environment ${saved.environment}`}, this apply for ${current.environment === undefined ? 'none' : `environment ${current.environment}`}`);
  }
  const before = new Map(saved.changes.map((c) => [`${c.kind}/${c.key}`, reviewedForm(c)]));
  const after = new Map(current.changes.map((c) => [`${c.kind}/${c.key}`, reviewedForm(c)]));
  for (const [ref, form] of after) {
    const was = before.get(ref);
    if (was === undefined) lines.push(`${ref}: not in the saved plan`);
    else if (was !== form) lines.push(`${ref}: the change differs from the saved plan (${form.split(' ')[0]})`);
  }
  for (const ref of before.keys()) if (!after.has(ref)) lines.push(`${ref}: in the saved plan, no longer planned`);
  return [...new Set(lines)];
}

/**
 * The plan with its fingerprint made on first read: it hashes every declared and live object, and
 * only a saved or JSON plan needs it (text and markdown plans, the daemon's reconciles never read
 * it). Enumerable, so JSON.stringify and a spread see it as a plain field.
 */
export function withLazyFingerprint(plan: Omit<Plan, 'fingerprint'>, make: () => PlanFingerprint): Plan {
  let made: PlanFingerprint | undefined;
  let inputs: (() => PlanFingerprint) | undefined = make;
  return Object.defineProperty(plan, 'fingerprint', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (made === undefined && inputs) {
        made = inputs();
        // The inputs are the whole desired and live state: not kept once the fingerprint is made.
        inputs = undefined;
      }
      return made as PlanFingerprint;
    },
    set: (value: PlanFingerprint) => {
      made = value;
      inputs = undefined;
    },
  }) as Plan;
}
