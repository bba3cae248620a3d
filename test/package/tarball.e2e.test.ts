// The release tarball as a user gets it: `npm run tarball` (scripts/pack.mjs) packs the built
// dist/, `npm install -g --prefix EMPTY ./wsync-X.tgz` installs it (its dependencies from the npm
// cache that `npm ci` filled), and the installed `wsync` validates and plans config-examples
// against the emulator from a directory outside the checkout.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { delimiter, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportNameOf } from '../../src/source/validate/validator.js';
import { useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE, ROOT } from '../support/paths.js';
import { copyExamples, useScratch } from '../support/tree.js';
import { DEMO_SECRETS } from '../support/workspace.js';

const run = promisify(execFile);
const root = ROOT;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
// The node running the tests first on PATH: `#!/usr/bin/env node` of the installed bin finds it.
const PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** What the tarball must hold: the package files, the schemas, dist/ built from exactly src/ and the CLI's bundle (dist/bundle/, what bin/wsync.js runs). */
function expectedFiles(): string[] {
  const compiled = filesUnder(join(root, 'src'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js'));
  const bundle = filesUnder(join(root, 'dist', 'bundle')).filter((file) => file.endsWith('.js'));
  const schemas = filesUnder(join(root, 'schemas')).filter((file) => file.endsWith('.json'));
  const readme = readdirSync(root).filter((file) => /^(README|LICENSE|LICENCE)(\..*)?$/i.test(file));
  const validators = schemas.map((file) => `dist/source/validate/validators/${exportNameOf(file.replace(/^schemas\//, ''))}.cjs`);
  expect(bundle).toContain('dist/bundle/wsync.js');
  return [...readme, 'package.json', 'npm-shrinkwrap.json', 'bin/wsync.js', ...validators, ...compiled, ...bundle, ...schemas].sort();
}

describe('the npm tarball, installed into an empty prefix', () => {
  let work: string;
  let tarball: string;
  let prefix: string;
  const emulator = useTestEmulator({ seedFile: DEMO_SEED_FILE });
  const scratch = useScratch('wsync-tarball-');
  let tree: string;

  const wsync = (args: string[], env: Record<string, string> = {}) =>
    run(join(prefix, 'bin', 'wsync'), args, { cwd: work, env: { PATH, HOME: work, NO_COLOR: '1', ...env } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
    );

  beforeAll(async () => {
    work = await scratch.dir();
    const npmEnv = { ...process.env, PATH };
    const packed = await run(process.execPath, [join(root, 'scripts', 'pack.mjs'), '--out', work], { cwd: root, env: npmEnv });
    tarball = packed.stdout.trim();
    prefix = join(work, 'prefix');
    await run('npm', ['install', '--global', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: work,
      env: npmEnv,
    });
    tree = await copyExamples(await scratch.dir());
  }, 240_000);


  it('holds dist/ built from src/, the bundle, the schemas, bin, README, the manifests and the bundled runtime dependencies, and nothing else', async () => {
    expect(tarball).toBe(join(work, `${manifest.name}-${manifest.version}.tgz`));
    const listing = (await run('tar', ['-tzf', tarball], { maxBuffer: 64 * 1024 * 1024 })).stdout.trim().split('\n').map((line) => line.replace(/^package\//, ''));
    expect(listing.filter((file) => !file.startsWith('node_modules/')).sort()).toEqual(expectedFiles());
    // npm ignores a shrinkwrap inside a tarball given by path, so the locked versions travel in it.
    const bundled = new Set(listing.filter((file) => /^node_modules\/(@[^/]+\/)?[^/]+\/package\.json$/.test(file)).map((file) => file.split('/').slice(1, -1).join('/')));
    expect(bundled).toContain('undici');
    expect(bundled).toContain('yaml');
    expect(bundled).not.toContain('vitest');
  });

  it('installs without scripts and with the dependency versions of package-lock.json', async () => {
    const installed = join(prefix, 'lib', 'node_modules', manifest.name);
    const published = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(published.scripts).toBeUndefined();
    expect(published.devDependencies).toBeUndefined();
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; dev?: boolean }>;
    };
    // Paths may differ (without the dev tree npm hoists differently); names and versions may not.
    const wanted = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.dev)
      .map(([path, entry]) => `${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`);
    expect(wanted.length).toBeGreaterThan(10);
    const present = filesUnder(join(installed, 'node_modules'))
      .filter((file) => /node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(file))
      .map((file) => {
        const { name, version } = JSON.parse(readFileSync(join(root, file), 'utf8')) as { name?: string; version?: string };
        return `${name}@${version}`;
      });
    expect(new Set(present)).toEqual(new Set(wanted));
    // No dev dependency came along.
    expect(await readdir(join(installed, 'node_modules'))).not.toContain('vitest');
  });

  it('wsync --version and validate run from the prefix, outside the checkout', async () => {
    const version = await wsync(['--version']);
    expect(version.stdout.trim()).toBe(manifest.version);
    const validate = await wsync(['validate', tree], DEMO_SECRETS);
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
    expect(validate.stdout).toMatch(/\d+ resources in \d+ files/);
    const broken = await wsync(['validate', join(root, 'config-examples')], {});
    expect(broken.code).toBe(1);
    expect(broken.stdout + broken.stderr).toContain('WSYNC_SLACK_WEBHOOK_URL');
  });

  it('wsync plan reads the emulator and plans the examples', async () => {
    const plan = await wsync(['plan', tree, '--format', 'json', '--state-dir', join(work, 'state')], { ...emulator.env, ...DEMO_SECRETS });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    const parsed = JSON.parse(plan.stdout) as { changes: { kind: string; action: string }[] };
    const kinds = new Set(parsed.changes.filter((c) => c.action === 'create').map((c) => c.kind));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['Monitor', 'Notifier', 'Role']));
    // Nothing was written: the plan only read.
    expect(await emulator.writes()).toEqual([]);
  });
});
