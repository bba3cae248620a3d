// Shared by the apply end-to-end tests: an in-process emulator over 127.0.0.1, the real CLI as a
// child process (bin/wsync.js loads dist/: build first), and the emulator's request log.
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS_PATH } from '../../src/core/writer-lease-record.js';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin', 'wsync.js');
export const TOKEN = 'apply-test-admin-token';

/** Obvious fake values for the secrets config-examples reads; long enough for the redactor. */
export const DEMO_SECRETS = {
  WSYNC_SLACK_WEBHOOK_URL: 'https://hooks.slack.example/services/T0/B0/demo-slack-secret-1',
  WSYNC_PAGERDUTY_ROUTING_KEY: 'demo-pagerduty-routing-key-1',
  WSYNC_INCIDENT_WEBHOOK_TOKEN: 'demo-incident-webhook-token-1',
};

export interface RequestEntry {
  method: string;
  path: string;
  status: number;
  at: string;
}

export type SeedObject = Record<string, unknown>;
export type WorkspaceDump = Record<string, SeedObject[] | undefined>;

export interface TestEmulator {
  url: string;
  close(): Promise<void>;
  requests(): Promise<RequestEntry[]>;
  clearRequests(): Promise<void>;
  /** POST/PUT/DELETE requests to /v2 since the last clear. */
  writes(): Promise<RequestEntry[]>;
  faults(settings: Record<string, unknown>): Promise<void>;
  seed(objects: Record<string, unknown>): Promise<void>;
  state(): Promise<WorkspaceDump>;
  /** Environment for the CLI: where the emulator is and its admin token. */
  env: Record<string, string>;
}

