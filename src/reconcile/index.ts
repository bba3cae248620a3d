import type { ApiClient } from '../api/types.js';
import type { ApplyEvent, ApplyResult, IssueStep } from '../apply/index.js';
import { hasErrors } from '../core/diagnostics.js';
import { hostname } from 'node:os';
import { changeRef, isWriteAction, type Desired, type Diagnostic, type HeldChanges, type Inventory, type LiveState, type Plan, type Policy } from '../core/types.js';
import { PhaseTimes } from '../core/phase-times.js';
import { coversInventory, liveScope, readLive, withQueryAccess, type LiveCache, type LiveStore } from '../live/index.js';
import { isPruneDisabled, planChanges, removedByChange, type BaseRemovals, type RemovedResource, type Selection } from '../plan/index.js';
import type { PlanMemo } from '../plan/plan-memo.js';
import type { FileCache } from '../source/read/file-cache.js';
import { declaredObjects, readDesired } from '../source/index.js';
import type { TreeLimits } from '../source/limits.js';
import { KINDS } from '../kinds/index.js';
import { strayIssueMarkers } from './issue-markers.js';
import { clearIssuePending, heldTokenSecrets, loadInventory, openState, tokenOutputDirOf, type StateHandle } from '../state/index.js';
import { selfIdentityOf } from './self-identity.js';
import { WriterLease } from './writer-lease.js';
import { limitGrowthOfLargeRead } from '../util/heap-growth.js';

export interface ReconcileInput {
  dir: string;
  secretsDir?: string;
  /** Bounds on the tree (flags and environment); the defaults otherwise. */
  limits?: Partial<TreeLimits>;
  env: Record<string, string | undefined>;
  client: ApiClient;
  stateDir: string;
  /** An already-open, locked state (the daemon keeps one for its lifetime); otherwise apply opens one. */
  state?: StateHandle;
  policy: Policy;
  mode: 'plan' | 'apply';
  concurrency?: number;
  tokenOutputDir?: string;
  signal?: AbortSignal;
  onChange?: (event: ApplyEvent) => void;
  /**
   * Called once the files are read, before the API is read or written: a text returned (why the
   * files read are no longer the tree, say a git-sync link that moved meanwhile) ends the reconcile
   * as 'superseded', nothing written.
   */
  confirmSource?: () => Promise<string | undefined>;
  /** The caller's last word on the plan before it is shown and applied (the daemon's write-back holds changes). */
  adjustPlan?: (plan: Plan, desired: Desired, live: LiveState) => Plan;
  /** Called once the plan exists, before any write (the CLI prints it). */
  onPlan?: (plan: Plan, desired: Desired) => void;
  /**
   * The workspace's writer lease, kept for as long as the caller runs (the daemon). Without one, a
   * plan with writes takes the lease for the time of its apply and ends it after.
   */
  writerLease?: WriterLease;
  /** Where warnings go (a writer lease or a stale lock taken over, a state directory git would commit); default stderr. */
  warn?: (message: string) => void;
  /** Called at each step of saving an issued secret (tests stop the process there). */
  onIssueStep?: (step: IssueStep) => void;
  /** The files of the base of the change (`plan --base`): what they declare and DIR does not is planned as the change's deletes. */
  base?: { label: string; desired: Desired };
  /** Plan (and apply) only these resources (`--target`, `--kind`); nothing is pruned then. */
  selection?: Selection;
  /**
   * What the daemon keeps between reconciles (docs/incremental.md): per-file results, the live
   * lists, the planner's memo. Each reconcile gives what it would give without them.
   */
  incremental?: { files: FileCache; live: LiveCache; memo: PlanMemo };
  /** Where the time of each phase is added up (a new one when not given). */
  phases?: PhaseTimes;
  /** The fingerprint of held changes someone approved (`apply --approve`, `wsync ctl approve`): the plan lets exactly those through. */
  approve?: string;
  /** The held changes `approve` was made of, when a record of them is at hand (docs/design.md, approval). */
  approvedHeld?: HeldChanges;
  /** The environment of wsync.yaml to render (its variables and overlays); the plan names it. */
  environment?: string;
  /** The API token the client sends (its current value): the self-lockout guard finds which token it is. */
  apiToken?: () => string;
}

export type ReconcileStatus =
  /** The files do not validate: nothing was read from the API, nothing written. */
  | 'invalid'
  /** The files read are no longer the tree (`confirmSource`): nothing was read from the API, nothing written. */
  | 'superseded'
  /** The plan has errors (unresolved references, refused adoption, missing datasets): nothing written. */
  | 'unappliable'
  /** mode plan: the plan holds changes by a safety rule (delete budget, empty desired set); apply would apply the rest. */
  | 'refused'
  /** mode apply: every change that was not held succeeded; the held ones (the plan's refused changes) wait for approval. */
  | 'partial'
  /** mode plan: the plan was made. */
  | 'planned'
  /** mode apply: every change succeeded (or there was nothing to do). */
  | 'applied'
  /** mode apply: at least one change failed. */
  | 'failed'
  /** mode apply: stopped (SIGTERM) before every change was made; none failed. */
  | 'stopped';

