// The Workspace API v2 emulator, started in-process: startEmulator(options) -> {url, port, close}.
// It shares no code with wsync's client side (docs/wire-contract.md is the agreement between them).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_ADMIN_TOKEN } from './constants.js';
import { updateAddOns } from './control.js';
import { Faults } from './faults.js';
import { KIND_MODULES } from './kinds/index.js';
import { StateFile } from './persistence.js';
import { mulberry32, randomSeed } from './prng.js';
import { DEFAULT_RATE_WINDOW_SECONDS, RateLimiter } from './rate-limit.js';
import { QUERY_ROUTES } from './query.js';
import { RequestLog } from './request-log.js';
import { Router } from './router.js';
import { exportSeed, importSeed } from './seed.js';
import { createRequestHandler } from './server.js';
import { Workspace } from './store.js';
import { warmValidators } from './validation.js';

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The admin token, with every capability. Default `wsync-emulator-admin`. */
  token?: string;
  /** Requests per rate window (a minute unless `rateWindowSeconds` says otherwise); unlimited when absent. */
  rateLimit?: number;
  /** Length of a rate window in seconds; default 60, as the docs' per-minute X-RateLimit-Limit. */
  rateWindowSeconds?: number;
  /** Seeds fault decisions and ids, so runs repeat. Random when absent. */
  seed?: number;
  /** Probability (0..1) of answering 500/502/503 instead of handling a request. */
  faultRate?: number;
  /** Each request waits a uniform random delay in [min, max] ms before it is handled. */
  latencyMs?: [number, number];
  /** Probability of destroying the connection before any answer (nothing is applied). */
  resetRate?: number;
  /** Probability, for a successful POST/PUT/DELETE, of applying it and destroying the connection. */
  dropAfterWriteRate?: number;
  /** Persist the workspace to this JSON file and reload it at start. */
  stateFile?: string;
  /** Preload objects from this seed file (skipped when --state reloaded an existing file). */
  seedFile?: string;
  /** Print one line per request to stderr. */
  logRequests?: boolean;
  /** false: a workspace without the RBAC add-on, whose /v2/rbac/* paths answer `rbacStatus`. Default true. */
  rbac?: boolean;
  /** What /v2/rbac/* answers without RBAC: 403 (the default) or 404. */
  rbacStatus?: 403 | 404;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

export { DEFAULT_ADMIN_TOKEN } from './constants.js';

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? randomSeed();
  const faults = new Faults({ faultRate: 0, latencyMs: null, resetRate: 0, dropAfterWriteRate: 0, rateLimit: null, rateWindowSeconds: DEFAULT_RATE_WINDOW_SECONDS, seed });
  // The same checks as POST /_emulator/faults, so a bad option fails at start with a clear message.
  const { faultRate, latencyMs, resetRate, dropAfterWriteRate, rateLimit, rateWindowSeconds } = options;
  const given = Object.entries({ faultRate, latencyMs, resetRate, dropAfterWriteRate, rateLimit, rateWindowSeconds });
  try {
    faults.update(Object.fromEntries(given.filter(([, value]) => value !== undefined)));
  } catch (error) {
    throw new Error(`emulator options: ${(error as Error).message}`);
  }
  const limiter = new RateLimiter(options.rateLimit, faults.settings.rateWindowSeconds);
  // Ids draw from their own stream, so changing fault settings does not change ids.
  const workspace = new Workspace(mulberry32(seed ^ 0x5eed1d5), { rateLimitPerSecond: () => Math.max(1, Math.floor(limiter.limit / limiter.window)) });
  updateAddOns(workspace.addOns, { rbac: options.rbac ?? true, rbacStatus: options.rbacStatus ?? 403 });
  const routes = [...KIND_MODULES.flatMap((module) => module.routes), ...QUERY_ROUTES];
  warmValidators();

  const stateFile = options.stateFile ? new StateFile(options.stateFile, () => exportSeed(workspace)) : undefined;
  const saved = stateFile?.load();
  if (saved !== undefined) {
    importSeed(workspace, saved, `state file ${options.stateFile ?? ''}`);
  } else if (options.seedFile) {
    const text = await readFile(options.seedFile, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`seed file ${options.seedFile} is not valid JSON: ${(error as Error).message}`);
    }
    importSeed(workspace, parsed, `seed file ${options.seedFile}`);
  }
  if (stateFile) {
    workspace.onChange(() => stateFile.schedule());
    stateFile.schedule();
  }

  const server = createServer(
    createRequestHandler({
      workspace,
      faults,
      limiter,
      log: new RequestLog(),
      adminToken: options.token ?? DEFAULT_ADMIN_TOKEN,
      router: new Router(routes),
      logRequests: options.logRequests ?? false,
    }),
  );
  server.keepAliveTimeout = 10_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await stateFile?.flush();
      })();
      return closing;
    },
  };
}
