// config-examples/ in a temp dir with its own emulator, and readers for what apply leaves behind:
// the emulator's state dump and the inventory file.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { runCli, type CliResult } from './cli.js';
import { startTestEmulator, type SeedObject, type TestEmulator, type WorkspaceDump } from './emulator.js';
import { DEMO_SEED_FILE } from './paths.js';
import { copyExamples, removeDir, tempDir, writeTree, type Files } from './tree.js';

/** Obvious fake values for the secrets config-examples reads; long enough for the redactor. */
export const DEMO_SECRETS = {
  WSYNC_SLACK_WEBHOOK_URL: 'https://hooks.slack.example/services/T0/B0/demo-slack-secret-1',
  WSYNC_PAGERDUTY_ROUTING_KEY: 'demo-pagerduty-routing-key-1',
  WSYNC_INCIDENT_WEBHOOK_TOKEN: 'demo-incident-webhook-token-1',
};

export interface Workspace {
  emulator: TestEmulator;
  /** The copy of config-examples/. */
  tree: string;
  /** The temp dir holding the tree: room for plan files and other state. */
  scratch: string;
  /** Where apply keeps its state by default: `<tree>/.wsync`. */
  stateDir: string;
  /** The emulator's URL and token plus DEMO_SECRETS. */
  env: Record<string, string>;
  apply(args?: string[], extraEnv?: Record<string, string>): Promise<CliResult>;
  plan(args?: string[], extraEnv?: Record<string, string>): Promise<CliResult>;
  dispose(): Promise<void>;
}

/**
 * config-examples (plus `extraFiles`) in a temp dir, with an emulator holding the demo seed;
 * `applied` runs one apply first and clears the request log.
 */
export async function examplesWorkspace(
  options: { extraFiles?: Files; applied?: boolean; emulator?: EmulatorOptions } = {},
): Promise<Workspace> {
  const emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE, ...options.emulator });
  const scratch = await tempDir('wsync-workspace-');
  const tree = await copyExamples(scratch);
  if (options.extraFiles) await writeTree(tree, options.extraFiles);
  const env = { ...emulator.env, ...DEMO_SECRETS };
  const workspace: Workspace = {
    emulator,
    tree,
    scratch,
    stateDir: join(tree, '.wsync'),
    env,
    apply: (args = [], extraEnv = {}) => runCli(['apply', tree, ...args], { env: { ...env, ...extraEnv } }),
    plan: (args = [], extraEnv = {}) => runCli(['plan', tree, ...args], { env: { ...env, ...extraEnv } }),
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

export interface InventoryFile {
  version: number;
  entries: { kind: string; key: string; id: string; secretHashes?: Record<string, string>; pruneDisabled?: boolean }[];
}

export async function readInventory(stateDir: string): Promise<InventoryFile> {
  return JSON.parse(await readFile(join(stateDir, 'inventory.json'), 'utf8')) as InventoryFile;
}

/** Objects of a collection in a state dump; tokens that expired (regenerated away) do not count. */
export function liveObjects(state: WorkspaceDump, collection: string): SeedObject[] {
  const now = Date.now();
  return (state[collection] ?? []).filter(
    (o) => collection !== 'tokens' || typeof o.expiresAt !== 'string' || Date.parse(o.expiresAt) > now,
  );
}

/** The live object of a collection with this name, email or title. */
export function named(state: WorkspaceDump, collection: string, name: string): SeedObject | undefined {
  return liveObjects(state, collection).find((o) => o.name === name || o.email === name || o.title === name);
}

export function idOf(state: WorkspaceDump, collection: string, name: string): string {
  const object = named(state, collection, name);
  if (!object || typeof object.id !== 'string') throw new Error(`no ${collection} named ${name} in the emulator`);
  return object.id;
}

const NATURAL_KEYS: Record<string, (o: SeedObject) => string> = {
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

/** `collection/key xN` for every natural key that more than one live object has. */
export function duplicates(state: WorkspaceDump): string[] {
  const out: string[] = [];
  for (const [collection, key] of Object.entries(NATURAL_KEYS)) {
    const seen = new Map<string, number>();
    for (const object of liveObjects(state, collection)) seen.set(key(object), (seen.get(key(object)) ?? 0) + 1);
    for (const [k, n] of seen) if (n > 1) out.push(`${collection}/${k} x${n}`);
  }
  return out;
}
