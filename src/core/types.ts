// The values that flow through wsync's pure core: desired state from files, live state from the
// API, the inventory of what wsync owns, the policy flags, and the Plan that joins them.

import type { KindName } from '../generated/kinds.js';

/** The kinds are named by their schemas (`src/generated/kinds.ts`, made by `npm run gen:types`). */
export type { KindName };

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A place in a resource file. `file` is relative to the directory being read, with `/` separators. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export type Severity = 'error' | 'warning';

export interface Diagnostic extends Partial<SourceLocation> {
  severity: Severity;
  /** Short stable identifier of the problem, e.g. `schema`, `yaml-syntax`, `duplicate-key`, `unresolved-reference`. */
  code: string;
  kind?: string;
  name?: string;
  /** Dotted path of the field the message is about, e.g. `spec.threshold`. */
  field?: string;
  message: string;
  /** The environment of the tree (wsync.yaml environments) the problem belongs to. */
  environment?: string;
}

/** One declared resource after parsing, interpolation and schema validation. */
export interface DesiredResource {
  kind: KindName;
  /** metadata.name: the name part of the natural key (an email for User, the title for Annotation). */
  name: string;
  /** The natural key, as the kind module computes it (e.g. `checkout/status` for a DatasetField). */
  key: string;
  annotations: Record<string, string>;
  /** The spec with every `${env:}`/`${file:}` resolved: may hold secret values. Never print it. */
  spec: JsonObject;
  /** Where the document starts. */
  source: SourceLocation;
  /** JSON Pointer (RFC 6901, from the document root, e.g. `/spec/notifiers/0`) -> location of that node. */
  locations: Record<string, SourceLocation>;
  /** JSON Pointers of the spec strings that came from `${env:}` or `${file:}`. */
  interpolated: string[];
}

/** A YAML document that is not a wsync resource (a CI config, a Kubernetes manifest). */
export interface SkippedDocument extends SourceLocation {
  reason: string;
}

export interface Desired {
  resources: DesiredResource[];
  diagnostics: Diagnostic[];
  /** Files read and YAML documents without `apiVersion` that were skipped as non-resources. */
  stats: { files: number; documents: number; skipped: number };
  /** Each skipped document, where it starts and why it is not a resource: every output lists them. */
  skips?: SkippedDocument[];
  /** Every value read through `${env:}`/`${file:}`, so any output can be scrubbed of them. */
  secretValues: string[];
  /** The environment rendered (wsync.yaml environments), when the tree declares them. */
  environment?: string;
}

/** A live object as the list endpoint returned it (the wire shape, ids and all). */
export interface LiveObject {
  kind: KindName;
  id: string;
  raw: JsonObject;
}

export interface LiveState {
  objects: Partial<Record<KindName, LiveObject[]>>;
  /** Kinds whose list was read; a kind not listed here was not looked at, so absence means nothing. */
  listedKinds: KindName[];
  /** For dataset-scoped kinds (VirtualField, DatasetField): the datasets whose objects were listed. */
  listedDatasets: Partial<Record<KindName, string[]>>;
  /**
   * Kinds of an add-on (KindModule.addOn) whose list answered 403 or 404: not listed, and why, as
   * `GET /v2/rbac/roles answered 403: <the service's message>`.
   */
  unavailable?: Partial<Record<KindName, string>>;
  /** Requests made to read this state, for `plan --stats`. */
  requests: number;
  /**
   * Whether the token may query each dataset a declared object missing from its list reads
   * (KindModule.listedOnlyIfQueryable): `allowed`, or why not (the answer of the query that tried).
   * Absent: nothing was checked (a plan of plain values), and the planner does not ask.
   */
  queryAccess?: Record<string, QueryAccess>;
}

/** A query the token may run on a dataset, or why not (`missing`: the service answered 404, no such dataset it can see). */
export type QueryAccess = { allowed: true } | { allowed: false; why: string; missing?: true };

