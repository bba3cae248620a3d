import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDesired, readDesiredPaths, rootOfPaths } from '../../src/source/index.js';
import { useScratch, type Files } from '../support/tree.js';
import { doc } from '../support/yaml.js';
import { errorsOf, readOne } from './helpers.js';

const scratch = useScratch('wsync-source-');
const tree = (files: Files): string => scratch.tree(files);

const org = (name: string): string => doc('kind: Org', 'metadata:', `  name: ${name}`);
const monitor = `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: checkout
spec:
  type: MatchEvent
  aplQuery: "['checkout']"
  notifiers:
    - oncall
    - "platform email"
`;

describe('readDesired: the directory', () => {
  it('reads *.yaml and *.yml recursively, skipping dot-folders and node_modules, in path order', async () => {
    const dir = tree({
      'b.yml': org('b'),
      'a/z.yaml': org('az'),
      'a/b/c.YAML': org('abc'),
      'README.md': 'apiVersion: wsync/v1\n',
      'notes.txt': org('txt'),
      '.git/config.yaml': org('git'),
      '.github/workflows/ci.yaml': org('ci'),
      'node_modules/pkg/x.yaml': org('nm'),
      'deep/.hidden/x.yaml': org('hidden'),
    });
    const desired = await readDesired(dir, { env: {} });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources.map((r) => [r.name, r.source.file])).toEqual([
      ['abc', 'a/b/c.YAML'],
      ['az', 'a/z.yaml'],
      ['b', 'b.yml'],
    ]);
    expect(desired.stats).toEqual({ files: 3, documents: 3, skipped: 0 });
  });

  it('keeps document order within a file and reports files relative to the directory with /', async () => {
    const dir = tree({ 'sub/dir/orgs.yaml': [org('one'), org('two'), org('three')].join('---\n') });
    const desired = await readDesired(dir, { env: {} });
    expect(desired.resources.map((r) => r.name)).toEqual(['one', 'two', 'three']);
    expect(desired.resources.map((r) => r.source)).toEqual([
      { file: 'sub/dir/orgs.yaml', line: 1, column: 1 },
      { file: 'sub/dir/orgs.yaml', line: 6, column: 1 },
      { file: 'sub/dir/orgs.yaml', line: 11, column: 1 },
    ]);
  });

  it('tells after each file how many documents it has read so far, skipped and broken ones included', async () => {
    const dir = tree({
      'a.yaml': [org('one'), org('two')].join('---\n'),
      'b.yaml': 'kind: Org\nmetadata: [',
      'c.yaml': [org('three'), org('four'), org('five')].join('---\n'),
    });
    const told: number[] = [];
    const desired = await readDesired(dir, { env: {}, onDocumentsRead: (documents) => told.push(documents) });
    expect(told).toEqual([2, 3, 6]);
    expect(desired.stats.documents).toBe(6);
  });

  it('a missing directory is one error with code dir; so is a file given as the directory', async () => {
    const dir = tree({ 'x.yaml': org('x') });
    const missing = await readDesired(join(dir, 'nope'), { env: {} });
    expect(missing.diagnostics).toEqual([
      { severity: 'error', code: 'dir', message: `${join(dir, 'nope')}: no such directory` },
    ]);
    const file = await readDesired(join(dir, 'x.yaml'), { env: {} });
    expect(file.diagnostics).toMatchObject([{ code: 'dir', message: expect.stringContaining('not a directory') }]);
  });

  it('an empty directory is valid and empty', async () => {
    const desired = await readDesired(tree({}), { env: {} });
    expect(desired).toEqual({ resources: [], diagnostics: [], stats: { files: 0, documents: 0, skipped: 0 }, skips: [], secretValues: [] });
  });

  it('follows a symlinked folder once, even when links form a cycle', async () => {
    const dir = tree({ 'real/x.yaml': org('x') });
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    symlinkSync(dir, join(dir, 'real', 'loop'));
    const desired = await readDesired(dir, { env: {} });
    expect(desired.resources.map((r) => r.source.file)).toEqual(['link/x.yaml']);
  });

  it('an unreadable file is an error naming the file, the others are still read', async () => {
    const dir = tree({ 'ok.yaml': org('ok') });
    mkdirSync(join(dir, 'trap.yaml')); // a folder named like a file is skipped, not an error
    writeFileSync(join(dir, 'secret.yaml'), org('s'), { mode: 0o000 });
    const desired = await readDesired(dir, { env: {} });
    expect(desired.resources.map((r) => r.name)).toContain('ok');
    if (process.getuid?.() !== 0) {
      expect(desired.diagnostics).toMatchObject([{ code: 'file', file: 'secret.yaml', line: 1 }]);
    }
  });
});

