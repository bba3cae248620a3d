import { safeMessage } from '../core/safe-text.js';
import type { ApiClient } from '../api/types.js';
import type { Action, Desired, KindName, LiveState, Plan } from '../core/types.js';
import type { PlanMemo } from '../plan/plan-memo.js';
import type { StateHandle } from '../state/index.js';

export interface ApplyInput {
  plan: Plan;
  desired: Desired;
  /** The live state the plan was made against: seeds the name -> id index. */
  live: LiveState;
  client: ApiClient;
  /** The open, locked state directory: every confirmed write is recorded in it. */
  state: StateHandle;
  /** Changes running at once within one dependency level. */
  concurrency: number;
  /** Where API token secrets go (default `<stateDir>/tokens`). */
  tokenOutputDir?: string;
  /** Called once per change as it finishes (and for follow-up writes such as Role members). */
  onChange?: (event: ApplyEvent) => void;
  /** Aborted: writes in flight finish, no new ones start, the inventory is flushed. */
  signal?: AbortSignal;
  /** Called at each step of saving an issued secret (the crash points the tests stop the process at). */
  onIssueStep?: (step: IssueStep) => void;
  /** The planner's memo (the daemon's): the live objects are not read through their kinds again. */
  memo?: PlanMemo;
}

/**
 * The steps of a write whose answer carries a secret, in order: the answer arrived; the secret
 * is written to a temporary file; it is fsynced and in place (file and directory); the inventory
 * records the object.
 */
export const ISSUE_STEPS = ['answered', 'secret-written', 'secret-synced', 'recorded'] as const;
export type IssueStep = (typeof ISSUE_STEPS)[number];

export type ApplyOutcome = 'done' | 'failed' | 'skipped';

export interface ApplyEvent {
  kind: KindName;
  key: string;
  action: Action;
  outcome: ApplyOutcome;
  /** The object's id after the change (the new id of a created or replaced object). */
  id?: string;
  /** Why it failed or was skipped, or a note (`wrote token to ...`); never holds a secret. */
  message?: string;
  /** Skipped because the object changed in the workspace since the plan (a UI save): not written over. */
  stale?: true;
  /** For a kind that versions its objects (KindModule.versionOf), the version a write replaced and the one it made. */
  versions?: WriteVersions;
  durationMs: number;
}

export interface WriteVersions {
  replaced?: number;
  written?: number;
}

export interface ApplyResult {
  created: number;
  updated: number;
  replaced: number;
  deleted: number;
  adopted: number;
  /** Dropped from the inventory by `wsync/mode: abandon`, left live. */
  abandoned: number;
  failed: number;
  skipped: number;
  /** Changes the plan found in sync. */
  unchanged: number;
  /** HTTP writes (POST/PUT/DELETE) attempted, as logical requests. */
  writes: number;
  durationMs: number;
  /** True when the signal stopped the run before every change was started. */
  aborted: boolean;
  events: ApplyEvent[];
}

/** The plan must not be applied: it has errors or refusals. Nothing was written. */
export class ApplyRefusedError extends Error {
  constructor(readonly reasons: string[]) {
    super(`apply refused, nothing was written:\n${reasons.map((r) => `  - ${safeMessage(r)}`).join('\n')}`);
    this.name = 'ApplyRefusedError';
  }
}

/** What a change reports when it is done: the object's id after it, and a note. */
export interface Done {
  id?: string;
  message?: string;
  stale?: true;
  versions?: WriteVersions;
}

/** Thrown inside a change to report it as skipped rather than failed. */
export class SkipChange extends Error {
  /** `stale`: the object changed in the workspace since the plan, and was not written over. */
  constructor(
    message: string,
    readonly stale = false,
  ) {
    super(message);
  }
}
