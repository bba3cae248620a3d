// bin/wsync.js runs the CLI's bundle (dist/bundle/, scripts/bundle.mjs), whose modules are not where
// tsc put them: what the bundle finds by path must still be found, and what a command does not need
// must still not load. What a run loads as chunks of the bundle is test/cli/import-graph.test.ts;
// this is what it loads from node_modules and dist/ while it runs (require()s, at run time).
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { ROOT } from '../support/paths.js';
import { useScratch } from '../support/tree.js';
import { MONITOR_DATASETS, monitorYaml, notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-bundle-');
const LOADED = ['--import', pathToFileURL(join(ROOT, 'test', 'support', 'loaded-modules.mjs')).href];

/** The run's result and the CommonJS modules it loaded, relative to the repository (node_modules/PACKAGE/... for a package's). */
async function runLoading(args: string[], env: Record<string, string> = {}) {
  const listFile = join(await scratch.dir(), 'loaded');
  const result = await runCli(args, { nodeArgs: LOADED, env: { ...env, WSYNC_TEST_LOADED_FILE: listFile } });
  const loaded = readFileSync(listFile, 'utf8')
    .split('\n')
    .map((file) => file.split(sep).join('/'))
    .map((file) => file.replace(/^.*\/node_modules\//, 'node_modules/').replace(`${ROOT.split(sep).join('/')}/`, ''));
  return { result, loaded, packages: new Set(loaded.filter((file) => file.startsWith('node_modules/')).map((file) => file.split('/')[1] ?? '')) };
}

/** Files of Ajv beyond the run-time helpers the validators compiled at build time require (the compiler, which those validators spare a run). */
function ajvCompiler(loaded: string[]): string[] {
  return loaded.filter((file) => /^node_modules\/ajv(-formats)?\//.test(file) && !/^node_modules\/(ajv\/dist\/runtime\/|ajv-formats\/dist\/formats\.js$)/.test(file));
}

describe('the CLI as bin/wsync.js runs it (the bundle)', () => {
  const tree = scratch.tree({ 'notifiers.yaml': notifierYaml('team-email'), 'monitors.yaml': monitorYaml('checkout-errors', 10) });

  it("validate uses the validators compiled at build time (only Ajv's run-time helpers load, not its compiler) and loads no HTTP client, logger or metrics", async () => {
    const { result, loaded, packages } = await runLoading(['validate', tree]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('2 resources in 2 files: valid');
    expect(loaded).toEqual(expect.arrayContaining(['dist/source/validate/validators/monitor.cjs', 'dist/source/validate/validators/notifier.cjs']));
    expect(ajvCompiler(loaded)).toEqual([]);
    expect([...packages].filter((name) => ['undici', 'pino', 'pino-pretty', 'prom-client', 'node-cron', 'yaml'].includes(name))).toEqual([]);
  });

  it("plan loads undici's Agent and request modules, not its index, no Ajv compiler and no logger or metrics", async () => {
    await emulator.seed(MONITOR_DATASETS);
    const { result, loaded, packages } = await runLoading(['plan', tree, '--state-dir', join(await scratch.dir(), 'state')], emulator.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Plan: 2 to create');
    expect(loaded).toContain('node_modules/undici/lib/dispatcher/agent.js');
    expect(loaded).not.toContain('node_modules/undici/index.js');
    expect(ajvCompiler(loaded)).toEqual([]);
    expect([...packages].filter((name) => ['pino', 'pino-pretty', 'prom-client', 'node-cron'].includes(name))).toEqual([]);
  });
});
