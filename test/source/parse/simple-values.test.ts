// The reader of vouched files must give js-yaml's values (with CORE_SCHEMA_12) for every text the
// scan vouches for, or decline it; and decline whatever js-yaml refuses. Numbers compare with
// Object.is (-0 is not 0), objects by their own keys in order.
import fc from 'fast-check';
import jsYaml from 'js-yaml';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_SCHEMA_12 } from '../../../src/source/parse/core-schema.js';
import { declinedText } from '../../../src/source/parse/fast-guard.js';
import { CONTENT_LINE, simpleDocumentStarts, type GuardLimits } from '../../../src/source/parse/simple-yaml.js';
import { Decline, readSimpleValues, tokenizeLine, type LineToken } from '../../../src/source/parse/simple-values.js';
import { MAX_DEPTH } from '../../../src/source/limits.js';
import { yamlFilesUnder } from '../../support/tree.js';
import { damage, DOUBLE, KEYS, PLAIN_SCALARS, SINGLE, yamlFile } from '../yaml-text.js';
import { editedPlainYamlFile, plainYamlFile } from '../plain-yaml-text.js';

const RUNS = Number(process.env.FAST_PATH_RUNS ?? 400);
const LIMITS: GuardLimits = { nodes: 100_000, depth: MAX_DEPTH - 1 };
const LOAD = { schema: CORE_SCHEMA_12, maxDepth: MAX_DEPTH + 8 };

/** Key order and Object.is on every leaf: toStrictEqual says nothing of either. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    const other = Object.keys(b);
    return keys.length === other.length && keys.every((key, i) => key === other[i] && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return Object.is(a, b);
}

type Outcome = 'read' | 'declined' | 'not vouched' | 'refused by js-yaml';

/** Checks the reader against js-yaml on `text`; says whether it read the text itself. */
function checkReader(text: string): boolean {
  return outcome(text) === 'read';
}

function outcome(text: string): Outcome {
  if (declinedText(text) !== undefined) return 'not vouched';
  const starts = simpleDocumentStarts(text, LIMITS);
  if (starts === undefined) return 'not vouched';
  const values = readSimpleValues(text, starts);
  let raws: unknown[];
  try {
    raws = jsYaml.loadAll(text, null, LOAD);
  } catch {
    expect(values, `js-yaml refuses, the reader must decline:\n${text}`).toBeUndefined();
    return 'refused by js-yaml';
  }
  if (values === undefined) return 'declined';
  for (let i = 0; i < Math.max(values.length, raws.length); i++) {
    const raw = raws[i] ?? null;
    const value = starts[i] === undefined ? null : values[i];
    expect(sameValue(value, raw), `document ${i}: ${JSON.stringify(value)} vs js-yaml ${JSON.stringify(raw)}\n${text}`).toBe(true);
  }
  return 'read';
}

const BLOCK_SCALAR = /: +[|>]/;

