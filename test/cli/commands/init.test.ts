// `wsync init [DIR]`: a tree a newcomer can validate at once, whose files give an editor their
// schema, whose state stays out of git, and that never replaces a file.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDesired } from '../../../src/source/index.js';
import { initialFiles } from '../../../src/source/init-tree.js';
import { runCli } from '../../support/cli.js';
import { useTestEmulator } from '../../support/emulator.js';
import { useScratch } from '../../support/tree.js';

const scratch = useScratch('wsync-init-');
const emulator = useTestEmulator();

describe('wsync init', () => {
  it('writes a tree that validates with nothing to report, modelines that resolve, the schemas and a commented wsync.yaml', async () => {
    const dir = join(await scratch.dir(), 'workspace');
    const result = await runCli(['init', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Wrote a wsync tree in ${dir}:\n  wsync.yaml\n  .gitignore\n  datasets/logs.yaml\n  notifiers/oncall.yaml\n  monitors/error-rate.yaml\n  .schemas/ (18 schemas)\n`);
    expect(result.stdout).toContain(`  wsync validate ${dir}`);

    const desired = await readDesired(dir, { env: {} });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources.map((r) => `${r.kind}/${r.name}`).sort()).toEqual(['Dataset/logs', 'Monitor/error-rate', 'Notifier/oncall-email']);

    for (const file of ['datasets/logs.yaml', 'notifiers/oncall.yaml', 'monitors/error-rate.yaml', 'wsync.yaml']) {
      const modeline = /^# yaml-language-server: \$schema=(\S+)\n/.exec(readFileSync(join(dir, file), 'utf8'));
      expect(modeline, file).not.toBeNull();
      expect(existsSync(join(dir, file, '..', modeline![1]!)), file).toBe(true);
    }
    // Every setting of wsync.yaml is a comment: the file sets nothing until one is uncommented.
    const config = readFileSync(join(dir, 'wsync.yaml'), 'utf8');
    expect(config.split('\n').every((line) => line === '' || line.startsWith('#'))).toBe(true);
    for (const key of ['url', 'orgId', 'tokenFile', 'secretsDir', 'stateDir', 'timeoutMs']) expect(config).toContain(`\n# ${key}: `);
  });

  it('writes a tree that applies to a bare workspace as its Next lines say, and then plans no changes', async () => {
    const dir = join(await scratch.dir(), 'workspace');
    expect((await runCli(['init', dir])).code).toBe(0);
    const applied = await runCli(['apply', dir], { env: emulator.env });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('3 created');
    const again = await runCli(['plan', dir, '--detailed-exitcode'], { env: emulator.env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('keeps the state directory out of git', async () => {
    const dir = await scratch.dir();
    expect((await runCli(['init', dir])).code).toBe(0);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    expect(execFileSync('git', ['check-ignore', '.wsync/inventory.json', '.wsync/tokens/ci'], { cwd: dir, encoding: 'utf8' })).toBe(
      '.wsync/inventory.json\n.wsync/tokens/ci\n',
    );
  });

  it('replaces no file: with one of its files there already, it writes nothing and says which', async () => {
    const dir = await scratch.dir();
    writeFileSync(join(dir, 'wsync.yaml'), 'url: https://mine.example.com\n');
    const result = await runCli(['init', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`init: wsync.yaml already in ${dir}: nothing written (init starts a new tree)\n`);
    expect(readdirSync(dir)).toEqual(['wsync.yaml']);
    expect(readFileSync(join(dir, 'wsync.yaml'), 'utf8')).toBe('url: https://mine.example.com\n');
    expect(initialFiles().map((f) => f.path)).toContain('wsync.yaml');
  });
});
