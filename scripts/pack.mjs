#!/usr/bin/env node
// npm run pack [-- --out DIR]: the release tarball, wsync-VERSION.tgz, from the built dist/ (run
// `npm run build` first). It holds what package.json "files" lists, a package.json without
// scripts or devDependencies (nothing for `npm install -g` to run, or to ask the user to allow),
// an npm-shrinkwrap.json made from package-lock.json, and the runtime dependencies themselves,
// installed from that shrinkwrap and bundled: npm does not honour a shrinkwrap inside a tarball
// given by path (it resolves the ranges again, and on Node 22 picked a newer pino-pretty
// dependency than the tests ran with), so the tarball carries exactly the tested versions and
// installs without the registry.
// Prints the tarball's path. The release workflow and test/package/tarball.e2e.test.ts both use it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = resolve(outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1] : '.');

function fail(message) {
  process.stderr.write(`pack: ${message}\n`);
  process.exit(1);
}

for (const built of ['dist/bundle/wsync.js', 'dist/cli/main.js', 'dist/source/validate/validators/monitor.cjs']) {
  if (!existsSync(join(root, built))) fail(`${built} is missing: run \`npm run build\` first`);
}

const npm = (cwd, ...npmArgs) =>
  execFileSync('npm', [...npmArgs, '--ignore-scripts', '--json', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

/** Drops what only a checkout needs: scripts (`prepare` builds there) and the dev dependencies. */
function published(manifest) {
  const { scripts: _scripts, devDependencies: _dev, ...rest } = manifest;
  return rest;
}

function shrinkwrap(lock, manifest) {
  const packages = {};
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '') packages[path] = { ...published(entry), name: manifest.name, version: manifest.version };
    else if (!entry.dev) packages[path] = entry;
  }
  return { name: manifest.name, version: manifest.version, lockfileVersion: lock.lockfileVersion, requires: true, packages: hoisted(packages) };
}

/**
 * Without the dev tree, a copy that the lock nests under its dependent (because a dev dependency
 * held the top-level name) is moved to the top level, where npm puts it: npm does not honour a
 * nested place it would not choose, and resolves the range again (pino-pretty's
 * strip-json-comments ^5.0.3 became 5.1.0, which needs Node 22, instead of the locked 5.0.3).
 */
function hoisted(packages) {
  const out = { ...packages };
  const nested = Object.keys(out)
    .filter((path) => path.indexOf('/node_modules/') > 0)
    .sort((a, b) => a.split('/node_modules/').length - b.split('/node_modules/').length || a.localeCompare(b));
  for (const path of nested) {
    if (!(path in out)) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const top = `node_modules/${name}`;
    if (top in out) continue;
    for (const inner of Object.keys(out)) {
      if (inner !== path && !inner.startsWith(`${path}/`)) continue;
      out[`${top}${inner.slice(path.length)}`] = out[inner];
      delete out[inner];
    }
  }
  return out;
}

// The file list comes from npm itself, so package.json "files" stays the one place that says it.
const [listing] = JSON.parse(npm(root, 'pack', '--dry-run'));
const stage = mkdtempSync(join(tmpdir(), 'wsync-pack-'));
try {
  for (const { path } of listing.files) {
    if (path === 'package.json') continue;
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    cpSync(join(root, path), join(stage, path));
  }
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published(manifest), null, 2)}\n`);
  writeFileSync(join(stage, 'npm-shrinkwrap.json'), `${JSON.stringify(shrinkwrap(lock, manifest), null, 2)}\n`);
  // The locked runtime dependencies (from the npm cache `npm ci` filled), bundled into the tarball.
  execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: stage,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify({ ...published(manifest), bundleDependencies: true }, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const [packed] = JSON.parse(npm(stage, 'pack', '--pack-destination', out));
  process.stdout.write(`${join(out, packed.filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
