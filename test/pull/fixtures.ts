// A tree as texts and the workspace apply would have made of it (each kind's toWire, ids by
// name), for the pull planner's tests: change the live objects as the UI would, then pull.
import type { Desired, Inventory, JsonObject, KindName, LiveObject, LiveState } from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import type { ResolveName } from '../../src/kinds/types.js';
import { secretHashes } from '../../src/plan/index.js';
import { loadSchemas } from '../../src/source/validate/schema-files.js';
import { desiredFromTexts } from '../../src/source/index.js';
import type { SchemaSet } from '../../src/export/schema-order.js';
import { planPull, type PullInput, type PullPlan } from '../../src/pull/planner.js';

export const HASH_KEY = 'pull-test-hash-key';
export const SCHEMAS = Object.fromEntries(loadSchemas()) as SchemaSet;
export const ENV = { SLACK_URL: 'https://hooks.slack.example/services/T0/B0/pull-test-secret', DESCRIPTION: 'from the environment' };

export interface TreeWorkspace {
  files: Map<string, string>;
  desired: Desired;
  live: LiveState;
  inventory: Inventory;
  /** The live object of kind and name, to change as the UI would. */
  raw(kind: KindName, name: string): JsonObject;
  idOf(kind: KindName, name: string): string;
}

const idFor = (kind: KindName, key: string): string => `${kind.toLowerCase()}-${key}`;

/** `files` read as the source reader reads them, and a workspace holding exactly what they say. */
export function treeWorkspace(files: Record<string, string>, options: { recordSecrets?: boolean; env?: Record<string, string> } = {}): TreeWorkspace {
  const texts = new Map(Object.entries(files));
  const desired = desiredFromTexts([...texts].map(([path, text]) => ({ path, text })), { env: { ...ENV, ...options.env } });
  if (desired.diagnostics.length > 0) throw new Error(JSON.stringify(desired.diagnostics, null, 2));
  const resolve: ResolveName = (kind, name) => idFor(kind, KINDS[kind].keyOf(name, {}));
  const objects: Partial<Record<KindName, LiveObject[]>> = {
    Dataset: ['http', 'checkout'].map((name) => ({ kind: 'Dataset' as const, id: name, raw: { id: name, name, kind: 'axiom:events:v1' } })),
  };
  const entries = desired.resources.map((r) => ({
    kind: r.kind,
    key: r.key,
    id: idFor(r.kind, r.key),
    ...(options.recordSecrets === false ? {} : { secretHashes: secretHashes(KINDS[r.kind], r.spec, HASH_KEY) }),
  }));
  for (const r of desired.resources) {
    const raw = structuredClone({ ...KINDS[r.kind].toWire(r.name, r.spec, resolve), id: idFor(r.kind, r.key) });
    (objects[r.kind] ??= []).push({ kind: r.kind, id: idFor(r.kind, r.key), raw });
  }
  const live: LiveState = { objects, listedKinds: [...KIND_NAMES], listedDatasets: { VirtualField: ['http', 'checkout'], DatasetField: ['http', 'checkout'] }, requests: 0 };
  const find = (kind: KindName, name: string): LiveObject => {
    const found = live.objects[kind]?.find((o) => o.id === idFor(kind, KINDS[kind].keyOf(name, {})));
    if (!found) throw new Error(`no live ${kind} ${name}`);
    return found;
  };
  return {
    files: texts,
    desired,
    live,
    inventory: { version: 1, entries, hashKey: HASH_KEY },
    raw: (kind, name) => find(kind, name).raw,
    idOf: (kind, name) => find(kind, name).id,
  };
}

export function pullOf(ws: TreeWorkspace, extra: Partial<PullInput> = {}): PullPlan {
  return planPull({ desired: ws.desired, files: ws.files, live: ws.live, inventory: ws.inventory, prune: false, schemas: SCHEMAS, ...extra });
}

/** The tree's texts after the plan's changes. */
export function afterPull(ws: TreeWorkspace, plan: PullPlan): Map<string, string> {
  const out = new Map(ws.files);
  for (const change of plan.changes) {
    if (change.after === undefined) out.delete(change.path);
    else out.set(change.path, change.after);
  }
  return out;
}

/** Lines of `after` not in `before` and of `before` not in `after`, as `-`/`+` lines in order. */
export function lineChanges(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const removed = a.filter((line) => !b.includes(line)).map((l) => `-${l}`);
  const added = b.filter((line) => !a.includes(line)).map((l) => `+${l}`);
  return [...removed, ...added];
}
