import type { ConnectionConfig } from '../api/types.js';
import type { Policy } from '../core/types.js';
import type { MarkSetup } from '../reconcile/revision-marks.js';
import type { Clock } from './clock.js';
import type { FreezeWindow } from './freeze.js';
import type { WriteBackSetup } from '../reconcile/write-back/publish.js';
import type { TreeLimits } from '../source/limits.js';
import type { ListenAddress } from './http.js';
import type { Logger } from './logger.js';
import type { NotificationTarget } from './notify/dispatcher.js';

/** What SIGHUP reads again: environment, wsync.yaml and token file (flags are fixed for the process's life). */
export interface ReloadedConfig {
  connection: ConnectionConfig;
  freeze: FreezeWindow[];
}

export interface DaemonConfig {
  /** DIR as given, made absolute: may be (or sit under) a git-sync symbolic link. */
  dir: string;
  stateDir: string;
  secretsDir?: string;
  /** Bounds on the tree read at each reconcile. */
  limits?: Partial<TreeLimits>;
  tokenOutputDir?: string;
  listen: ListenAddress;
  /** Cron expression of the drift-correcting resync; null: none. */
  resync: string | null;
  debounceMs: number;
  /** `policy.mode` observe: plan and report drift, never write. */
  policy: Policy;
  concurrency?: number;
  env: Record<string, string | undefined>;
  connection: ConnectionConfig;
  /** Re-reads what SIGHUP may change (the connection, the freeze windows); throws when it no longer resolves. */
  reloadConfig: () => ReloadedConfig;
  logger: Logger;
  backoff?: { initialMs: number; maxMs: number };
  /** Where reconcile failures, refusals, drift (observe mode) and recoveries are posted. */
  notifications?: { targets: NotificationTarget[]; timeoutMs?: number };
  /** The token POST /suspend, /resume and /reconcile require; absent: those are off. */
  controlToken?: () => string;
  /** The status page and /status require the control token too (--status-auth). */
  statusAuth?: boolean;
  /** Start suspended (WSYNC_SUSPEND=1): plan and report, write nothing until resumed. */
  suspended?: boolean;
  /** wsync's version, for wsync_build_info. */
  version?: string;
  /** How long a reconcile after a file edit may reuse the last live read (default 5 minutes; 0: never). */
  liveReuseMs?: number;
  /** Mark each revision a reconcile wrote: an annotation on the datasets written, a commit status (#26.3). */
  revisionMarks?: MarkSetup;
  /** The environment of wsync.yaml this daemon renders and syncs (--env). */
  environment?: string;
  /** Freeze windows (--freeze, WSYNC_FREEZE, wsync.yaml `freeze`): inside one, reconciles plan and report, nothing is written. */
  freeze?: FreezeWindow[];
  /** The time freeze windows are judged by, and the timer that reconciles when one ends (tests: a FakeClock). */
  clock?: Clock;
  /** Write drift made in the workspace back to a branch of the synced repository, as a pull request (#26.2). */
  writeBack?: WriteBackSetup;
  /** false: one workspace of several (wsync run --env A --env B), whose port the MultiDaemon serves. */
  serve?: boolean;
  /** false: leave out the process metrics (another workspace of the same process reports them). */
  processMetrics?: boolean;
}
