// The fast path (js-yaml) and the `yaml` path must read every file the same way: the same values
// (key order, -0 and all), the same document starts, the same interpolations, the same positions,
// or the fast path must decline and leave the file to the `yaml` path, which reports what is wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFile, parseFileWithYaml, type ParsedFile } from '../../../src/source/parse/document.js';
import { readFast, readFastOrDecline } from '../../../src/source/parse/fast-document.js';
import { createSecretSources } from '../../../src/source/interpolate/interpolate.js';
import { damage, yamlFile } from '../yaml-text.js';
import { editedPlainYamlFile } from '../plain-yaml-text.js';
import { simpleDocumentStarts } from '../../../src/source/parse/simple-yaml.js';

const ENV = { SECRET: 'fast-path-secret' };
const RUNS = Number(process.env.FAST_PATH_RUNS ?? 400);

function sources() {
  return createSecretSources(ENV, undefined);
}

function clean(file: ParsedFile): boolean {
  return file.diagnostics.length === 0 && file.documents.every((d) => d.diagnostics.length === 0);
}

function cleanWithYaml(text: string): boolean {
  return clean(parseFileWithYaml(text, 'f.yaml', sources()));
}

/** Deep equality that also holds key order and tells 0 from -0. */
function expectSameValue(actual: unknown, expected: unknown, text: string): void {
  expect(JSON.stringify(actual), text).toBe(JSON.stringify(expected));
  expect(actual, text).toStrictEqual(expected);
}

/** When the fast path takes a file, it reads what the `yaml` path reads, and nothing is wrong with it. */
function checkAgreement(text: string): 'fast' | 'declined' {
  const fast = readFast(text, 'f.yaml', sources());
  const exact = parseFileWithYaml(text, 'f.yaml', sources());
  if (fast === undefined) return 'declined';
  expect(clean(exact), `fast path took a file the yaml path refuses:\n${text}\n${JSON.stringify(exact.documents.flatMap((d) => d.diagnostics))}`).toBe(true);
  expect(fast.length, text).toBe(exact.documents.length);
  fast.forEach((doc, i) => {
    const other = exact.documents[i]!;
    expectSameValue(doc.value, other.value, text);
    expect(doc.start, text).toEqual(other.start);
    expect([...doc.interpolated].sort(), text).toEqual([...other.interpolated].sort());
    expect(doc.written, text).toEqual(other.written);
    expect(doc.locations, text).toEqual(other.locations);
  });
  // And parseFile, which wsync calls, gives what the yaml path gives.
  const chosen = parseFile(text, 'f.yaml', sources());
  expect(chosen.documents.map((d) => ({ ...d, locations: d.locations })), text).toEqual(
    exact.documents.map((d) => ({ ...d, locations: d.locations })),
  );
  return 'fast';
}

