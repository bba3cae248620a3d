// The scan that lets js-yaml read a file without the guard's listener must vouch only for texts in
// which the guard finds nothing: same parse, no reason to decline, the same document starts, and
// within the guard's node budget and depth limit (tested by asking the scan with the limits the
// text actually reaches: it must then refuse to vouch).
import fc from 'fast-check';
import jsYaml from 'js-yaml';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_SCHEMA_12 } from '../../../src/source/parse/core-schema.js';
import { declinedText, Guard, GuardStop } from '../../../src/source/parse/fast-guard.js';
import { lineScanStarts, simpleDocumentStarts, wholeTextStarts, type GuardLimits } from '../../../src/source/parse/simple-yaml.js';
import { MAX_DEPTH } from '../../../src/source/limits.js';
import { yamlFilesUnder } from '../../support/tree.js';
import { damage, yamlFile } from '../yaml-text.js';
import { editedPlainYamlFile, plainYamlFile } from '../plain-yaml-text.js';

const RUNS = Number(process.env.FAST_PATH_RUNS ?? 400);
const LIMITS: GuardLimits = { nodes: 100_000, depth: MAX_DEPTH - 1 };
const LOAD = { schema: CORE_SCHEMA_12, maxDepth: MAX_DEPTH + 8 };

/** What the guard makes of a text: js-yaml's error, its reason to decline, or its document starts. */
function guarded(text: string): { error: string } | { unusual: string } | { starts: Guard['starts']; raws: unknown[] } {
  const guard = new Guard(Number.MAX_SAFE_INTEGER);
  try {
    const raws = jsYaml.loadAll(text, null, { ...LOAD, listener: guard.listener });
    return guard.unusual === undefined ? { starts: guard.starts, raws } : { unusual: guard.unusual };
  } catch (err) {
    if (err instanceof GuardStop) return { unusual: err.message };
    return { error: String(err) };
  }
}

/** The most nodes js-yaml closes in one document (as the guard counts them) and the deepest close. */
function reach(text: string): { nodes: number; depth: number } {
  let nodes = 0;
  let most = 0;
  let depth = 0;
  const listener = (event: string, state: unknown): void => {
    const s = state as { depth: number };
    if (event === 'open' && s.depth === 1) nodes = 0;
    if (event === 'close') {
      most = Math.max(most, ++nodes);
      depth = Math.max(depth, s.depth);
    }
  };
  try {
    jsYaml.loadAll(text, null, { ...LOAD, listener });
  } catch {
    // js-yaml refused it: what it reached is still a bound the scan must respect.
  }
  return { nodes: most, depth };
}

/** The scan's yes implies the guard's nothing; returns whether it vouched. */
function checkScan(text: string): boolean {
  if (declinedText(text) !== undefined) return false;
  // The whole-text check vouches for a part of what the line scan vouches for, with the same starts.
  const whole = wholeTextStarts(text, LIMITS);
  const lines = lineScanStarts(text, LIMITS);
  if (whole !== undefined) expect(lines, text).toEqual(whole);
  expect(simpleDocumentStarts(text, LIMITS), text).toEqual(whole ?? lines);
  if (lines === undefined) return false;
  checkGuard(text, lines);
  return true;
}

function checkGuard(text: string, starts: readonly unknown[]): void {
  const read = guarded(text);
  if ('error' in read) {
    // The listener changes nothing in js-yaml's parse: it fails without the guard too.
    expect(() => jsYaml.loadAll(text, null, LOAD), text).toThrow();
    return;
  }
  expect(read, text).not.toHaveProperty('unusual');
  if (!('starts' in read)) return;
  read.raws.forEach((raw, i) => {
    if (raw !== null && raw !== undefined) expect(starts[i], text).toEqual(read.starts[i]);
  });
  const { nodes, depth } = reach(text);
  for (const scan of [simpleDocumentStarts, lineScanStarts]) {
    expect(scan(text, { nodes: nodes - 1, depth: LIMITS.depth }), `node bound below ${nodes}:\n${text}`).toBeUndefined();
    expect(scan(text, { nodes: LIMITS.nodes, depth }), `depth bound below ${depth}:\n${text}`).toBeUndefined();
  }
}

describe('the scan that spares vouched files the guard', () => {
  it('vouches only where the guard finds nothing, on resource-like files and edits of them', () => {
    let vouched = 0;
    fc.assert(
      fc.property(editedPlainYamlFile, (text) => {
        if (checkScan(text)) vouched++;
      }),
      { numRuns: RUNS * 2 },
    );
    // Both answers are exercised (bounds far below what runs give, not to be flaky).
    expect(vouched).toBeGreaterThan(RUNS / 5);
    expect(vouched).toBeLessThan(RUNS * 2 - RUNS / 5);
  });

  it('vouches only where the guard finds nothing, on YAML with its corners', () => {
    fc.assert(
      fc.property(yamlFile({ mergeKeys: true }), damage, (text, damageWith) => {
        checkScan(damageWith(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('vouches for most generated resource files as written, most without a block scalar at once', () => {
    let vouched = 0;
    let whole = 0;
    fc.assert(
      fc.property(plainYamlFile, (text) => {
        if (checkScan(text)) vouched++;
        if (wholeTextStarts(text, LIMITS) !== undefined) whole++;
      }),
      { numRuns: RUNS },
    );
    expect(vouched).toBeGreaterThan(RUNS / 4);
    expect(whole).toBeGreaterThan(RUNS / 8);
  });

  it('vouches for every example in config-examples', () => {
    const files = [...yamlFilesUnder('config-examples')];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(checkScan(text), file).toBe(true);
    }
    // The monitors, as the bench writes them too, are vouched for at once.
    for (const file of yamlFilesUnder('config-examples/monitors')) expect(wholeTextStarts(readFileSync(file, 'utf8'), LIMITS), file).toBeDefined();
  });

  it('keeps deep nesting within the depth limit or leaves it to the guard', () => {
    for (let levels = 20; levels <= 70; levels += 5) {
      const mappings = Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' [x]\n';
      const mixed = Array.from({ length: levels }, (_, i) => `${' '.repeat(2 * i)}k:\n${' '.repeat(2 * i)}- a: 1`).join('\n') + '\n';
      for (const text of [mappings, mixed]) {
        if (simpleDocumentStarts(text, LIMITS) === undefined) continue;
        checkScan(text);
        expect(guarded(text)).toHaveProperty('starts');
      }
    }
  });

  it('counts a long document toward the node budget', () => {
    const text = `a: "*"\n${Array.from({ length: 700 }, (_, i) => `k${i}: [a, b]`).join('\n')}\n`;
    expect(checkScan(text)).toBe(true);
    // With an asterisk in the file the fast path's budget is 5,000 closed nodes per document.
    expect(simpleDocumentStarts(text, { nodes: 5_000, depth: LIMITS.depth })).toBeUndefined();
  });
});
