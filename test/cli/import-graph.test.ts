// Every wsync process loads main.ts and a command's registration (command.ts: the one a run names,
// every one for `wsync --help`) before it does anything; what those modules import statically,
// every command pays for at start-up, `wsync validate` included. These tests walk the modules as
// tsc emits them (imports used only as types are gone), and the chunks of the CLI's bundle that
// `npm run build` makes of them (dist/bundle/, what bin/wsync.js runs; esbuild's metafile.json says
// which modules each chunk holds and what it imports), and fail when a start-up path reaches a
// module that belongs to another command: the HTTP client (undici), the GitHub client, the daemon's
// logger, metrics, watcher and schedule, the emulator. An action's own dependencies load in the
// action (a dynamic import: in the bundle, a chunk loaded when the command runs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const SRC = join(ROOT, 'src');
const BUNDLE_META = join(ROOT, 'dist', 'bundle', 'metafile.json');

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

/** What esbuild's metafile says of each file of the bundle (paths relative to the repository). */
interface BundleOutput {
  imports: { path: string; kind: string; external?: boolean }[];
  inputs: Record<string, unknown>;
  entryPoint?: string;
}

let bundleOutputs: Record<string, BundleOutput> | undefined;

function bundle(): Record<string, BundleOutput> {
  if (!existsSync(BUNDLE_META)) throw new Error('dist/bundle/metafile.json is missing: run `npm run build` first');
  bundleOutputs ??= (JSON.parse(readFileSync(BUNDLE_META, 'utf8')) as { outputs: Record<string, BundleOutput> }).outputs;
  return bundleOutputs;
}

