// The real emulator over 127.0.0.1, in this process (startTestEmulator) or as `wsync emulator`
// (startEmulatorProcess), with its /_emulator test hooks (docs/wire-contract.md "Test hooks").
import { afterAll, beforeAll } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient, ConnectionConfig } from '../../src/api/types.js';
import { GROUPS_PATH } from '../../src/core/writer-lease-record.js';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { spawnCli, type CliOptions, type RunningCli } from './cli.js';

/** The admin token every test emulator is started with. */
export const TEST_TOKEN = 'wsync-test-admin-token';

export interface LoggedRequest {
  method: string;
  /** With the query string. */
  path: string;
  /** 0 when the connection was destroyed. */
  status: number;
  at: string;
}

export type SeedObject = Record<string, unknown>;
/** GET /_emulator/state: collection name (seed-file format) -> objects. */
export type WorkspaceDump = Record<string, SeedObject[] | undefined>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when empty. */
  body: unknown;
}

export interface CallOptions {
  body?: unknown;
  /** Another bearer token; null sends no Authorization header. Default: the admin token. */
  token?: string | null;
  /** Sent as is instead of `body`. */
  rawBody?: string;
}

export interface EmulatorClient {
  url: string;
  token: string;
  /** Environment for the CLI: where the emulator is and its admin token. */
  env: { WSYNC_URL: string; WSYNC_TOKEN: string };
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Like call, but throws unless the status is 2xx; returns the JSON body. */
  ok<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  /** POST/PUT/DELETE requests to /v2 since the last clear, but for the writer lease's. */
  writes(): Promise<LoggedRequest[]>;
  faults(settings: Record<string, unknown>): Promise<void>;
  seed(objects: Record<string, unknown>): Promise<void>;
  /** Objects stored exactly as given, unchecked (`POST /_emulator/stored`): odd objects real workspaces hold. */
  store(objects: Record<string, SeedObject[]>): Promise<void>;
  state(): Promise<WorkspaceDump>;
}

export interface TestEmulator extends EmulatorClient {
  close(): Promise<void>;
}

/** Talks to an emulator at `url` with its admin token. */
export function emulatorClient(url: string, token = TEST_TOKEN): EmulatorClient {
  const call: EmulatorClient['call'] = async (method, path, options = {}) => {
    const bearer = options.token === undefined ? token : options.token;
    const headers: Record<string, string> = {};
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const body = options.body === undefined ? options.rawBody : JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await call(method, path, { body });
    if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body as T;
  };
  const requests = (): Promise<LoggedRequest[]> => ok<LoggedRequest[]>('GET', '/_emulator/requests');
  return {
    url,
    token,
    env: { WSYNC_URL: url, WSYNC_TOKEN: token },
    call,
    ok,
    requests,
    clearRequests: async () => {
      await ok('DELETE', '/_emulator/requests');
    },
    // The writer lease (src/reconcile/writer-lease.ts) is wsync marking the workspace, not a change to it.
    writes: async () => (await requests()).filter((r) => r.method !== 'GET' && r.path.startsWith('/v2/') && !r.path.startsWith(GROUPS_PATH)),
    faults: async (settings) => {
      await ok('POST', '/_emulator/faults', settings);
    },
    seed: async (objects) => {
      await ok('POST', '/_emulator/seed', objects);
    },
    store: async (objects) => {
      await ok('POST', '/_emulator/stored', objects);
    },
    state: () => ok<WorkspaceDump>('GET', '/_emulator/state'),
  };
}

/** An emulator in this process on a free port; seed 1 (repeatable ids) unless told otherwise. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const token = options.token ?? TEST_TOKEN;
  const emulator = await startEmulator({ port: 0, seed: 1, ...options, token });
  return { ...emulatorClient(emulator.url, token), close: () => emulator.close() };
}

/**
 * One emulator for a whole test file: started in its beforeAll, closed in its afterAll. The
 * object can be held at the top of the file; it answers once the beforeAll has run.
 */
export function useTestEmulator(options: EmulatorOptions = {}): TestEmulator {
  let started: TestEmulator | undefined;
  beforeAll(async () => {
    started = await startTestEmulator(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const get = (): TestEmulator => {
    if (!started) throw new Error('useTestEmulator: used before its beforeAll ran');
    return started;
  };
  return {
    get url() {
      return get().url;
    },
    get token() {
      return get().token;
    },
    get env() {
      return get().env;
    },
    call: (method, path, callOptions) => get().call(method, path, callOptions),
    ok: <T>(method: string, path: string, body?: unknown) => get().ok<T>(method, path, body),
    requests: () => get().requests(),
    clearRequests: () => get().clearRequests(),
    writes: () => get().writes(),
    faults: (settings) => get().faults(settings),
    seed: (objects) => get().seed(objects),
    store: (objects) => get().store(objects),
    state: () => get().state(),
    close: () => get().close(),
  };
}

/** Our API client, pointed at the emulator with its admin token; retries wait 1 ms unless `config` says otherwise. Close it. */
export function apiClientFor(emulator: EmulatorClient, config: Partial<ConnectionConfig> = {}): ApiClient {
  return createApiClient({ url: emulator.url, token: () => emulator.token, retryBaseMs: 1, ...config });
}

export interface EmulatorProcess extends EmulatorClient {
  cli: RunningCli;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `wsync emulator --port 0 ...args` as a child process; resolves once it printed its URL (its first
 * stdout line). The admin token is `--token`, WSYNC_EMULATOR_TOKEN or TEST_TOKEN, in that order.
 */
export async function startEmulatorProcess(args: string[] = [], options: CliOptions = {}): Promise<EmulatorProcess> {
  const flagged = args.indexOf('--token');
  const token = flagged >= 0 ? (args[flagged + 1] ?? '') : (options.env?.WSYNC_EMULATOR_TOKEN ?? TEST_TOKEN);
  const env = { WSYNC_EMULATOR_TOKEN: token, ...options.env };
  const cli = spawnCli(['emulator', '--port', '0', ...args], { ...options, env });
  const line = await cli.firstLine();
  const url = /^listening on (http:\/\/\S+)$/.exec(line)?.[1];
  if (!url) {
    cli.child.kill('SIGKILL');
    throw new Error(`wsync emulator printed "${line}" instead of "listening on URL"; stderr: ${cli.stderr()}`);
  }
  return {
    ...emulatorClient(url, token),
    cli,
    stop: async (signal = 'SIGTERM') => {
      cli.child.kill(signal);
      return (await cli.done).code;
    },
  };
}
