// The effectful shell of `wsync pull`: read the tree and refuse one that does not validate, read
// the workspace, plan the file changes (pure), check them (the pulled tree must validate; files
// with uncommitted changes are refused unless forced), then write them and record new objects as
// owned, as export does.
import { treeSettingsOf, type TreeSettings } from '../source/tree-settings.js';
import type { ApiClient } from '../api/types.js';
import { hasErrors } from '../core/diagnostics.js';
import { DEFAULT_POLICY, type Desired, type Diagnostic, type KindName, type LiveState } from '../core/types.js';
import { adoptExported, checkWriterLease } from '../export/adopt.js';
import { readScope } from '../export/live-export.js';
import type { SchemaSet } from '../export/schema-order.js';
import { readLive } from '../live/index.js';
import { planChanges, type Selection } from '../plan/index.js';
import { desiredFromTexts, readDesired, type ReadOptions } from '../source/index.js';
import { defaultGitBase, readGitBase, uncommittedFiles } from '../source/read/base-tree.js';
import { loadSchemas } from '../source/validate/schema-files.js';
import { loadInventory } from '../state/index.js';
import { planPull, type PullPlan } from './planner.js';
import { readTextsAsTree, readTreeTexts, writeTreeChanges } from './tree-files.js';

/** The tree settings: the environment of wsync.yaml the workspace is (--env) gets the changes in its variables and overlays. */
export interface PullOptions extends TreeSettings {
  dir: string;
  client: ApiClient;
  stateDir: string;
  selection?: Selection;
  prune: boolean;
  dryRun: boolean;
  force: boolean;
  /** The git revision the tree was last merged at (default: where HEAD left origin/HEAD, else HEAD; none outside git). */
  base?: string;
  /** The workspace as already read (the daemon's write-back); read here otherwise. */
  live?: LiveState;
  warn: (message: string) => void;
}

export type PullOutcome =
  | { status: 'invalid'; diagnostics: Diagnostic[]; secretValues: string[] }
  | { status: 'dirty'; files: string[]; plan: PullPlan; secretValues: string[] }
  | { status: 'unpullable'; diagnostics: Diagnostic[]; plan: PullPlan; secretValues: string[] }
  | { status: 'pulled' | 'dry-run'; plan: PullPlan; unsettled: string[]; adopted: number; secretValues: string[] };

async function baseOf(options: PullOptions): Promise<Desired | undefined> {
  const ref = options.base ?? (await defaultGitBase(options.dir));
  if (ref === undefined) return undefined;
  return readGitBase(options.dir, ref, { ...(options.limits ? { limits: options.limits } : {}), ...(options.environment !== undefined ? { environment: options.environment } : {}) });
}

/** The pulled tree as the source reader reads it: from the texts, or (environments) a copy on disk. */
async function readPulled(files: { path: string; text: string }[], options: ReadOptions): Promise<Desired> {
  return options.environment === undefined ? desiredFromTexts(files, options) : readTextsAsTree(files, options);
}

/** The tree's texts with the plan's changes made. */
function pulledTexts(texts: ReadonlyMap<string, string>, plan: PullPlan): { path: string; text: string }[] {
  const out = new Map(texts);
  for (const change of plan.changes) {
    if (change.after === undefined) out.delete(change.path);
    else out.set(change.path, change.after);
  }
  return [...out].map(([path, text]) => ({ path, text }));
}

export async function runPull(options: PullOptions): Promise<PullOutcome> {
  const read = treeSettingsOf(options);
  const desired = await readDesired(options.dir, read);
  if (hasErrors(desired.diagnostics)) return { status: 'invalid', diagnostics: desired.diagnostics, secretValues: desired.secretValues };
  const texts = await readTreeTexts(options.dir);
  const base = await baseOf(options);
  const inventory = await loadInventory(options.stateDir);
  const kinds = new Set<KindName>([...desired.resources.map((r) => r.kind), ...inventory.entries.map((e) => e.kind), ...(options.selection?.kinds ?? [])]);
  for (const target of options.selection?.targets ?? []) kinds.add(target.kind);
  const live = options.live ?? (await readLive(options.client, readScope([...kinds])));
  const schemas = Object.fromEntries(loadSchemas()) as SchemaSet;
  const plan = planPull({
    desired,
    files: texts,
    live,
    inventory,
    prune: options.prune,
    schemas,
    ...(base ? { base } : {}),
    ...(options.selection ? { selection: options.selection } : {}),
    ...(options.environment !== undefined ? { environment: options.environment } : {}),
  });
  const secretValues = [...desired.secretValues, ...plan.secretValues];

  // What the files would say must validate, or nothing is written.
  const after = await readPulled(pulledTexts(texts, plan), { ...read, secretsAsWritten: true });
  if (hasErrors(after.diagnostics)) return { status: 'unpullable', diagnostics: after.diagnostics, plan, secretValues };

  const dirty = await uncommittedFiles(options.dir, plan.changes.map((c) => c.path));
  if (dirty !== undefined && dirty.length > 0 && !options.force) return { status: 'dirty', files: dirty, plan, secretValues };

  // What the next plan would still show of the objects pulled: said, so nobody takes it for settled.
  const resolved = await readPulled(pulledTexts(texts, plan), read);
  const adoptedInventory = { ...inventory, entries: [...inventory.entries, ...plan.adopt.map((o) => ({ kind: o.kind, key: o.key, id: o.id }))] };
  const next = planChanges(resolved, live, adoptedInventory, DEFAULT_POLICY, options.selection ? { selection: options.selection } : {});
  // A new file whose variables are not set yet is not read: the variables are listed already.
  const readable = new Set(resolved.resources.map((r) => `${r.kind}/${r.key}`));
  const pulled = new Set([...plan.pulled, ...plan.adopt].map((o) => `${o.kind}/${o.key}`).filter((ref) => readable.has(ref)));
  const unsettled = next.changes
    .filter((c) => pulled.has(`${c.kind}/${c.key}`) && c.action !== 'noop')
    .map((c) => `${c.kind}/${c.key}: ${c.action}${c.diffs.length > 0 ? ` of ${c.diffs.map((d) => d.path).join(', ')}` : ''}${c.reason ? ` (${c.reason})` : ''}`);

  if (options.dryRun) return { status: 'dry-run', plan, unsettled, adopted: 0, secretValues };
  if (plan.adopt.length > 0) await checkWriterLease(options.stateDir, options.client, options.warn);
  await writeTreeChanges(options.dir, plan.changes);
  let adopted = 0;
  if (plan.adopt.length > 0) {
    const counts = await adoptExported(options.stateDir, { files: [], variables: plan.variables, warnings: [], objects: plan.adopt, secretValues: [] }, options.warn);
    adopted = counts.adopted;
  }
  return { status: 'pulled', plan, unsettled, adopted, secretValues };
}
