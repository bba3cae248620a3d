// The reading rules that keep hostile input out (issue #17): files must be UTF-8, names are NFC and
// hold no bidi or invisible characters, a tree has a size limit, and links cannot lead out of it.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAME_PATTERN } from '../../src/core/names.js';
import { parseByteSize } from '../../src/cli/limits.js';
import { loadSchemas } from '../../src/source/validate/schema-files.js';
import { readDesired } from '../../src/source/index.js';
import { invalidUtf8Offset } from '../../src/source/read/utf8.js';
import { desiredOf, liveOf, plan, resource, wire } from '../plan/builders.js';
import { runCli } from '../support/cli.js';
import { useScratch, type Files } from '../support/tree.js';
import { doc } from '../support/yaml.js';
import { errorsOf, readOne } from './helpers.js';

const scratch = useScratch('wsync-rules-');
const tree = (files: Files): string => scratch.tree(files);
const outside = (): string => scratch.tree({}, 'wsync-outside-');

const org = (name: string): string => doc('kind: Org', 'metadata:', `  name: ${JSON.stringify(name)}`);

describe('files must be UTF-8', () => {
  it('a byte that is not UTF-8 is an error with the file, the byte offset and its line, not a U+FFFD in a name', async () => {
    const text = Buffer.concat([Buffer.from(org('ok')), Buffer.from('---\napiVersion: wsync/v1\nkind: Org\nmetadata:\n  name: caf'), Buffer.from([0xe9, 0x0a])]);
    const dir = tree({ 'orgs.yaml': text });
    const desired = await readDesired(dir, { env: {} });
    const offset = text.indexOf(0xe9);
    expect(desired.resources).toEqual([]);
    expect(desired.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'file',
        file: 'orgs.yaml',
        line: 9,
        column: 12,
        message: `not valid UTF-8: byte ${offset} (line 9) does not start a UTF-8 character; save the file as UTF-8`,
      },
    ]);
  });

  it('a byte order mark and every well-formed character are fine', async () => {
    const dir = tree({ 'orgs.yaml': `\ufeff${org('café 東京 😀')}` });
    const desired = await readDesired(dir, { env: {} });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources.map((r) => r.name)).toEqual(['café 東京 😀']);
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80], 1],
    ['an overlong form', [0x61, 0xc0, 0xaf], 1],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], 0],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a truncated sequence at the end', [0x61, 0x62, 0xe2, 0x82], 2],
    ['a lead byte followed by ASCII', [0xe2, 0x41, 0x42], 0],
  ])('finds %s', (_, bytes, offset) => {
    expect(invalidUtf8Offset(Uint8Array.from(bytes))).toBe(offset);
  });

  it('finds nothing wrong in well-formed text', () => {
    expect(invalidUtf8Offset(Buffer.from('aé€😀\u{10ffff}'))).toBe(-1);
  });
});

