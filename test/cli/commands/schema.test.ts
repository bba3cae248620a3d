import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND_NAMES, KINDS } from '../../../src/kinds/index.js';
import { runCli } from '../../support/cli.js';
import { ROOT } from '../../support/paths.js';
import { useScratch } from '../../support/tree.js';

const schemaFile = (file: string): unknown => JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8'));

describe('wsync schema', () => {
  it('without KIND lists every kind with its schema file and description', async () => {
    const result = await runCli(['schema']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^envelope\s+envelope\.json\s+\S/);
    for (const kind of KIND_NAMES) {
      expect(lines.some((l) => l.startsWith(kind) && l.includes(KINDS[kind].schemaFile) && l.includes(KINDS[kind].description))).toBe(true);
    }
    expect(result.stdout).toContain('yaml-language-server: $schema=');
  });

  it('prints one schema for any spelling of a kind, and the envelope', async () => {
    for (const [arg, file] of [
      ['Monitor', 'monitor.json'],
      ['monitors', 'monitor.json'],
      ['starred-queries', 'starredquery.json'],
      ['apitoken', 'apitoken.json'],
      ['envelope', 'envelope.json'],
    ]) {
      const result = await runCli(['schema', arg!]);
      expect(result.code, arg).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(schemaFile(file!));
    }
  });

  it('--all prints every schema keyed by file name', async () => {
    const result = await runCli(['schema', '--all']);
    expect(result.code).toBe(0);
    const all = JSON.parse(result.stdout) as Record<string, unknown>;
    // A dashboard's document has a schema of its own, which its resource schema refers to.
    const parts = ['dashboard-document.json'];
    expect(Object.keys(all).sort()).toEqual(['envelope.json', 'config.json', ...parts, ...KIND_NAMES.map((k) => KINDS[k].schemaFile)].sort());
    expect(all['config.json']).toEqual(schemaFile('config.json'));
    expect(all['notifier.json']).toEqual(schemaFile('notifier.json'));
  });

  it('an unknown kind is exit 1 with the valid ones', async () => {
    const result = await runCli(['schema', 'widgets']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('unknown kind "widgets"');
    for (const kind of KIND_NAMES) expect(result.stderr).toContain(kind);
  });

  describe('--write DIR', () => {
    const dir = useScratch('wsync-schema-write-').tree({});

    it('writes every schema file with the JSON of schemas/, and keeps other files', async () => {
      const out = join(dir, 'editor', 'schemas');
      writeFileSync(join(dir, 'keep.txt'), 'mine');
      const result = await runCli(['schema', '--write', out]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`Wrote ${readdirSync(join(ROOT, 'schemas')).length} schemas to ${out}.`);
      expect(result.stdout).toContain('# yaml-language-server: $schema=<path>/monitor.json');
      const written = readdirSync(out).sort();
      expect(written).toEqual(readdirSync(join(ROOT, 'schemas')).sort());
      for (const file of written) expect(JSON.parse(readFileSync(join(out, file), 'utf8')), file).toEqual(schemaFile(file));
      // A second run replaces them in place (an upgrade refreshes the folder).
      expect((await runCli(['schema', '--write', out])).code).toBe(0);
      expect(readdirSync(out).sort()).toEqual(written);
      expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('mine');
    });

    it('with a KIND or --all is a usage error', async () => {
      for (const args of [['schema', 'Monitor', '--write', dir], ['schema', '--all', '--write', dir]]) {
        const result = await runCli(args);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('--write writes every schema');
      }
    });

    it('names the path it cannot create', async () => {
      const blocker = join(dir, 'a-file');
      writeFileSync(blocker, 'x');
      const result = await runCli(['schema', '--write', join(blocker, 'schemas')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`wsync schema: cannot create ${join(blocker, 'schemas')}`);
    });
  });
});
