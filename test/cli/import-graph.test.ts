// Every wsync process loads main.ts and a command's registration (command.ts: the one a run names,
// every one for `wsync --help`) before it does anything; what those modules import statically,
// every command pays for at start-up, `wsync validate` included. These tests walk the modules as tsc emits them (imports used
// only as types are gone) and fail when a start-up path reaches a module that belongs to another
// command: the HTTP client (undici), the GitHub client, the daemon's logger, metrics, watcher and
// schedule, the emulator. An action's own dependencies load in the action (a dynamic import).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const SRC = join(ROOT, 'src');

/** What a start-up path must not load: packages, and our modules (paths under src/). */
const NETWORK_AND_DAEMON = ['undici', 'pino', 'pino-pretty', 'prom-client', 'chokidar', 'node-cron', 'api/http.ts', 'api/github.ts', 'emulator/'];

interface Edge {
  from: string;
  to: string;
}

const specifiersOf = new Map<string, string[]>();

/** The specifiers a module loads when it is evaluated: its emitted static imports and re-exports, and every literal require(). */
function staticSpecifiers(file: string): string[] {
  let specifiers = specifiersOf.get(file);
  if (specifiers === undefined) specifiersOf.set(file, (specifiers = emittedSpecifiers(file)));
  return specifiers;
}

function emittedSpecifiers(file: string): string[] {
  const emitted = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: file,
  }).outputText;
  const specifiers: string[] = [];
  for (const match of emitted.matchAll(/^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm)) specifiers.push(match[1] ?? '');
  // Conservative: a require() inside a function is counted as if it ran at load.
  for (const match of emitted.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(match[1] ?? '');
  return specifiers;
}

/** Every module (src paths, and package specifiers: `undici/lib/...`) reachable by static imports from `roots`, with the edge that first reached it. */
function staticGraph(roots: string[]): Map<string, Edge | undefined> {
  const reached = new Map<string, Edge | undefined>();
  const queue = roots.map((root) => join(SRC, root));
  for (const root of queue) reached.set(relative(SRC, root), undefined);
  while (queue.length > 0) {
    const file = queue.shift() ?? '';
    const from = relative(SRC, file);
    for (const specifier of staticSpecifiers(file)) {
      if (specifier.startsWith('node:')) continue;
      const target = specifier.startsWith('.') ? resolve(dirname(file), specifier).replace(/\.js$/, '.ts') : undefined;
      const name = target === undefined ? specifier : relative(SRC, target);
      if (reached.has(name)) continue;
      reached.set(name, { from, to: name });
      if (target !== undefined) queue.push(target);
    }
  }
  return reached;
}

/** The import chain from a root to `name`, e.g. "cli/main.ts -> cli/commands/index.ts -> undici". */
function chain(graph: Map<string, Edge | undefined>, name: string): string {
  const path = [name];
  for (let edge = graph.get(name); edge !== undefined; edge = graph.get(edge.from)) path.unshift(edge.from);
  return path.join(' -> ');
}

/** What of `forbidden` the graph reaches: a package with any of its modules, a folder of src/ (`emulator/`), a module of src/. */
function forbiddenIn(graph: Map<string, Edge | undefined>, forbidden: string[]): string[] {
  const matches = (name: string, f: string): boolean => name === f || name.startsWith(f.endsWith('/') ? f : `${f}/`);
  return [...graph.keys()].filter((name) => forbidden.some((f) => matches(name, f))).map((name) => chain(graph, name));
}

/** main.ts and every command's registration (`wsync --help` loads them all). */
const COMMAND_TABLE = ['cli/main.ts', ...readdirSync(join(SRC, 'cli', 'commands')).filter((name) => existsSync(join(SRC, 'cli', 'commands', name, 'command.ts'))).map((name) => `cli/commands/${name}/command.ts`)];

describe('what a wsync process loads before its command runs', () => {
  it('the command table (main.ts and every command registration) loads no HTTP, GitHub, logger, metrics, watcher, schedule or emulator module', () => {
    const graph = staticGraph(COMMAND_TABLE);
    expect(graph.has('cli/commands/validate/command.ts') && graph.has('cli/commands/run/command.ts') && graph.has('cli/policy.ts')).toBe(true);
    expect(forbiddenIn(graph, NETWORK_AND_DAEMON)).toEqual([]);
  });

  it('validate, which never speaks HTTP, loads none of them either', () => {
    const graph = staticGraph([...COMMAND_TABLE, 'cli/commands/validate/action.ts']);
    expect(graph.has('source/index.ts')).toBe(true);
    expect(forbiddenIn(graph, NETWORK_AND_DAEMON)).toEqual([]);
  });

  it('plan, which speaks HTTP, loads no daemon module (logger, metrics, watcher, schedule), no emulator and not the whole diff package', () => {
    const graph = staticGraph([...COMMAND_TABLE, 'cli/commands/plan/action.ts']);
    expect(graph.has('api/http.ts')).toBe(true);
    expect(forbiddenIn(graph, ['pino', 'pino-pretty', 'prom-client', 'chokidar', 'node-cron', 'emulator/', 'daemon/'])).toEqual([]);
    // The package's index loads every diff and patch module; render/field-diff.ts takes the word diff's.
    expect(graph.has('diff')).toBe(false);
  });

  it('the walk sees what a module loads: api/client.ts reaches undici through api/http.ts', () => {
    const graph = staticGraph(['api/client.ts']);
    expect(forbiddenIn(graph, ['undici'])).toEqual([
      expect.stringMatching(/^api\/client\.ts -> .*api\/http\.ts -> undici\/lib\/dispatcher\/agent\.js$/),
      expect.stringMatching(/^api\/client\.ts -> .*api\/http\.ts -> undici\/lib\/api\/api-request\.js$/),
    ]);
  });
});