describe('names', () => {
  it('the schema and the code forbid the same characters', () => {
    const envelope = loadSchemas().get('envelope.json') as { definitions: { metadata: { properties: { name: { pattern: string } } } } };
    expect(envelope.definitions.metadata.properties.name.pattern).toBe(NAME_PATTERN);
  });

  it.each([
    ['a right-to-left override', 'invoice\u202etxt.exe', 'a bidi control (U+202E)'],
    ['a bidi isolate', 'a\u2067b', 'a bidi control (U+2067)'],
    ['a right-to-left mark', 'a\u200fb', 'a bidi control (U+200F)'],
    ['a zero-width space', 'ad\u200bmin', 'an invisible character (U+200B)'],
    ['a byte order mark inside', 'a\ufeffb', 'an invisible character (U+FEFF)'],
    ['a C1 control', 'a\u009bb', 'a control character (U+009B)'],
    ['DEL', 'a\u007fb', 'a control character (U+007F)'],
    ['an escape sequence', 'a\u001b[2Jb', 'a control character (U+001B)'],
    ['a line break', 'a\nb', 'a line break (U+000A)'],
  ])('%s in a name is refused with a clear error', (_, name, why) => {
    const desired = readOne(org(name));
    expect(desired.resources).toEqual([]);
    expect(errorsOf(desired)).toMatchObject([
      { code: 'schema', line: 4, field: 'metadata.name', message: expect.stringContaining(`metadata.name: must not contain ${why}`) },
    ]);
  });

  it('a name is read in NFC, whichever form the file has', () => {
    const nfd = 'cafe\u0301';
    const [r] = readOne(org(nfd)).resources;
    expect(r?.name).toBe('caf\u00e9');
    expect(r?.key).toBe('caf\u00e9');
  });

  it('two names equal in NFC are one name declared twice, an error naming both places', async () => {
    const dir = tree({ 'a.yaml': org('caf\u00e9'), 'b.yaml': org('cafe\u0301') });
    const desired = await readDesired(dir, { env: {} });
    expect(desired.resources.map((r) => r.source.file)).toEqual(['a.yaml']);
    expect(errorsOf(desired)).toMatchObject([
      {
        code: 'duplicate-key-declared',
        file: 'b.yaml',
        line: 1,
        message: expect.stringMatching(/is also declared at a\.yaml:1:1 \(the two names differ only in how their characters are encoded, Unicode NFC or NFD/),
      },
    ]);
  });

  it('a live object whose name is the NFD form of a declared name is that object, not a second one', () => {
    const live = wire.role('role_1', 'cafe\u0301');
    const made = plan(desiredOf(resource('Role', 'caf\u00e9', {})), liveOf([live]));
    expect(made.changes.map((c) => [c.action, c.id])).toEqual([['adopt', 'role_1']]);
  });
});

describe('limits on a whole tree', () => {
  const files = { 'a.yaml': org('a'), 'b.yaml': org('b'), 'c.yaml': org('c') };

  it('stops reading, with an error naming the file and how to raise the limit, past the bytes allowed', async () => {
    const dir = tree(files);
    const size = Buffer.byteLength(org('a'));
    const desired = await readDesired(dir, { env: {}, limits: { maxBytes: size * 2 + 1 } });
    expect(desired.stats.files).toBe(3);
    expect(desired.resources.map((r) => r.name)).toEqual(['a', 'b']);
    expect(errorsOf(desired)).toMatchObject([
      { code: 'limit', file: 'c.yaml', message: expect.stringMatching(/^the files hold more than \d+ bytes in total: .*--max-input-bytes or WSYNC_MAX_INPUT_BYTES/) },
    ]);
  });

  it('stops reading past the resources allowed', async () => {
    const desired = await readDesired(tree(files), { env: {}, limits: { maxResources: 2 } });
    expect(errorsOf(desired)).toMatchObject([
      { code: 'limit', file: 'c.yaml', message: expect.stringMatching(/^the files declare more than 2 resources: .*--max-resources or WSYNC_MAX_RESOURCES/) },
    ]);
  });

  it('counts every document toward the resources allowed, a resource or not, and each file once', async () => {
    const notResources = 'a: 1\n---\nb: 2\n---\n# empty\n';
    const desired = await readDesired(tree({ 'a.yaml': org('a'), 'b.yaml': notResources }), { env: {}, limits: { maxResources: 2 } });
    expect(errorsOf(desired)).toMatchObject([
      { code: 'limit', file: 'b.yaml', message: expect.stringMatching(/^the files declare more than 2 resources: .*\(every YAML document counts, a resource or not\)/) },
    ]);
    // Reading stopped after b.yaml, which was read: two files, not three.
    const read = await readDesired(tree({ 'a.yaml': org('a'), 'b.yaml': `${org('b')}---\n${org('c')}` }), { env: {}, limits: { maxResources: 2 } });
    expect(errorsOf(read)).toMatchObject([{ code: 'limit', file: 'b.yaml' }]);
    expect(read.stats.files).toBe(2);
  });

  it('counts what aliases expand to toward the bytes allowed', async () => {
    const big = 'x'.repeat(1000);
    const aliased = doc('kind: Org', 'metadata:', '  name: a', `  annotations: {a: &v "${big}", b: *v, c: *v, d: *v}`);
    const plain = await readDesired(tree({ 'a.yaml': aliased }), { env: {}, limits: { maxBytes: Buffer.byteLength(aliased) + 3000 + 10 } });
    expect(errorsOf(plain).filter((d) => d.code === 'limit')).toEqual([]);
    const over = await readDesired(tree({ 'a.yaml': aliased }), { env: {}, limits: { maxBytes: Buffer.byteLength(aliased) + 2990 } });
    expect(errorsOf(over)).toMatchObject([
      { code: 'limit', file: 'a.yaml', message: expect.stringMatching(/^the files hold more than \d+ bytes in total: .*\(what aliases expand to counts as written out\)/) },
    ]);
  });

  it('reads sizes as people write them', () => {
    expect(parseByteSize('16MiB')).toBe(16 * 1024 * 1024);
    expect(parseByteSize('16m')).toBe(16 * 1024 * 1024);
    expect(parseByteSize('512 KB')).toBe(512 * 1024);
    expect(parseByteSize('1048576')).toBe(1048576);
    expect(parseByteSize('0')).toBeUndefined();
    expect(parseByteSize('lots')).toBeUndefined();
  });

  it('validate takes the limits from flags and the environment, never from wsync.yaml in the tree', async () => {
    const dir = tree({ ...files, 'wsync.yaml': 'maxResources: 100\n' });
    const byFlag = await runCli(['validate', dir, '--max-resources', '2']);
    expect(byFlag.code).toBe(1);
    expect(byFlag.stdout).toContain('c.yaml:1:1: the files declare more than 2 resources');
    const byEnv = await runCli(['validate', dir], { env: { WSYNC_MAX_RESOURCES: '2' } });
    expect(byEnv.stdout).toContain('the files declare more than 2 resources');
    const bad = await runCli(['validate', dir], { env: { WSYNC_MAX_INPUT_BYTES: 'lots' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('WSYNC_MAX_INPUT_BYTES: "lots" is not a size');
  });
});

describe('symbolic links', () => {
  it('a link to a file outside the tree is refused with an error, and never read', async () => {
    const away = outside();
    writeFileSync(join(away, 'passwd.yaml'), org('stolen'));
    const dir = tree({ 'ok.yaml': org('ok') });
    symlinkSync(join(away, 'passwd.yaml'), join(dir, 'evil.yaml'));
    const desired = await readDesired(dir, { env: {} });
    expect(desired.resources.map((r) => r.name)).toEqual(['ok']);
    expect(errorsOf(desired)).toMatchObject([
      { code: 'file', file: 'evil.yaml', message: expect.stringContaining('a symbolic link (to ') },
    ]);
    expect(errorsOf(desired)[0]?.message).toContain('outside the directory read: refused');
  });

  it('a link to a folder outside the tree is refused too', async () => {
    const away = outside();
    writeFileSync(join(away, 'x.yaml'), org('stolen'));
    const dir = tree({ 'ok.yaml': org('ok') });
    symlinkSync(away, join(dir, 'etc'));
    const desired = await readDesired(dir, { env: {} });
    expect(desired.resources.map((r) => r.name)).toEqual(['ok']);
    expect(errorsOf(desired)).toMatchObject([{ code: 'file', file: 'etc', message: expect.stringContaining('to a folder outside') }]);
  });

  it('links inside the tree, and the tree itself being a link (git-sync), keep working', async () => {
    const root = outside();
    // Dot-folders are not read on their own: only through the links to them.
    mkdirSync(join(root, 'rev-1', '.store', 'folder'), { recursive: true });
    writeFileSync(join(root, 'rev-1', '.store', 'b.yaml'), org('b'));
    writeFileSync(join(root, 'rev-1', '.store', 'folder', 'c.yaml'), org('c'));
    symlinkSync(join(root, 'rev-1', '.store', 'b.yaml'), join(root, 'rev-1', 'b.yaml'));
    symlinkSync(join('.store', 'folder'), join(root, 'rev-1', 'c'));
    symlinkSync('rev-1', join(root, 'current'));
    const desired = await readDesired(join(root, 'current'), { env: {} });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources.map((r) => r.source.file)).toEqual(['b.yaml', 'c/c.yaml']);
  });
});