export interface ReconcileOutcome {
  status: ReconcileStatus;
  desired: Desired;
  live?: LiveState;
  plan?: Plan;
  result?: ApplyResult;
  /** Diagnostics of the files and of the plan, errors first. */
  diagnostics: Diagnostic[];
  /** Why the reconcile was superseded. */
  superseded?: string;
  liveRequests: number;
  /** Lists of an earlier read served the live state (the daemon's live cache). */
  liveReused: boolean;
  phases: PhaseTimes;
}

/** One pass of source -> live -> plan -> (apply): the flow that plan, apply and the daemon share. */
export async function reconcile(input: ReconcileInput): Promise<ReconcileOutcome> {
  const phases = input.phases ?? new PhaseTimes();
  const { incremental } = input;
  const writing = input.mode === 'apply' && input.policy.mode !== 'observe';
  // Nothing is read from the API before the files validate: a broken tree sends no request and
  // fails at once. An apply lists only under its lock; the daemon keeps its lists between reconciles.
  const desired = await readDesired(input.dir, {
    secretsDir: input.secretsDir,
    env: input.env,
    limits: input.limits,
    cache: incremental?.files,
    // The daemon's results outlive its files' edits; a plan's or an apply's do not.
    releaseTexts: incremental === undefined,
    // A plan's or an apply's large tree: V8 holds its heap's growth from then on (the daemon's is held always).
    ...(incremental === undefined ? { onDocumentsRead: limitGrowthOfLargeRead() } : {}),
    measure: phases.measure,
    ...(input.environment === undefined ? {} : { environment: input.environment }),
  });
  // Checked whatever the files gave: a tree removed half-way through its read often reads as errors.
  const superseded = await input.confirmSource?.();
  if (superseded !== undefined) {
    return { status: 'superseded', superseded, desired, diagnostics: [], liveRequests: 0, liveReused: false, phases };
  }
  if (hasErrors(desired.diagnostics)) {
    return { status: 'invalid', desired, diagnostics: desired.diagnostics, liveRequests: 0, liveReused: false, phases };
  }

  // Apply holds the lock from before it reads live state until the last write is recorded.
  const state = input.state ?? (writing ? await openState(input.stateDir, { lock: true, ...(input.warn ? { warn: input.warn } : {}) }) : undefined);
  try {
    const removals = input.base && baseRemovals(input.base.label, input.base.desired, desired);
    const { inventory, live, reused } = await phases.measureAsync('live', async () => {
      const read = await inventoryAndLive(input, desired, state, removals);
      // What the token cannot see in a list must be known before planning creates.
      const live = await withQueryAccess(input.client, desired, read.live, incremental ? { memo: incremental.memo } : {});
      return { ...read, live };
    });
    // Which token secrets are on disk matters only beside the state they belong to: a plan without a
    // state directory (a pull request's) knows neither what it owns nor which secrets it holds.
    const tokenDir = tokenOutputDirOf(input.stateDir, input.tokenOutputDir);
    const secrets = inventory.hashKey === '' ? {} : await issuedSecretsHeld(desired, tokenDir, writing && state ? inventory : undefined);
    if (inventory.hashKey !== '') {
      const warn = input.warn ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
      await strayIssueMarkers(desired, tokenDir, { inventory: writing && state ? inventory : undefined, owned: inventory, warn });
    }
    const self = await selfIdentityOf(input.client, input.apiToken, input.policy, live, tokenDir);
    const planned = phases.measure('plan', () =>
      planChanges(desired, live, inventory, input.policy, {
        now: new Date(),
        ...secrets,
        ...(removals ? { removals } : {}),
        ...(input.selection ? { selection: input.selection } : {}),
        ...(incremental ? { memo: incremental.memo } : {}),
        ...(input.approve === undefined ? {} : { approve: input.approve }),
        ...(input.approvedHeld === undefined ? {} : { approvedHeld: input.approvedHeld }),
        self,
        measure: phases.measure,
      }),
    );
    if (desired.environment !== undefined) planned.environment = desired.environment;
    const plan = input.adjustPlan ? input.adjustPlan(planned, desired, live) : planned;
    const diagnostics = [...desired.diagnostics, ...plan.diagnostics];
    input.onPlan?.(plan, desired);

    const base = { desired, live, plan, diagnostics, liveRequests: live.requests, liveReused: reused, phases };
    if (hasErrors(plan.diagnostics)) return { ...base, status: 'unappliable' };
    const held = plan.changes.some((c) => c.action === 'refused');
    if (!writing || !state) return { ...base, status: held ? 'refused' : 'planned' };

    // Nothing is written, not even an adoption into the inventory, while another wsync writes the
    // workspace (WriterLeaseError).
    const lease = input.writerLease ?? (plan.changes.some((c) => isWriteAction(c.action)) ? writerLeaseFor(input, state) : undefined);
    if (lease) {
      // The lease names this state directory's writer id: it must be on disk before the workspace holds it.
      await state.prepareWrites();
      await lease.hold();
      lease.warnUnleasedAdoption(plan.changes.filter((c) => c.action === 'adopt').length, () => state.inventory.entries.length);
    }
    // Loaded when there is something to apply: a plan never needs it.
    const { applyPlan } = await import('../apply/index.js');
    const result = await phases.measureAsync('apply', () => applyPlan({
      plan,
      desired,
      live,
      client: input.client,
      state,
      concurrency: input.concurrency ?? 4,
      tokenOutputDir: input.tokenOutputDir,
      onChange: input.onChange,
      signal: input.signal,
      onIssueStep: input.onIssueStep,
      memo: incremental?.memo,
    })).finally(async () => {
      if (lease !== input.writerLease) await lease?.release().catch(() => undefined);
    });
    return { ...base, result, status: result.failed > 0 ? 'failed' : result.aborted ? 'stopped' : held ? 'partial' : 'applied' };
  } finally {
    if (state && !input.state) await state.close();
  }
}