describe('readDesired: documents', () => {
  it('records a location for every node, keys at the key and list items at the item', () => {
    const desired = readOne(monitor);
    const [r] = desired.resources;
    expect(r?.locations).toMatchObject({
      '': { file: 'r.yaml', line: 1, column: 1 },
      '/metadata/name': { line: 4, column: 3 },
      '/spec': { line: 5, column: 1 },
      '/spec/notifiers': { line: 8, column: 3 },
      '/spec/notifiers/0': { line: 9, column: 7 },
      '/spec/notifiers/1': { line: 10, column: 7 },
    });
    expect(r).toMatchObject({ kind: 'Monitor', name: 'checkout', key: 'checkout', annotations: {}, interpolated: [] });
    expect(r?.spec).toEqual({ type: 'MatchEvent', aplQuery: "['checkout']", notifiers: ['oncall', 'platform email'] });
  });

  it('counts columns as editors do, with CRLF line ends and a byte order mark', () => {
    const text = '\ufeffapiVersion: wsync/v1\r\nkind: Org\r\nmetadata: {name: acme, nmae: x}\r\n';
    const desired = readOne(text);
    expect(errorsOf(desired)).toMatchObject([{ code: 'unknown-field', line: 3, column: 24, field: 'metadata.nmae' }]);
    expect(readOne(text.replace(', nmae: x', '')).resources[0]?.source).toEqual({ file: 'r.yaml', line: 1, column: 1 });
  });

  it('escapes keys in pointers (RFC 6901) and keeps annotations', () => {
    const text = doc(
      'kind: Notifier',
      'metadata:',
      '  name: hook',
      '  annotations:',
      '    wsync/prune: disabled',
      '    team/owner: sre',
      'spec:',
      '  properties:',
      '    customWebhook:',
      '      url: https://example.com/hook',
      '      body: "{}"',
      '      headers:',
      '        a/b~c: x',
    );
    const [r] = readOne(text).resources;
    expect(r?.annotations).toEqual({ 'wsync/prune': 'disabled', 'team/owner': 'sre' });
    expect(r?.locations['/metadata/annotations/wsync~1prune']).toMatchObject({ line: 6 });
    expect(r?.locations['/spec/properties/customWebhook/headers/a~1b~0c']).toMatchObject({ line: 14, column: 9 });
  });

  it('computes the natural key with the kind module', () => {
    const text = [
      doc('kind: User', 'metadata:', '  name: Ada@Example.COM', 'spec:', '  name: Ada', '  role: admin'),
      doc('kind: DatasetField', 'metadata:', '  name: status', 'spec:', '  dataset: http'),
    ].join('---\n');
    expect(readOne(text).resources.map((r) => r.key)).toEqual(['ada@example.com', 'http/status']);
  });

  it('skips and counts documents without apiVersion and other tools\' documents; ignores empty ones', () => {
    const text = [
      'name: ci\non: [push]\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: k8s-role}\nrules: []\n',
      '# only a comment\n',
      '- a list\n- of things\n',
      'just text\n',
      org('kept'),
      '',
    ].join('---\n');
    const desired = readOne(text);
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources.map((r) => r.name)).toEqual(['kept']);
    expect(desired.stats).toEqual({ files: 1, documents: 6, skipped: 5 });
    expect(desired.skips).toEqual([
      { file: 'r.yaml', line: 1, column: 1, reason: 'no apiVersion, no kind: not a wsync resource' },
      { file: 'r.yaml', line: 4, column: 1, reason: 'apiVersion apps/v1, kind Deployment: not a wsync resource' },
      { file: 'r.yaml', line: 8, column: 1, reason: 'apiVersion rbac.authorization.k8s.io/v1, kind Role: not a wsync resource' },
      { file: 'r.yaml', line: 15, column: 1, reason: 'a list, not a mapping: not a wsync resource' },
      { file: 'r.yaml', line: 18, column: 1, reason: 'a string, not a mapping: not a wsync resource' },
    ]);
  });

  it('a document with our kind and metadata but a mistyped apiVersion is an error with a did-you-mean, never skipped', () => {
    for (const apiVersion of ['wsyn/v1', 'v1', 'wsync.io/v1', 'monitoring.example.com/v1']) {
      const desired = readOne(`apiVersion: ${apiVersion}\nkind: Monitor\nmetadata: {name: x}\nspec: {}\n`);
      expect(desired.stats.skipped, apiVersion).toBe(0);
      expect(errorsOf(desired), apiVersion).toMatchObject([
        { code: 'api-version', file: 'r.yaml', line: 1, field: 'apiVersion', kind: 'Monitor', name: 'x', message: expect.stringContaining('did you mean "wsync/v1"?') },
      ]);
    }
    // Without spec, a kind we know under a bare version is ours too (v1 is what the issue saw typed).
    expect(errorsOf(readOne('apiVersion: v1\nkind: Role\nmetadata: {name: k8s-role}\n'))).toMatchObject([{ code: 'api-version', kind: 'Role' }]);
  });

  it("leaves other tools' ${...} alone: only wsync documents are interpolated", () => {
    const workflow = ['name: ci', 'jobs:', '  plan:', '    steps:', '      - run: echo ${{ secrets.TOKEN }} ${env:HOME}', ''].join('\n');
    const manifest = ['apiVersion: v1', 'kind: ConfigMap', 'data:', '  url: ${URL}', ''].join('\n');
    const desired = readOne(`${workflow}---\n${manifest}`);
    expect(errorsOf(desired)).toEqual([]);
    expect(desired.stats.skipped).toBe(2);
    expect(desired.secretValues).toEqual([]);
  });

  it('wsync/v1 with an unknown kind is an error with a suggestion', () => {
    const desired = readOne(doc('kind: Monitr', 'metadata:', '  name: x'));
    expect(errorsOf(desired)).toMatchObject([
      { code: 'unknown-kind', file: 'r.yaml', line: 2, field: 'kind', message: expect.stringContaining('unknown kind "Monitr" (did you mean "Monitor"?)') },
    ]);
    expect(errorsOf(readOne(doc('metadata:', '  name: x')))).toMatchObject([{ code: 'unknown-kind', line: 1, message: expect.stringContaining('missing required field "kind"') }]);
  });

  it('a wsync apiVersion other than v1, or a wsync-looking document without apiVersion, is an error', () => {
    expect(errorsOf(readOne('apiVersion: wsync/v2\nkind: Org\nmetadata: {name: x}\n'))).toMatchObject([
      { code: 'api-version', line: 1, field: 'apiVersion', kind: 'Org', name: 'x' },
    ]);
    expect(errorsOf(readOne('apiversion: wsync/v1\nkind: Org\nmetadata: {name: x}\n'))).toMatchObject([
      { code: 'api-version', line: 1, message: 'unknown field "apiversion" (did you mean "apiVersion"?)' },
    ]);
    expect(errorsOf(readOne('kind: Monitor\nmetadata: {name: x}\nspec: {}\n'))).toMatchObject([
      { code: 'api-version', message: expect.stringContaining('missing apiVersion') },
    ]);
    // docker-compose's `version` is not a misspelt apiVersion.
    expect(readOne("version: '3'\nservices: {}\n").stats.skipped).toBe(1);
  });

  it('a list or text that mentions wsync resources is an error, not silently skipped', () => {
    expect(errorsOf(readOne('- apiVersion: wsync/v1\n  kind: Org\n'))).toMatchObject([{ code: 'not-a-mapping', line: 1 }]);
    expect(errorsOf(readOne('apiVersion wsync/v1\nkind Org\n'))).toMatchObject([{ code: 'not-a-mapping' }]);
  });

  it('the same natural key declared twice is an error naming both places', () => {
    const desired = readOne([org('acme'), org('other'), org('acme')].join('---\n'));
    expect(errorsOf(desired)).toEqual([
      {
        severity: 'error',
        code: 'duplicate-key-declared',
        file: 'r.yaml',
        line: 11,
        column: 1,
        kind: 'Org',
        name: 'acme',
        field: 'metadata.name',
        message: 'Org "acme" is also declared at r.yaml:1:1',
      },
    ]);
    expect(desired.resources.map((r) => r.name)).toEqual(['acme', 'other']);
  });

  it('finds duplicates across files and by natural key (emails ignore case), even when one copy is invalid', async () => {
    const user = (email: string, role: string): string =>
      doc('kind: User', 'metadata:', `  name: ${email}`, 'spec:', '  name: Ada', `  role: ${role}`);
    const dir = tree({ 'a.yaml': user('ada@example.com', 'admin'), 'b/c.yaml': `# comment\n${user('ADA@example.com', '""')}` });
    const desired = await readDesired(dir, { env: {} });
    expect(errorsOf(desired).map((d) => [d.code, d.file, d.line])).toEqual([
      ['duplicate-key-declared', 'b/c.yaml', 2],
      ['schema', 'b/c.yaml', 8],
    ]);
    expect(errorsOf(desired)[0]?.message).toBe('User "ada@example.com" is also declared at a.yaml:1:1');
  });

  it('duplicate keys in a mapping are errors at the second key', () => {
    const desired = readOne(doc('kind: Org', 'metadata:', '  name: a', '  name: b'));
    expect(errorsOf(desired)).toMatchObject([
      { code: 'duplicate-key', line: 5, column: 3, field: 'metadata.name', kind: 'Org', name: 'a', message: 'metadata: duplicate key "name"' },
    ]);
    expect(desired.resources).toEqual([]);
  });

  it('YAML syntax errors name the place; the file\'s other documents are still read', () => {
    const text = [org('before'), 'apiVersion: wsync/v1\nkind: Org\nmetadata:\n  name: [broken\n', org('after')].join('---\n');
    const desired = readOne(text);
    const errors = errorsOf(desired);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((d) => d.code === 'yaml-syntax' && d.file === 'r.yaml' && (d.line ?? 0) >= 5)).toBe(true);
    expect(errors[0]?.kind).toBe('Org');
    expect(desired.resources.map((r) => r.name)).toEqual(['before', 'after']);
    expect(errorsOf(readOne('a:\n\tb: 1\n'))).toMatchObject([{ code: 'yaml-syntax', line: 2 }]);
  });

  it('bounds alias expansion: a billion-laughs document is one error, not an expansion', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    const desired = readOne(`apiVersion: wsync/v1\nkind: Org\nmetadata: {name: bomb}\nspec:\n  ${lines.join('\n  ')}\n`);
    expect(errorsOf(desired)).toMatchObject([{ code: 'alias-limit', kind: 'Org', name: 'bomb' }]);
  });

  it('accepts a few aliases, and rejects one that refers to itself or to nothing', () => {
    const ok = readOne(
      doc('kind: Role', 'metadata:', '  name: r', 'spec:', '  orgCapabilities:', '    monitors: &crud [create, read]', '    notifiers: *crud'),
    );
    expect(ok.diagnostics).toEqual([]);
    expect(ok.resources[0]?.spec.orgCapabilities).toEqual({ monitors: ['create', 'read'], notifiers: ['create', 'read'] });
    expect(errorsOf(readOne('a: &x [1, *x]\n'))).toMatchObject([{ code: 'alias-limit' }]);
    expect(errorsOf(readOne('apiVersion: wsync/v1\nkind: Org\nmetadata: *nothing\n'))[0]?.code).toMatch(/yaml-syntax/);
  });

  it('bounds nesting depth', () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}\n`;
    const errors = errorsOf(readOne(`apiVersion: wsync/v1\nkind: Org\nmetadata: {name: deep}\nspec: ${deep}`));
    expect(errors.map((d) => d.code)).toContain('yaml-limit');
  });

  it('does not let __proto__ keys reach an object prototype', () => {
    const desired = readOne(doc('kind: Org', 'metadata:', '  name: p', 'spec:', '  __proto__: {polluted: true}'));
    expect(errorsOf(desired)).toMatchObject([{ code: 'unknown-field', field: 'spec.__proto__' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects non-finite numbers and non-text keys', () => {
    const desired = readOne(doc('kind: Monitor', 'metadata:', '  name: m', 'spec:', '  type: Threshold', '  threshold: .inf', '  ? [a]', '  : b'));
    expect(errorsOf(desired).filter((d) => d.line === 7)).toMatchObject([{ message: 'spec.threshold: must be a finite number' }]);
    expect(errorsOf(desired).some((d) => d.message === 'spec: mapping keys must be plain text')).toBe(true);
  });
});

// What `wsync validate a.yaml dir/` reads and how it names files.
const notifier = (name: string, token: string): string =>
  doc('kind: Notifier', 'metadata:', `  name: ${name}`, 'spec:', '  properties:', '    pagerduty:', `      routingKey: "\${file:${token}}"`);

describe('rootOfPaths', () => {
  it('a single directory names files relative to itself', async () => {
    const dir = tree({ 'a/x.yaml': org('x') });
    expect(await rootOfPaths([join(dir, 'a')], '/elsewhere')).toBe(join(dir, 'a'));
  });

  it('paths inside the working directory are named relative to it', async () => {
    const dir = tree({ 'a/x.yaml': org('x'), 'b/y.yaml': org('y') });
    expect(await rootOfPaths(['a/x.yaml'], dir)).toBe(dir);
    expect(await rootOfPaths(['a', 'b/y.yaml', 'missing.yaml'], dir)).toBe(dir);
  });

  it('paths outside it are named relative to their nearest common directory', async () => {
    const dir = tree({ 'a/deep/x.yaml': org('x'), 'a/y.yaml': org('y'), 'b/z.yaml': org('z') });
    expect(await rootOfPaths([join(dir, 'a/deep/x.yaml'), join(dir, 'a/y.yaml')], '/elsewhere')).toBe(join(dir, 'a'));
    expect(await rootOfPaths([join(dir, 'a/deep'), join(dir, 'b/z.yaml')], '/elsewhere')).toBe(dir);
    expect(await rootOfPaths([join(dir, 'a/deep/x.yaml')], '/elsewhere')).toBe(join(dir, 'a/deep'));
  });
});

describe('readDesiredPaths', () => {
  it('reads one directory exactly as readDesired does', async () => {
    const dir = tree({ 'a/x.yaml': org('x'), 'b.yml': `${org('y')}---\n${org('x')}`, 'c.yaml': 'kind: [' });
    const paths = await readDesiredPaths([{ path: dir }], { root: dir, env: {} });
    expect(paths).toEqual(await readDesired(dir, { env: {} }));
  });

  it('joins files and directories into one Desired, each file once, in path order', async () => {
    const dir = tree({ 'a/x.yaml': org('x'), 'a/y.yaml': org('y'), 'z.yaml': org('x') });
    const desired = await readDesiredPaths([{ path: join(dir, 'z.yaml') }, { path: join(dir, 'a') }, { path: join(dir, 'a/x.yaml') }], {
      root: dir,
      env: {},
    });
    expect(desired.stats).toEqual({ files: 3, documents: 3, skipped: 0 });
    expect(desired.resources.map((r) => `${r.source.file}:${r.key}`)).toEqual(['a/x.yaml:x', 'a/y.yaml:y']);
    expect(desired.diagnostics).toMatchObject([{ code: 'duplicate-key-declared', file: 'z.yaml', message: 'Org "x" is also declared at a/x.yaml:1:1' }]);
  });

  it('reads each path with its own secrets directory, and keeps every secret read for redaction', async () => {
    const secretsA = tree({ token: 'secret-of-a\n' });
    const secretsB = tree({ token: 'secret-of-b\n' });
    const dir = tree({ 'a/n.yaml': notifier('na', 'token'), 'b/n.yaml': notifier('nb', 'token') });
    const desired = await readDesiredPaths(
      [
        { path: join(dir, 'a'), secretsDir: secretsA },
        { path: join(dir, 'b'), secretsDir: secretsB },
      ],
      { root: dir, env: {} },
    );
    expect(desired.diagnostics).toEqual([]);
    expect(desired.secretValues.sort()).toEqual(['secret-of-a', 'secret-of-b']);
  });

  it('a file named on its own that links out of the root is refused, as inside a directory', async () => {
    const outside = tree({ 'secret.yaml': org('leaked') });
    const dir = tree({ 'x.yaml': org('x') });
    symlinkSync(join(outside, 'secret.yaml'), join(dir, 'link.yaml'));
    const desired = await readDesiredPaths([{ path: join(dir, 'link.yaml') }, { path: join(dir, 'x.yaml') }], { root: dir, env: {} });
    expect(desired.resources.map((r) => r.key)).toEqual(['x']);
    expect(desired.diagnostics).toMatchObject([{ code: 'file', file: 'link.yaml', message: expect.stringContaining('outside the directory read: refused') }]);
  });

  it('a path that is not there is a diagnostic naming it; the rest is still read', async () => {
    const dir = tree({ 'x.yaml': org('x') });
    const desired = await readDesiredPaths([{ path: 'gone.yaml' }, { path: join(dir, 'nope') }, { path: join(dir, 'x.yaml') }], {
      root: dir,
      env: {},
    });
    expect(desired.resources).toHaveLength(1);
    expect(desired.diagnostics).toHaveLength(2);
    expect(desired.diagnostics).toContainEqual({ severity: 'error', code: 'dir', message: 'gone.yaml: no such file' });
    expect(desired.diagnostics).toContainEqual({ severity: 'error', code: 'dir', message: `${join(dir, 'nope')}: no such directory` });
  });
});

describe('readDesired: releaseTexts (a one-shot read keeps no hold on the files` texts)', () => {
  const files = {
    'team/monitors.yaml': [monitor, monitor.replace('name: checkout', 'name: checkout-slow-and-long-named').replace("['checkout']", "['checkout'] | where duration > 1000 | count()")].join('---\n'),
    'other.yaml': `# a comment first\n\n${monitor.replace('name: checkout', 'name: other-monitor-with-a-long-name')}`,
  };

  it('reads the same values, and the same positions from the files read again', async () => {
    const dir = tree(files);
    const kept = await readDesired(dir, { env: {} });
    const released = await readDesired(dir, { env: {}, releaseTexts: true });
    expect(JSON.stringify(released.resources.map((r) => [r.spec, r.name, r.key, r.source]))).toBe(JSON.stringify(kept.resources.map((r) => [r.spec, r.name, r.key, r.source])));
    expect(released.resources).toHaveLength(3);
    for (const [i, resource] of released.resources.entries()) {
      expect({ ...resource.locations }).toEqual({ ...kept.resources[i]?.locations });
      expect(resource.locations['/spec/notifiers/1']?.line).toBeGreaterThan(resource.source.line);
    }
    expect(released.resources[2]?.locations['/spec/notifiers/1']).toEqual({ file: 'team/monitors.yaml', line: 21, column: 7 });
  });

  it('gives only the document start for a file changed since it was read, never another text`s lines', async () => {
    const dir = tree(files);
    const released = await readDesired(dir, { env: {}, releaseTexts: true });
    writeFileSync(join(dir, 'other.yaml'), `\n\n\n\n${files['other.yaml']}`);
    const resource = released.resources[0];
    expect(resource?.source.file).toBe('other.yaml');
    expect(resource?.locations['/spec/notifiers/1']).toBeUndefined();
    expect(resource?.locations['']).toEqual(resource?.source);
    // An unchanged file still gives its positions.
    expect(released.resources[1]?.locations['/spec/notifiers/0']).toEqual({ file: 'team/monitors.yaml', line: 9, column: 7 });
  });
});