/** The name the walk of src/ gives a module of the bundle: `api/http.ts` for dist/api/http.js, `commander/lib/command.js` for a bundled package's file. */
function sourceName(input: string): string {
  const inPackage = /(?:^|\/)node_modules\/(.+)$/.exec(input);
  if (inPackage) return inPackage[1] ?? input;
  return input.replace(/^dist\//, '').replace(/\.js$/, '.ts');
}

/** The chunk whose entry is the module `root` of src/ (`cli/main.ts`: the bundle's entry; a command's dynamically imported modules). */
function chunkOf(root: string): string {
  const entryPoint = `dist/${root.replace(/\.ts$/, '.js')}`;
  const chunk = Object.entries(bundle()).find(([, output]) => output.entryPoint === entryPoint)?.[0];
  if (chunk === undefined) throw new Error(`no chunk of dist/bundle/ is made from ${entryPoint}`);
  return chunk;
}

/**
 * What loading the chunks of `roots` loads: the chunks they import statically, the modules those
 * hold (named as in src/) and the packages they import from node_modules, each with the edge that
 * first reached it.
 */
function bundleGraph(roots: string[]): Map<string, Edge | undefined> {
  const outputs = bundle();
  const reached = new Map<string, Edge | undefined>();
  const queue = roots.map(chunkOf);
  for (const chunk of queue) reached.set(chunk, undefined);
  const reach = (from: string, to: string): boolean => !reached.has(to) && reached.set(to, { from, to }) !== undefined;
  while (queue.length > 0) {
    const chunk = queue.shift() ?? '';
    const output = outputs[chunk];
    for (const input of Object.keys(output?.inputs ?? {})) reach(chunk, sourceName(input));
    for (const imported of output?.imports ?? []) {
      if (imported.kind !== 'import-statement' || imported.path.startsWith('node:')) continue;
      if (reach(chunk, imported.path) && imported.external !== true) queue.push(imported.path);
    }
  }
  return reached;
}

const GRAPHS = [
  { walked: 'the modules tsc emits', graph: staticGraph },
  { walked: 'the chunks of the bundle', graph: bundleGraph },
];

describe.each(GRAPHS)('what a wsync process loads before its command runs ($walked)', ({ graph: walk }) => {
  it('the command table (main.ts and every command registration) loads no HTTP, GitHub, logger, metrics, watcher, schedule or emulator module', () => {
    const graph = walk(COMMAND_TABLE);
    expect(graph.has('cli/commands/validate/command.ts') && graph.has('cli/commands/run/command.ts') && graph.has('cli/policy.ts')).toBe(true);
    expect(forbiddenIn(graph, NETWORK_AND_DAEMON)).toEqual([]);
  });

  it('validate, which never speaks HTTP, loads none of them either', () => {
    const graph = walk([...COMMAND_TABLE, 'cli/commands/validate/action.ts']);
    expect(graph.has('source/index.ts')).toBe(true);
    expect(forbiddenIn(graph, NETWORK_AND_DAEMON)).toEqual([]);
  });

  it('plan, which speaks HTTP, loads no daemon module (logger, metrics, watcher, schedule), no emulator and not the whole diff package', () => {
    const graph = walk([...COMMAND_TABLE, 'cli/commands/plan/action.ts']);
    expect(graph.has('api/http.ts')).toBe(true);
    expect(forbiddenIn(graph, ['pino', 'pino-pretty', 'prom-client', 'chokidar', 'node-cron', 'emulator/', 'daemon/'])).toEqual([]);
    // The package's index loads every diff and patch module; render/field-diff.ts takes the word diff's.
    expect([...graph.keys()].filter((name) => name === 'diff' || /^diff\/lib\w*\/index\.js$/.test(name))).toEqual([]);
  });
});

describe('the CLI\'s bundle (dist/bundle/)', () => {
  it('is made from tsc\'s dist/cli/main.js, and bin/wsync.js runs it', () => {
    expect(chunkOf('cli/main.ts')).toBe('dist/bundle/wsync.js');
    expect(readFileSync(join(ROOT, 'bin', 'wsync.js'), 'utf8')).toContain("from '../dist/bundle/wsync.js'");
  });

  it('loads a command\'s registration and action only when a run names that command: each is a chunk of its own, outside the entry\'s', () => {
    const entry = bundleGraph(['cli/main.ts']);
    const commands = COMMAND_TABLE.filter((root) => root !== 'cli/main.ts');
    expect(commands.length).toBeGreaterThan(10);
    for (const registration of commands) {
      expect(entry.has(chunkOf(registration)), registration).toBe(false);
      expect(entry.has(registration), registration).toBe(false);
    }
    expect([...entry.keys()].filter((name) => /^cli\/commands\/[^/]+\/action\.ts$/.test(name))).toEqual([]);
    expect(entry.has('commander/lib/command.js')).toBe(true);
  });

  it('holds what the entry loads in one chunk beside the entry\'s own: a command\'s chunks load after it, so they share it whole', () => {
    const entry = bundleGraph(['cli/main.ts']);
    expect([...entry.keys()].filter((name) => name.startsWith('dist/bundle/'))).toEqual(['dist/bundle/wsync.js', expect.stringMatching(/^dist\/bundle\/chunk-\w+\.js$/)]);
  });

  it('imports only Node\'s modules and the package\'s dependencies; pino, pino-pretty and thread-stream stay in node_modules', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const outputs = Object.values(bundle());
    const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
    const imported = new Set(outputs.flatMap((output) => output.imports.filter((i) => i.external === true && !isBuiltin(i.path)).map((i) => packageOf(i.path))));
    expect([...imported].filter((name) => !(name in manifest.dependencies))).toEqual([]);
    expect(imported).toContain('pino');
    const bundled = new Set(outputs.flatMap((output) => Object.keys(output.inputs).map(sourceName)).filter((name) => !name.endsWith('.ts')).map(packageOf));
    expect([...bundled].filter((name) => ['pino', 'pino-pretty', 'thread-stream', 'undici'].includes(name))).toEqual([]);
  });
});

describe('the walk of the modules tsc emits', () => {
  it('sees what a module loads: api/client.ts reaches undici through api/http.ts', () => {
    const graph = staticGraph(['api/client.ts']);
    expect(forbiddenIn(graph, ['undici'])).toEqual([
      expect.stringMatching(/^api\/client\.ts -> .*api\/http\.ts -> undici\/lib\/dispatcher\/agent\.js$/),
      expect.stringMatching(/^api\/client\.ts -> .*api\/http\.ts -> undici\/lib\/api\/api-request\.js$/),
    ]);
  });
});