/**
 * The inventory and the live state it and the files put in scope. A run with no state open (a
 * plan) lists what the files put in scope at once and reads its inventory while the answers are on
 * their way (the process would otherwise wait idle for them): the inventory can only add kinds or
 * datasets (objects owned that the files may no longer declare), and those are listed once the
 * first lists are in, the same lists one read of the whole scope makes.
 */
async function inventoryAndLive(
  input: ReconcileInput,
  desired: Desired,
  state: StateHandle | undefined,
  removals: BaseRemovals | undefined,
): Promise<{ inventory: Inventory; live: LiveState; reused: boolean }> {
  const { incremental, client, policy } = input;
  if (state || incremental) {
    const inventory = state ? state.inventory : await loadInventory(input.stateDir);
    const scope = liveScope(desired, inventory, policy, removals?.resources);
    const read = incremental ? await incremental.live.read(client, scope) : { live: await readLive(client, scope), reused: false };
    return { inventory, ...read };
  }
  const early = liveScope(desired, NO_INVENTORY, policy, removals?.resources);
  const store: LiveStore = { whole: new Map(), perDataset: new Map(), unavailable: new Map() };
  const listing = readLive(client, early, store);
  let inventory: Inventory;
  try {
    inventory = await loadInventory(input.stateDir);
  } catch (err) {
    // The inventory's error is the run's, as when it was read first; the lists are let finish.
    await listing.catch(() => undefined);
    throw err;
  }
  const first = await listing;
  if (coversInventory(early, inventory)) return { inventory, live: first, reused: false };
  const live = await readLive(client, liveScope(desired, inventory, policy, removals?.resources), store);
  return { inventory, live: { ...live, requests: first.requests + live.requests }, reused: false };
}

const NO_INVENTORY: Inventory = { version: 1, entries: [], hashKey: '' };

/**
 * `Kind/key` of the declared objects whose issued secret (an API token's) is on disk, and of those
 * with an issue in flight. Given the inventory (an apply, under the state lock), a marker of an
 * issue that finished (its secret saved after the marker, the token owned: a run stopped between
 * recording the token and removing the marker) is removed: left, it would vouch later for an
 * unowned token of that name as this wsync's own.
 */
async function issuedSecretsHeld(
  desired: Desired,
  dir: string,
  inventory: Inventory | undefined,
): Promise<{ heldSecrets: Set<string>; pendingSecrets: Set<string> }> {
  const issuing = desired.resources.filter((r) => KINDS[r.kind].issuedSecret !== undefined);
  const { held, pending } = await heldTokenSecrets(dir, issuing.map((r) => r.name));
  if (inventory) {
    const owned = new Set(inventory.entries.filter((e) => e.retiredUntil === undefined).map((e) => changeRef(e.kind, e.key)));
    const finished = issuing.filter((r) => pending.has(r.name) && held.has(r.name) && owned.has(changeRef(r.kind, r.key)));
    await Promise.all(finished.map((r) => clearIssuePending(dir, r.name)));
    for (const r of finished) pending.delete(r.name);
  }
  const refs = (names: Set<string>): Set<string> => new Set(issuing.filter((r) => names.has(r.name)).map((r) => changeRef(r.kind, r.key)));
  return { heldSecrets: refs(held), pendingSecrets: refs(pending) };
}

/** What the base declares (broken documents included: they are declared too) and `head` does not. */
function baseRemovals(label: string, base: Desired, head: Desired): BaseRemovals {
  const valid = new Map(base.resources.map((r) => [`${r.kind}\u0000${r.key}`, r]));
  const declared: RemovedResource[] = declaredObjects(base).map(({ kind, key }) => {
    const resource = valid.get(`${kind}\u0000${key}`);
    return { kind, key, pruneDisabled: resource !== undefined && isPruneDisabled(resource) };
  });
  return { label, resources: removedByChange(declared, declaredObjects(head)) };
}

function writerLeaseFor(input: ReconcileInput, state: StateHandle): WriterLease {
  const warn = input.warn ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
  return new WriterLease(() => input.client, { id: state.writerId, host: hostname(), stateDir: state.dir }, { warn });
}