async function hook(url: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text === '' ? null : (JSON.parse(text) as unknown);
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({
    port: 0,
    token: TOKEN,
    seed: 1,
    seedFile: join(ROOT, 'scripts', 'demo-seed.json'),
    ...options,
  });
  const { url } = emulator;
  const requests = async (): Promise<RequestEntry[]> => (await hook(url, 'GET', '/_emulator/requests')) as RequestEntry[];
  return {
    url,
    close: () => emulator.close(),
    requests,
    clearRequests: async () => {
      await hook(url, 'DELETE', '/_emulator/requests');
    },
    // The writer lease (src/reconcile/writer-lease.ts) is wsync marking the workspace, not a change to it.
    writes: async () => (await requests()).filter((r) => r.method !== 'GET' && r.path.startsWith('/v2/') && !r.path.startsWith(GROUPS_PATH)),
    faults: async (settings) => {
      await hook(url, 'POST', '/_emulator/faults', settings);
    },
    seed: async (objects) => {
      await hook(url, 'POST', '/_emulator/seed', objects);
    },
    state: async () => (await hook(url, 'GET', '/_emulator/state')) as WorkspaceDump,
    env: { WSYNC_URL: url, WSYNC_TOKEN: TOKEN },
  };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: nothing of the outer WSYNC_* settings, no colours. */
export function cliEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: tmpdir(), NO_COLOR: '1' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export function spawnCli(args: string[], env: Record<string, string | undefined>, cwd = ROOT): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

export function runCli(args: string[], env: Record<string, string | undefined>, cwd = ROOT): Promise<CliResult> {
  return collect(spawnCli(args, env, cwd));
}

export async function tempDir(prefix = 'wsync-apply-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A copy of config-examples in a fresh temp dir (so tests can edit it and keep state beside it). */
export async function copyExamples(): Promise<string> {
  const dir = await tempDir();
  await cp(join(ROOT, 'config-examples'), join(dir, 'tree'), { recursive: true });
  return join(dir, 'tree');
}

export async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface InventoryFile {
  version: number;
  entries: { kind: string; key: string; id: string; secretHashes?: Record<string, string>; pruneDisabled?: boolean }[];
}

export async function readInventory(stateDir: string): Promise<InventoryFile> {
  return JSON.parse(await readFile(join(stateDir, 'inventory.json'), 'utf8')) as InventoryFile;
}

/** A YAML document of one resource. */
export function resource(kind: string, name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): string {
  const meta = annotations
    ? `metadata:\n  name: ${JSON.stringify(name)}\n  annotations:\n${Object.entries(annotations)
        .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
        .join('\n')}\n`
    : `metadata:\n  name: ${JSON.stringify(name)}\n`;
  return `apiVersion: wsync/v1\nkind: ${kind}\n${meta}spec: ${JSON.stringify(spec)}\n`;
}

/** Natural key -> count, per seed-file collection, to find duplicates. */
export function duplicates(state: WorkspaceDump): string[] {
  const out: string[] = [];
  const keyOf: Record<string, (o: SeedObject) => string> = {
    notifiers: (o) => String(o.name),
    monitors: (o) => String(o.name),
    roles: (o) => String(o.name),
    users: (o) => String(o.email).toLowerCase(),
    vfields: (o) => `${String(o.dataset)}/${String(o.name)}`,
    starredQueries: (o) => `${String(o.who)}/${String(o.name)}`,
    annotations: (o) => `${String(o.type)}/${String(o.title)}`,
    tokens: (o) => String(o.name),
    orgs: (o) => String(o.name),
  };
  for (const [collection, key] of Object.entries(keyOf)) {
    const seen = new Map<string, number>();
    for (const object of liveObjects(state, collection)) seen.set(key(object), (seen.get(key(object)) ?? 0) + 1);
    for (const [k, n] of seen) if (n > 1) out.push(`${collection}/${k} x${n}`);
  }
  return out;
}

/** Objects of a collection in a state dump; tokens that expired (regenerated away) do not count. */
export function liveObjects(state: WorkspaceDump, collection: string): SeedObject[] {
  const now = Date.now();
  return (state[collection] ?? []).filter(
    (o) => collection !== 'tokens' || typeof o.expiresAt !== 'string' || Date.parse(o.expiresAt) > now,
  );
}

export function named(state: WorkspaceDump, collection: string, name: string): SeedObject | undefined {
  return liveObjects(state, collection).find((o) => o.name === name || o.email === name || o.title === name);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface Workspace {
  emulator: TestEmulator;
  tree: string;
  stateDir: string;
  env: Record<string, string>;
  apply(args?: string[], extraEnv?: Record<string, string>): Promise<CliResult>;
  plan(args?: string[], extraEnv?: Record<string, string>): Promise<CliResult>;
  dispose(): Promise<void>;
}

/** config-examples (plus `extraFiles`) in a temp dir, with an emulator; `applied` runs one apply first. */
export async function examplesWorkspace(
  options: { extraFiles?: Record<string, string>; applied?: boolean; emulator?: EmulatorOptions } = {},
): Promise<Workspace> {
  const emulator = await startTestEmulator(options.emulator);
  const tree = await copyExamples();
  if (options.extraFiles) await writeTree(tree, options.extraFiles);
  const stateDir = join(tree, '.wsync');
  const env = { ...emulator.env, ...DEMO_SECRETS };
  const workspace: Workspace = {
    emulator,
    tree,
    stateDir,
    env,
    apply: (args = [], extraEnv = {}) => runCli(['apply', tree, ...args], { ...env, ...extraEnv }),
    plan: (args = [], extraEnv = {}) => runCli(['plan', tree, ...args], { ...env, ...extraEnv }),
    dispose: async () => {
      await emulator.close();
      await removeDir(dirname(tree));
    },
  };
  if (options.applied) {
    const first = await workspace.apply();
    if (first.code !== 0) throw new Error(`the first apply failed (${first.code}):\n${first.stdout}\n${first.stderr}`);
    await emulator.clearRequests();
  }
  return workspace;
}

export function idOf(state: WorkspaceDump, collection: string, name: string): string {
  const object = named(state, collection, name);
  if (!object || typeof object.id !== 'string') throw new Error(`no ${collection} named ${name} in the emulator`);
  return object.id;
}
