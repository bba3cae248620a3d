// The fast path (js-yaml) and the `yaml` path must read every file the same way: the same values
// (key order, -0 and all), the same document starts, the same interpolations, the same positions,
// or the fast path must decline and leave the file to the `yaml` path, which reports what is wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFile, parseFileWithYaml, type ParsedFile } from '../../../src/source/parse/document.js';
import { readFast, readFastOrDecline } from '../../../src/source/parse/fast-document.js';
import { createSecretSources } from '../../../src/source/interpolate/interpolate.js';
import { damage, yamlFile } from '../yaml-text.js';

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
});
