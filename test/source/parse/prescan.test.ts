import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../../../src/source/limits.js';
import { documentCount, moreDocumentsThan, prescanYaml } from '../../../src/source/parse/prescan.js';
import { readWithYaml } from '../../../src/source/parse/yaml-document.js';

/** Nesting shapes, `n` collections deep, with a scalar at the bottom. */
const SHAPES: Record<string, (n: number) => string> = {
  'block mappings': (n) => `${Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')} 1\n`,
  'block sequences': (n) => `${Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}-`).join('\n')} 1\n`,
  'compact sequences': (n) => `${'- '.repeat(n)}1\n`,
  'flow sequences': (n) => `${'['.repeat(n)}1${']'.repeat(n)}\n`,
  'flow mappings in block mappings': (n) => `a:\n  b: ${'{x: '.repeat(n - 2)}1${'}'.repeat(n - 2)}\n`,
  'sequences at the column of their keys': (n) =>
    `${Array.from({ length: n / 2 }, (_, i) => `${'  '.repeat(i)}k:\n${'  '.repeat(i)}-`).join('\n')} 1\n`,
};

function readerRefuses(text: string): boolean {
  const file = readWithYaml(text, 'f.yaml');
  return [...file.diagnostics, ...file.documents.flatMap((d) => d.diagnostics)].some((d) => /nested deeper/.test(d.message));
}

describe('prescanYaml: nesting', () => {
  for (const [shape, make] of Object.entries(SHAPES)) {
    it(`${shape}: takes what the reader takes, refuses past the limit`, () => {
      for (let n = MAX_DEPTH - 2; n <= MAX_DEPTH + 4; n += 2) {
        const text = make(n);
        const refused = prescanYaml(text);
        // Never refuses what the reader would read; refuses two levels past the reader's limit.
        if (!readerRefuses(text)) expect(refused, `${shape} ${n}`).toBeUndefined();
        if (n >= MAX_DEPTH + 2) expect(refused?.message, `${shape} ${n}`).toBe(`nested deeper than ${MAX_DEPTH} levels`);
      }
    });
  }

  it('does not count brackets in quotes, block scalars, plain text or comments', () => {
    const deep = '['.repeat(200);
    const text = [`a: "${deep}"`, `b: '${deep}'`, 'c: |', `  ${deep}`, `d: x${deep}`, `# ${deep}`, `e: [1, "${']'.repeat(100)}"]`, ''].join('\n');
    expect(prescanYaml(text)).toBeUndefined();
  });

  it('stops at the first lexeme past the limit, however long the file', () => {
    expect(prescanYaml('['.repeat(5_000_000))).toEqual({ offset: MAX_DEPTH + 1, message: `nested deeper than ${MAX_DEPTH} levels` });
  });

  it('reports a mapping at its key', () => {
    const refused = prescanYaml(SHAPES['block mappings']!(MAX_DEPTH + 2));
    const text = SHAPES['block mappings']!(MAX_DEPTH + 2);
    expect(text.slice(refused!.offset, refused!.offset + 4)).toBe(`k${MAX_DEPTH + 1}:`);
  });
});

describe('prescanYaml: values', () => {
  it('counts values, not keys, against the budget', () => {
    const mapping = Array.from({ length: 10 }, (_, i) => `k${i}: v`).join('\n');
    expect(prescanYaml(mapping, 11)).toBeUndefined();
    expect(prescanYaml(`${mapping}\nk10: v\n`, 10)).toMatchObject({ message: expect.stringMatching(/^more than 10 values in one file/) });
    // The sequence and its first nine items fit; the tenth item (offset 19) is one too many.
    expect(prescanYaml(`[${'1,'.repeat(20)}1]`, 10)).toMatchObject({ offset: 19 });
  });
});

describe('documentCount', () => {
  it.each([
    ['', 0],
    ['# only a comment\n', 0],
    ['a: 1\n', 1],
    ['---\na: 1\n', 1],
    ['a: 1\n---\nb: 2\n', 2],
    ['---\n---\n---\n', 3],
    ['a\n...\nb\n...\n', 2],
    ['---\na\n...\n---\nb\n...\n', 2],
    ['%YAML 1.2\n---\na\n', 1],
    ['a: |\n  ---x\n---x: 1\n', 1],
    ['--- a\n--- b\n', 2],
  ])('%j holds %i documents', (text, count) => {
    expect(documentCount(text)).toBe(count);
  });

  it('moreDocumentsThan answers as documentCount does, also for texts of documents as dense as they come', () => {
    const line = fc.constantFrom('---', '...', 'a', '#', '', ' b', '--- c', '%Y', '\ufeff', '\r');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), fc.integer({ min: -1, max: 8 }), (lines, lastBreak, room) => {
        const text = lines.join('\n') + (lastBreak ? '\n' : '');
        expect(moreDocumentsThan(text, room)).toBe(documentCount(text) > room);
      }),
      { numRuns: 3000 },
    );
  });
});