export interface InventoryEntry {
  kind: KindName;
  key: string;
  id: string;
  /** JSON Pointer into the spec (e.g. `/properties/slack/slackUrl`) -> keyed hash of the value last applied. */
  secretHashes?: Record<string, string>;
  /** The object carried `wsync/prune: disabled` when last applied: never prune it. */
  pruneDisabled?: boolean;
  /**
   * Replaced by a newer object of the same key that keeps working until this time (an API token
   * regenerated with a grace period). Still owned, never matched to the file's resource.
   */
  retiredUntil?: string;
}

export interface Inventory {
  version: 1;
  entries: InventoryEntry[];
  /** Key of the keyed hash (HMAC-SHA256) used for secret values; kept beside the inventory, not in it. */
  hashKey: string;
}

export interface Policy {
  /** Delete owned objects that are no longer declared. */
  prune: boolean;
  /** Kinds declared authoritative (`--prune=all:KIND`): unowned undeclared objects are deleted too. */
  pruneAll: KindName[];
  maxDeletes: number;
  maxDeleteRatio: number;
  /** Let a plan over the delete budget through. */
  allowOverBudget: boolean;
  /** Let a kind whose desired set is empty but has owned objects be pruned to nothing. */
  allowEmpty: boolean;
  /** Adopt unowned live objects whose key matches a declared resource (default true). */
  adopt: boolean;
  /** `observe`: report drift, never write (daemon `--mode observe`). */
  mode: 'enforce' | 'observe';
  /** Kinds whose deletion needs an opt-in (KindModule.deletionOptIn) that was given. */
  allowDeletion?: KindName[];
  /** Kinds whose updates that destroy data (KindModule.dataLoss: a retention cut) were opted in to. */
  allowDataLoss?: KindName[];
  /** How long a replaced object keeps working (a regenerated API token); `wsync/rotation-grace` overrides it per object. */
  rotationGraceMs?: number;
  /** Let a plan delete or regenerate wsync's own API token, or leave no owner (src/plan/self-lockout.ts). */
  allowSelfLockout?: boolean;
  /** The id of the API token wsync runs with (`--self-token-id`), when wsync does not hold its secret. */
  selfTokenId?: string;
}

/** A day: the old token keeps working that long after a regenerate unless told otherwise. */
export const DEFAULT_ROTATION_GRACE_MS = 24 * 3_600_000;

export const DEFAULT_POLICY: Policy = {
  prune: false,
  pruneAll: [],
  maxDeletes: 10,
  maxDeleteRatio: 0.25,
  allowOverBudget: false,
  allowEmpty: false,
  adopt: true,
  mode: 'enforce',
};

