// Runs after tsc and gen-validators (npm run build): bundles the CLI from tsc's output
// (dist/cli/main.js) into dist/bundle/, whose entry, wsync.js, is what bin/wsync.js loads. Node's
// ES module loader resolves, reads and links a process's modules one by one (~95 of wsync's for
// `validate`, ~160 for `plan`); the bundle makes them fewer, larger files
// (docs/incremental.md, "Start-up"). Each dynamic import, a command's registration or its action,
// stays one (a chunk of its own), so a run loads only its command's code, as from dist/.
// dist/bundle/metafile.json is esbuild's account of the output (which modules each chunk holds,
// what it imports); test/cli/import-graph.test.ts checks what a run can load through it.
// The library and the emulator (dist/emulator/index.js, dist/api/..., used by tests and benches)
// stay tsc's output, unbundled.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');

/**
 * The packages bundled: plain JavaScript on the start-up path of most commands. Every other
 * dependency stays a package that Node loads from node_modules: pino, pino-pretty and thread-stream
 * load files by path (transports in a worker), the daemon's packages (prom-client, chokidar,
 * node-cron) cost a `validate` nothing, and undici, yaml and ajv are required at run time, by path
 * or on first use (src/api/http.ts, src/source/parse/yaml-lib.ts, src/source/validate/validator.ts).
 */
const BUNDLED = new Set(['commander', 'js-yaml', 'diff', 'p-limit']);

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies).filter((name) => !BUNDLED.has(name));

const ENTRY = 'dist/cli/main.js';
const options = {
  absWorkingDir: root,
  entryPoints: { wsync: ENTRY },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // A bundled CommonJS package (commander) calls require(), which an ES module does not have; it is
  // made on the first call, not in each chunk as it loads.
  banner: {
    js: "import { createRequire as __wsyncCreateRequire } from 'node:module'; let __wsyncRequire; const require = (id) => (__wsyncRequire ??= __wsyncCreateRequire(import.meta.url))(id);",
  },
  metafile: true,
  logLevel: 'warning',
};

/** The modules reached from `from` by static imports (paths relative to the repository, as in a metafile). */
function staticClosure(inputs, from) {
  const reached = new Set([from]);
  for (const path of reached) {
    for (const imported of inputs[path]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) reached.add(imported.path);
  }
  return reached;
}

// esbuild puts a module shared by the entry and a dynamically imported module into a chunk of its
// own, one per set of importers, as if either could load first; but a command's modules load only
// after the entry's. So each dynamically imported module also imports the entry (at run time a
// module already evaluated): what the entry loads becomes one chunk, not a dozen small ones.
const { metafile: graph } = await build({ ...options, write: false });
const entryModules = staticClosure(graph.inputs, ENTRY);
const dynamicTargets = new Set(
  Object.values(graph.inputs)
    .flatMap((input) => input.imports.filter((imported) => imported.kind === 'dynamic-import' && !imported.external).map((imported) => imported.path))
    .filter((path) => !entryModules.has(path)),
);
const afterEntry = {
  name: 'after-entry',
  setup(bundler) {
    bundler.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!dynamicTargets.has(relative(root, args.path).split(sep).join('/'))) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: `${source}\nimport ${JSON.stringify(join(root, ENTRY))};\n`, loader: 'js' };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({ ...options, plugins: [afterEntry] });
writeFileSync(join(outdir, 'metafile.json'), `${JSON.stringify(result.metafile, null, 1)}\n`);
