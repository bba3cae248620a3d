// wsync's own credentials (the API token, the control token, the notification keys and URLs), as
// the commands read them: `${env:}` and `${file:}` must never copy one into an object, whose
// notifier or webhook may send it anywhere (src/source/interpolate/interpolate.ts checks against this list).
//
// Each run of the CLI keeps its own (`withOwnCredentials`, src/cli/main.ts): two runs in one
// process (the tests' in-process CLI, a daemon beside a command) never see each other's. The
// registry follows the run through its async work (AsyncLocalStorage), so the layers between the
// command and the source need not carry it. A process that is one run (bin/wsync.js) needs no
// scope: what it reads outside any run is its run's (src/cli/main.ts, mainOfProcess).
import type { AsyncLocalStorage } from 'node:async_hooks';

export interface OwnCredential {
  /** What it is, for messages (never its value): "the API token". */
  what: string;
  /** The file it is read from, when it is one. */
  path?: string;
  /** Its current value ('' when it cannot be had). */
  value: () => string;
}

/** One entry per credential: a re-read configuration (SIGHUP) replaces the earlier one. */
type Registry = Map<string, OwnCredential>;

/**
 * Made by the first run with a registry of its own. Once a store has been entered, Node tracks
 * every promise of the process for it (promise hooks): a process that never needs one never pays.
 */
let scope: AsyncLocalStorage<Registry> | undefined;
/** The registries of the runs in progress. */
const running = new Set<Registry>();
/** Credentials read outside any run (a library caller, a test calling the layers directly, the one run of bin/wsync.js). */
const outside: Registry = new Map();

/** Runs `work` with a registry of its own, empty at the start and dropped at the end. */
export async function withOwnCredentials<T>(work: () => Promise<T>): Promise<T> {
  const registry: Registry = new Map();
  running.add(registry);
  try {
    scope ??= new (process.getBuiltinModule('node:async_hooks').AsyncLocalStorage)<Registry>();
    return await scope.run(registry, work);
  } finally {
    running.delete(registry);
  }
}

/** Called where a command reads one of its credentials (src/api/token-source.ts). */
export function registerOwnCredential(credential: OwnCredential): void {
  (scope?.getStore() ?? outside).set(credential.what, credential);
}

/** Forgets those of the current run (or those read outside any run). */
export function forgetOwnCredentials(): void {
  (scope?.getStore() ?? outside).clear();
}

/**
 * The credentials of the current run. Where no run is current (work that lost its run's context,
 * or a caller outside any), those of every run in progress and those read outside: a refusal too
 * many, never one too few.
 */
export function registeredOwnCredentials(): OwnCredential[] {
  const current = scope?.getStore();
  if (current) return [...current.values()];
  return [...outside.values(), ...[...running].flatMap((registry) => [...registry.values()])];
}