/** Every action a plan can give a change, in the order of the plan's summary. */
export const ACTIONS = ['create', 'update', 'replace', 'delete', 'adopt', 'abandon', 'noop', 'skipped', 'refused'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * The actions apply carries out (an adoption writes at least the inventory, an abandon only the
 * inventory: `wsync/mode: abandon`); `noop`, `skipped` and `refused` never reach the API.
 */
export const WRITE_ACTIONS: readonly Action[] = ['create', 'update', 'replace', 'delete', 'adopt', 'abandon'];

export function isWriteAction(action: Action): boolean {
  return WRITE_ACTIONS.includes(action);
}

export interface FieldDiff {
  /** Dotted display path inside the spec, e.g. `threshold`, `properties.slack.slackUrl`, `notifiers`. */
  path: string;
  /** Absent when the field is absent on that side. Never set when `sensitive`. */
  before?: JsonValue;
  after?: JsonValue;
  /** A secret field: values are never carried; the renderers print `(sensitive value changed)`. */
  sensitive?: boolean;
}

/**
 * Some of a change's field diffs, grouped and worded by its kind for a reviewer (a dashboard: one
 * group per chart, the layout in a few lines). Built from the diffs only, so it holds no value the
 * diffs do not.
 */
export interface DiffGroup {
  /** What the group is about, e.g. `chart errors (TimeSeries)`, `layout`, `dashboard`. */
  title: string;
  status: 'added' | 'removed' | 'changed';
  /** The diffs inside the thing, paths relative to it (`query.apl`). */
  diffs: FieldDiff[];
  /** Lines that say it shorter than field diffs (a chart moved from x 0 to x 6). */
  notes?: string[];
}

export interface Change {
  kind: KindName;
  key: string;
  name: string;
  action: Action;
  /** The live object's id (update, replace, delete, adopt, noop). */
  id?: string;
  /** Why: for skipped, refused, replace and delete always; for others when useful. */
  reason?: string;
  /** Said loudly by every plan format: what the change destroys besides the object (a dataset's data). */
  warning?: string;
  diffs: FieldDiff[];
  /** The kind's reading of `diffs` for a reviewer; renderers show it in their place when present. */
  outline?: DiffGroup[];
  /** The declaring document, for changes that come from a file. */
  source?: SourceLocation;
  /** `Kind/key` of changes in this plan that must succeed first (creates of referenced objects). */
  dependsOn: string[];
  /** Dependency level of the kind: writes run level by level, deletes in reverse. */
  level: number;
  /** True when the inventory lists the object as owned by wsync. */
  owned: boolean;
  /**
   * A replace whose old object keeps working for a while (KindModule.replace.graceful): for how
   * long, and until when if the plan knew the time it was made.
   */
  grace?: { ms: number; oldValidUntil?: string };
  /** The base of the change (`plan --base`) declares the object and the change removes it: this change is the pull request's doing, not drift. */
  removedByChange?: boolean;
  /**
   * A change a safety rule holds (action `refused`, "held"): the action and reason it had before.
   * An approval of the plan's held fingerprint (`apply --approve`) gives them back; a change
   * refused without one (an error stands behind it) can never be approved.
   */
  heldFrom?: { action: Action; reason?: string };
  /** The key this object had: an in-place rename (`wsync/renamed-from`), planned against the owned object of that key. */
  renamedFrom?: string;
  /**
   * `Kind/key` of the other side of a probable rename ("renamed?"): on a create, the owned and no
   * longer declared object with the same fields; on that object's change, the create.
   */
  renameCandidate?: string;
}

/** The changes a plan holds that an approval may let through, and the fingerprint that approves exactly them. */
export interface HeldChanges {
  /**
   * `held-SET-OBJECTS`: a hash over the held changes (kind, key, action, what they write) and one
   * over the live objects they touch as the plan read them (secret values as keyed hashes).
   */
  fingerprint: string;
  count: number;
  /** `Kind/key` of each held change, sorted. */
  changes: string[];
  /** `Kind/key` -> 12 hex digits of the hash of the live object it touches: a void approval says which one changed. */
  objects: Record<string, string>;
}

/** What became of the approval a plan was made with (`apply --approve`, `wsync ctl approve`). */
export interface ApprovalOutcome {
  fingerprint: string;
  /** The held changes were let through (they are the ones approved); false: the approval is void. */
  released: boolean;
  /** Why it is void: what differs between the approved held changes and those held now. */
  why?: string;
}

export interface PlanFingerprint {
  /** Hash of the desired state (secret values as keyed hashes). */
  desired: string;
  /** Hash of the live state the plan was made against. */
  live: string;
  /** `Kind/key` -> hash, for desired and live objects, so a stale plan can say what moved. */
  desiredObjects: Record<string, string>;
  liveObjects: Record<string, string>;
}

export interface Plan {
  version: 1;
  changes: Change[];
  /** Errors (e.g. unresolved references) make the plan unappliable; warnings (ambiguity) do not. */
  diagnostics: Diagnostic[];
  /** Whole-plan refusals (delete budget, empty desired set): apply writes nothing while any stands. */
  refusals: string[];
  summary: Record<Action, number>;
  fingerprint: PlanFingerprint;
  /** Present when the plan holds changes an approval may let through (the approval released none). */
  held?: HeldChanges;
  /** Present when the plan was made with an approval. */
  approval?: ApprovalOutcome;
  /** The environment of the tree (wsync.yaml environments) the plan is for. */
  environment?: string;
}

export function changeRef(kind: KindName, key: string): string {
  return `${kind}/${key}`;
}
