// Runs after tsc and gen-validators (npm run build): bundles the CLI from tsc's output
// (dist/cli/main.js) into dist/bundle/, whose entry, wsync.js, is what bin/wsync.js loads. Node's
// ES module loader resolves, reads and links a process's modules one by one (~95 of wsync's for
// `validate`, ~160 for `plan`); the bundle makes them a few dozen files at most
// (docs/incremental.md, "Start-up"). Each dynamic import, a command's registration or its action,
// stays one (a chunk of its own), so a run loads only its command's code, as from dist/.
// dist/bundle/metafile.json is esbuild's account of the output (which modules each chunk holds,
// what it imports); test/cli/import-graph.test.ts checks what a run can load through it.
// The library and the emulator (dist/emulator/index.js, dist/api/..., used by tests and benches)
// stay tsc's output, unbundled.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { wsync: 'dist/cli/main.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // A bundled CommonJS package (commander) calls require(), which an ES module does not have.
  banner: { js: "import { createRequire as __wsyncCreateRequire } from 'node:module'; const require = __wsyncCreateRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});
writeFileSync(join(outdir, 'metafile.json'), `${JSON.stringify(result.metafile, null, 1)}\n`);
