// The schemas as an editor sees them: Red Hat's YAML language server (the one VS Code, Neovim,
// Helix, Zed... use) reads `# yaml-language-server: $schema=PATH` and validates, completes and
// hovers with the schema files on disk. These tests run that server's language service on the
// repository's own files, with no network: a schema it cannot find is a failure.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService, type LanguageService } from 'yaml-language-server';
import { writeSchemas } from '../../../src/source/validate/schema-files.js';
import { ROOT } from '../../support/paths.js';
import { makeTree, yamlFilesUnder } from '../../support/tree.js';

const root = ROOT;
const examples = join(root, 'config-examples');
const MODELINE = /^# yaml-language-server: \$schema=(\S+)\s*$/;

function editor(): { service: LanguageService; requested: string[] } {
  const requested: string[] = [];
  const service = getLanguageService({
    schemaRequestService: async (uri) => {
      requested.push(uri);
      if (!uri.startsWith('file:')) throw new Error(`no network in tests: ${uri}`);
      return readFile(fileURLToPath(uri), 'utf8');
    },
    workspaceContext: { resolveRelativePath: (path, resource) => new URL(path, resource).toString() },
  });
  service.configure({ validate: true, hover: true, completion: true, yamlVersion: '1.2' });
  return { service, requested };
}

// The server caches parsed documents by URI and version: every edit is a new version.
let version = 0;
function open(path: string, text = readFileSync(path, 'utf8')): TextDocument {
  version += 1;
  return TextDocument.create(pathToFileURL(path).toString(), 'yaml', version, text);
}

/** The resource files of config-examples (deploy/ holds a workflow and a manifest, not resources). */
const resourceFiles = yamlFilesUnder(examples).filter((file) => !relative(examples, file).startsWith('deploy') && !file.endsWith('wsync.yaml'));
/** An environment's overlay holds only the fields it changes, so its schema's required fields are missing by design. */
const wholeResourceFiles = resourceFiles.filter((file) => !relative(examples, file).split('/').includes('environments'));

describe('the $schema modeline in config-examples', () => {
  it.each(resourceFiles.map((file) => relative(root, file)))('%s: every document names a schema file that exists', (file) => {
    const documents = readFileSync(join(root, file), 'utf8').split(/^---$/m);
    for (const [i, text] of documents.entries()) {
      const line = text.trimStart().split('\n')[0] ?? '';
      const match = MODELINE.exec(line);
      expect(match, `document ${i + 1} of ${file} starts with the modeline`).not.toBeNull();
      const target = resolve(dirname(join(root, file)), match![1]!);
      expect(relative(root, target)).toMatch(/^schemas\/[a-z-]+\.json$/);
      expect(readdirSync(join(root, 'schemas'))).toContain(target.split('/').pop());
      const kind = /^kind: (\w+)$/m.exec(text)?.[1];
      expect(JSON.parse(readFileSync(target, 'utf8')).title, `${file} document ${i + 1}`).toBe(kind);
    }
  });

  it('the language server loads the schemas it names, from disk only, and finds nothing wrong', async () => {
    const { service, requested } = editor();
    for (const file of wholeResourceFiles) {
      const lines = readFileSync(file, 'utf8').split('\n');
      // A typed ${var:} placeholder is text until an environment renders it; wsync validate checks the rendered value.
      const diagnostics = (await service.doValidation(open(file), false)).filter((d) => !/: \$\{var:\w+\}\s*$/.test(lines[d.range.start.line] ?? ''));
      expect(diagnostics.map((d) => `${relative(root, file)}:${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    }
    const loaded = [...new Set(requested)].map((uri) => relative(root, fileURLToPath(uri))).sort();
    expect(loaded).toContain('schemas/envelope.json');
    expect(loaded.every((path) => /^schemas\/[a-z-]+\.json$/.test(path))).toBe(true);
  });

  it('reports a mistake as the user types it, on its line', async () => {
    const { service } = editor();
    const file = join(examples, 'monitors', 'checkout.yaml');
    const text = readFileSync(file, 'utf8').replace('  operator: Above', '  operator: Sideways').replace('  threshold: 25', '  treshold: 25');
    const diagnostics = await service.doValidation(open(file, text), false);
    const lines = text.split('\n');
    const found = diagnostics.map((d) => lines[d.range.start.line]!.trim());
    expect(found).toContain('operator: Sideways');
    expect(found).toContain('treshold: 25');
  });

  it('completes enum values and shows field descriptions on hover', async () => {
    const { service } = editor();
    const file = join(examples, 'monitors', 'checkout.yaml');
    const text = readFileSync(file, 'utf8').replace('  operator: Above', '  operator: ');
    const lines = text.split('\n');
    const operator = lines.findIndex((l) => l === '  operator: ');
    const completion = await service.doComplete(open(file, text), { line: operator, character: lines[operator]!.length }, false);
    expect(completion.items.map((item) => item.label)).toEqual(expect.arrayContaining(['Above', 'Below', 'AboveOrBelow']));

    const notifiers = lines.findIndex((l) => l.startsWith('  notifiers:'));
    const hover = await service.doHover(open(file, text), { line: notifiers, character: 4 });
    expect(JSON.stringify(hover?.contents)).toContain('Names of Notifiers');
  });
});

describe('wsync schema --write', () => {
  const tree = makeTree({
    'workspace/monitors/latency.yaml': [
      '# yaml-language-server: $schema=../../.schemas/monitor.json',
      'apiVersion: wsync/v1',
      'kind: Monitor',
      'metadata:',
      '  name: latency',
      '  annotations:',
      '    wsync/prune: sometimes',
      'spec:',
      '  type: Threshold',
      '  aplQuery: "[\'checkout\'] | summarize avg(duration_ms)"',
      '  operator: Above',
      '  threshold: 900',
      '',
    ].join('\n'),
  });
  afterAll(tree.cleanup);

  it('writes a folder a modeline can point at, envelope included', async () => {
    const shipped = readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.json')).sort();
    expect((await writeSchemas(join(tree.dir, '.schemas'))).sort()).toEqual(shipped);
    const { service, requested } = editor();
    const file = join(tree.dir, 'workspace', 'monitors', 'latency.yaml');
    const diagnostics = await service.doValidation(open(file), false);
    // The one mistake is in metadata, defined in envelope.json: the reference resolved in the written folder.
    expect(diagnostics.map((d) => d.range.start.line + 1)).toEqual([7]);
    expect(requested.map((uri) => relative(tree.dir, fileURLToPath(uri))).sort()).toEqual(['.schemas/envelope.json', '.schemas/monitor.json']);
  });
});