/** Every scalar notation of yaml-text.ts, written on one line: plain, quoted, in flow sequences. */
const oneLineScalar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PLAIN_SCALARS.filter((v) => !v.includes('\t'))) },
  { weight: 2, arbitrary: fc.constantFrom(...SINGLE).map((v) => `'${v}'`) },
  { weight: 2, arbitrary: fc.constantFrom(...DOUBLE.filter((v) => !v.includes('\t'))).map((v) => `"${v}"`) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...PLAIN_SCALARS.slice(0, 40), "'q'", '"d"'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`) },
  { weight: 1, arbitrary: fc.constantFrom('{}', '{ }', '[ ]', '', '   # c') },
);

/** Block mappings and sequences of those scalars, as the scan's grammar allows (a `-` with one to three spaces). */
const { block: blockLines } = fc.letrec<{ block: string[] }>((tie) => ({
  block: fc.oneof(
    { depthSize: 'small' },
    fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), fc.oneof(oneLineScalar.map((v) => [v]), tie('block'))), { minLength: 1, maxLength: 4, selector: ([key]) => key }).map((entries) =>
      entries.flatMap(([key, value]) => (value.length === 1 && !value[0]!.startsWith(' ') ? [`${key}: ${value[0]}`] : [`${key}:`, ...value.map((line) => `  ${line}`)])),
    ),
    fc.array(fc.tuple(fc.constantFrom('- ', '- ', '-   '), fc.oneof(oneLineScalar.map((v) => [v]), tie('block'))), { minLength: 1, maxLength: 3 }).map((items) =>
      items.flatMap(([dash, value]) => [`${dash}${value[0]}`, ...value.slice(1).map((line) => `${' '.repeat(dash.length)}${line}`)]),
    ),
  ),
}));
const cornerFile = fc.array(blockLines, { minLength: 1, maxLength: 3 }).map((docs) => docs.map((lines) => `${lines.join('\n')}\n`).join('---\n'));

/** Each content line of a vouched text cut up by the reader as the scan's line expression cuts it. */
function checkTokens(text: string): void {
  if (declinedText(text) !== undefined || simpleDocumentStarts(text, LIMITS) === undefined) return;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let first = start;
    while (text[first] === ' ') first++;
    const line = text.slice(start, end);
    if (first < end && text[first] !== '#' && !(first === start && line.startsWith('---'))) {
      CONTENT_LINE.lastIndex = first;
      const m = CONTENT_LINE.exec(text);
      expect(m, line).not.toBeNull();
      const token: LineToken = { dash: false, contentOffset: 0, key: undefined, value: undefined };
      if (m![3] !== undefined) {
        // A block scalar: the reader declines the file here, and its lines are not content lines.
        expect(() => tokenizeLine(text, first, token), line).toThrow(Decline);
        return;
      }
      tokenizeLine(text, first, token);
      const value = m![2] === undefined ? m![5] : m![4];
      const written = value?.startsWith('{') ? '{}' : value?.trimEnd();
      expect({ ...token }, line).toEqual({ dash: m![1] !== undefined, contentOffset: m![1]?.length ?? 0, key: m![2], value: written });
    }
    start = end + 1;
  }
}

/** Checks the reader on `runs` generated texts; how many it read itself. */
function filesRead(texts: fc.Arbitrary<string>, runs: number): number {
  let read = 0;
  fc.assert(
    fc.property(texts, (text) => {
      if (checkReader(text)) read++;
    }),
    { numRuns: runs },
  );
  return read;
}

describe('the reader of files the scan vouched for', () => {
  it('cuts up every content line as the scan reads it', () => {
    fc.assert(fc.property(fc.oneof(plainYamlFile, editedPlainYamlFile, cornerFile), (text) => checkTokens(text)), { numRuns: RUNS * 2 });
  });

  it('reads what js-yaml reads, on resource-like files and edits of them', () => {
    const read = filesRead(editedPlainYamlFile, RUNS * 2);
    // About one in fourteen is read (the rest hold a block scalar, an escape or an edit the scan leaves to the guard): a bound far below, not to be flaky.
    expect(read).toBeGreaterThan(RUNS / 20);
  });

  it('reads what js-yaml reads, on YAML with its corners', () => {
    fc.assert(
      fc.property(yamlFile({ mergeKeys: true }), damage, (text, damageWith) => {
        checkReader(damageWith(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('reads what js-yaml reads, on every scalar notation in the shapes the scan vouches for', () => {
    const read = filesRead(cornerFile, RUNS * 2);
    // Most hold a scalar the scan leaves to the guard; about one in twenty is read (a bound far below, not to be flaky).
    expect(read).toBeGreaterThan(RUNS / 40);
  });

  it('reads every vouched file without a block scalar or an escape outside JSON', () => {
    let read = 0;
    fc.assert(
      fc.property(plainYamlFile, (text) => {
        const result = outcome(text);
        if (result === 'read') read++;
        else if (result === 'declined' && !BLOCK_SCALAR.test(text) && !/\\[^"\\/bfnrt]/.test(text)) expect.fail(`declined:\n${text}`);
      }),
      { numRuns: RUNS },
    );
    // About one in six is read (block scalars and escapes are common in these): a bound far below.
    expect(read).toBeGreaterThan(RUNS / 20);
  });

  it('leaves to js-yaml a file with a character it refuses or reads as a line break', () => {
    const unusual = ['\x00', '\x01', '\x0b', '\x0c', '\x1f', '\x7f', '\x85', '\x9f', '\u2028', '\ud800', '\udc00', '\ufffe', '\uffff', '\ud83d\ude00', 'é'];
    fc.assert(
      fc.property(plainYamlFile, fc.nat(), fc.constantFrom(...unusual), (text, at, char) => {
        const i = at % text.length;
        const edited = text.slice(0, i) + char + text.slice(i);
        const result = outcome(edited);
        if (char !== 'é' && char !== '\ud83d\ude00') expect(result, edited).not.toBe('read');
      }),
      { numRuns: RUNS },
    );
  });

  it('reads every example in config-examples as js-yaml does', () => {
    let read = 0;
    for (const file of yamlFilesUnder('config-examples')) if (checkReader(readFileSync(file, 'utf8'))) read++;
    expect(read).toBeGreaterThan(10);
  });

  it('declines what js-yaml reads otherwise or refuses', () => {
    const cases = [
      'a: 1\na: 2\n', // a repeated key: js-yaml refuses it
      'a: 1\ntrue: 2\nTrue: 3\n', // two keys that both read "true"
      'a: |\n  text\n', // a block scalar
      'a: "\\x41"\n', // an escape JSON does not have
      'a: "\\u00e9"\n', // \u: surrogates are js-yaml's to read
    ];
    for (const text of cases) {
      const starts = simpleDocumentStarts(text, LIMITS);
      expect(starts, text).toBeDefined();
      expect(readSimpleValues(text, starts!), text).toBeUndefined();
    }
  });

  it('reads the shapes resource files are written in', () => {
    const text = [
      '# a comment',
      'apiVersion: wsync/v1',
      'metadata:',
      '  name: "m-1"   # the key',
      'spec:',
      '  threshold: -0',
      '  notifiers: [a, "b c", \'d\'\'s\' , 7]',
      '  empty: {}',
      '  nothing:',
      '  list:',
      '  - x: 1',
      '    y:',
      '  -   z: [ ]',
      '  - plain value # comment',
      '---',
      '---  # empty',
      '- 1',
      '- true',
      '',
    ].join('\n');
    const starts = simpleDocumentStarts(text, LIMITS)!;
    expect(checkReader(text)).toBe(true);
    const values = readSimpleValues(text, starts)!;
    expect(values[0]).toEqual({
      apiVersion: 'wsync/v1',
      metadata: { name: 'm-1' },
      spec: { threshold: -0, notifiers: ['a', 'b c', "d's", 7], empty: {}, nothing: null, list: [{ x: 1, y: null }, { z: [] }, 'plain value'] },
    });
    expect(Object.is((values[0] as { spec: { threshold: number } }).spec.threshold, -0)).toBe(true);
    expect(values[2]).toEqual([1, true]);
  });
});