describe('the fast path and the yaml path', () => {
  it('give identical values or both refuse, on ordinary YAML with its corners', () => {
    let clean = 0;
    let fast = 0;
    fc.assert(
      fc.property(yamlFile({ mergeKeys: true }), damage, (generated, damageWith) => {
        const text = damageWith(generated);
        if (checkAgreement(text) === 'fast') fast++;
        if (cleanWithYaml(text)) clean++;
      }),
      { numRuns: RUNS },
    );
    // The fast path declines only the rare constructs it cannot vouch for: most of what the yaml
    // path reads cleanly, it reads too (a generator whose output both refuse would prove nothing).
    // (Bounds far below what runs give, about 14% clean and 80% of those taken, not to be flaky.)
    expect(clean).toBeGreaterThan(RUNS / 20);
    expect(fast).toBeGreaterThan(clean / 2);
  });

  it('give identical values or both refuse, on resource-like files the scan vouches for or not', () => {
    let fast = 0;
    fc.assert(
      fc.property(editedPlainYamlFile, (text) => {
        if (checkAgreement(text) === 'fast') fast++;
      }),
      { numRuns: RUNS },
    );
    expect(fast).toBeGreaterThan(RUNS / 5);
  });

  it('agree on text cut and spliced from YAML lexemes, whatever the fast path takes', () => {
    const LEXEMES = [
      'apiVersion: wsync/v1\n', 'a: ', 'b: ', '<<: ', '<<: *a\n', '<<: [*a, *b]\n', '? ', ': ', '- ', '  ', '\t', '\n',
      '\r\n', '\r', '---\n', '...\n', '%YAML 1.1\n', '{', '}', '[', ']', ',', '&a ', '&b ', '*a', '*b', '!!str ',
      '!!int ', '!!float ', '!!null ', '!!bool ', '!!binary ', '!!timestamp ', '!custom ', '! ', '|\n', '>-\n', '#', '"',
      "'", '\\', '~', 'null', 'yes', '.inf', '0x1F', '1e999', '2001-12-14', '${env:SECRET}', '${env:MISSING}',
      '__proto__: 1\n', 'x', '1', '\ufeff', 'é',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LEXEMES), { maxLength: 60 }), (parts) => {
        checkAgreement(parts.join(''));
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('agree on generated files with characters inserted or removed anywhere', () => {
    const inserts = fc.constantFrom(':', '-', ' ', '\t', '#', "'", '"', '[', '{', '&', '*', '!', '|', '>', '\n', '? ', '<<');
    fc.assert(
      fc.property(yamlFile({ mergeKeys: true }), fc.nat(), fc.nat(3), inserts, (text, at, cut, insert) => {
        const i = at % (text.length + 1);
        checkAgreement(text.slice(0, i) + insert + text.slice(i + cut));
      }),
      { numRuns: RUNS },
    );
  });

  // What the generators found js-yaml 4 reading otherwise than the yaml path (or taking where that
  // refuses): each is declined, and wsync reads it as the yaml path does.
  const DECLINED: [string, string][] = [
    ['a block scalar indentation indicator', '--- >1-\n  text\n  - x\n'],
    ['an anchor defined again inside its node', '"q":\n  - &a\n    - &a\n        - x\nname: *a\n'],
    ['a mapping on the line of its key', "'a': &c x: y\n"],
    ['a mapping on the line of ---', '--- text: x\n'],
    ['a quoted string whose next line is not indented', 'x: "plain\nb: y"\n'],
    ['a flow sequence continued at column 0', 'k: [a,\nb]\n'],
    ['a comment right after a quote', 'k: "a"#c\n'],
    ['a document marker followed by text', '---<<o17\n'],
    ['text after ...', 'a: 1\n... ---\nb: 2\n'],
    ['entries at different columns at the top', ' -\n- b\n'],
    ['an entry left of its collection', 'a b:\n  -\n-   - x\n'],
    ['a tab in indentation', '\t1\n'],
    ['two anchors on one node', '"q": &b\n  &a "a b\n   second"\n'],
    ['an anchor name with a quote', 'a: {&"a": []}\n'],
    ['a collection key without a value in a flow mapping', 'b: [&a {[*a], q: 1}]\n'],
    ['a non-specific tag', 'k: !\n'],
    ['a byte order mark', '\ufeff- apiVersion: wsync/v1\n'],
    ['a blank last line after |+', 'b: |+\n  x\n\n '],
    ['a key over 1024 characters', `${'k'.repeat(1100)}: 1\n`],
    ['an explicit key', '? [a]\nb: 1\n'],
    ['a null key', '~: 1\n'],
    ['a quoted merge key', 'a: &a {x: 1}\nb:\n  "<<": *a\n'],
  ];
  it.each(DECLINED)('leave to the yaml path: %s', (_what, text) => {
    expect(readFastOrDecline(text, 'f.yaml', sources())).toHaveProperty('declined');
    const chosen = parseFile(text, 'f.yaml', sources());
    const exact = parseFileWithYaml(text, 'f.yaml', sources());
    expect(chosen.documents.map((d) => [d.value, d.diagnostics])).toEqual(exact.documents.map((d) => [d.value, d.diagnostics]));
  });

  // Each reason the guard declines for, in a file otherwise written as resource files are: the
  // scan leaves it to the guard, which still declines it for that reason, and wsync reads it as
  // the yaml path does.
  const MONITOR = `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: m
spec:
  type: Threshold
  aplQuery: "['ds-0'] | where status != 500 | project a, b"
  notifiers: [oncall-0]
`;
  const GUARD_REASONS: [string, string][] = [
    ['a key that is not text', `${MONITOR}  [a]: 1\n`],
    ['a key that is not text', `${MONITOR}  null: 1\n`],
    ['a comment without a space before it', `${MONITOR}  description: "a"#c\n`],
    ['a long key', `${MONITOR}  ${'k'.repeat(1100)}: 1\n`],
    ['an anchor defined twice', `${MONITOR}  a: &x [1]\n  b: &x [2]\n  c: *x\n`],
    ['a tag, or an anchor the `yaml` path refuses', `${MONITOR}  description: !!str x\n`],
    ['a quoted merge key', `${MONITOR}  base: &a {x: 1}\n  extra:\n    "<<": *a\n`],
    ['a block collection on the line of its key', `${MONITOR}  labels: &c x: y\n`],
    ['an indented document', `---\n ${MONITOR.replaceAll('\n', '\n ').trimEnd()}\n`],
    ['an entry left of its collection', `${MONITOR}  list:\n    -\n  -   - x\n`],
    ['a block scalar indentation indicator', `${MONITOR}  description: |2\n    text\n`],
    ['a line not indented', `${MONITOR}  description: "plain\n  more"\n`],
    ['aliases near the expansion limit', `${MONITOR}  big: &b "${'x'.repeat(100_000)}"\n  copies: [${Array(11).fill('*b').join(', ')}]\n`],
    // (With an asterisk anywhere in the file, the budget is 5,000 nodes.)
    ['a document near the node limit', `${MONITOR}  note: "*"\n  many: [${Array(5_001).fill('1').join(', ')}]\n`],
    ['a document near the depth limit', `${MONITOR}  deep: ${'['.repeat(70)}${']'.repeat(70)}\n`],
    ['a number that is not finite', `${MONITOR}  threshold: .inf\n`],
    ['a null key', `${MONITOR}  "null": 1\n`],
    ['an anchor on a document', `--- &a\n${MONITOR}`],
  ];
  /** The scan's answer under the limits the fast path gives it (a smaller budget with an asterisk). */
  const scan = (text: string) => simpleDocumentStarts(text, { nodes: text.includes('*') ? 5_000 : 100_000, depth: 63 });
  it.each(GUARD_REASONS)('leave to the guard, which declines: %s', (reason, text) => {
    expect(scan(text)).toBeUndefined();
    expect(readFastOrDecline(text, 'f.yaml', sources())).toEqual({ declined: reason });
    const chosen = parseFile(text, 'f.yaml', sources());
    const exact = parseFileWithYaml(text, 'f.yaml', sources());
    expect(chosen.documents.map((d) => [d.value, d.diagnostics])).toEqual(exact.documents.map((d) => [d.value, d.diagnostics]));
  });

  it('leave a merge key to the guard, and read it as the yaml path does', () => {
    const text = `${MONITOR}  labels:\n    <<: {team: a}\n    tier: b\n`;
    expect(scan(text)).toBeUndefined();
    expect(checkAgreement(text)).toBe('fast');
  });

  it('read a file the scan vouches for without the guard, as the yaml path does', () => {
    const text = `# leading\n${MONITOR}  description: |\n    text: with # and &a\n---\n${MONITOR}`;
    expect(scan(text)).toHaveLength(2);
    expect(checkAgreement(text)).toBe('fast');
  });
});

