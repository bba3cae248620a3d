// validate never crashes and never hangs: for any text, and for YAML that looks more or less like
// resources, the result is resources plus diagnostics, never an exception. A hang fails on the
// test's timeout; how fast validate is belongs to the benchmarks (bench/validate.mjs).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { hasErrors } from '../../src/core/diagnostics.js';
import type { Desired } from '../../src/core/types.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { desiredFromTexts } from '../../src/source/index.js';
import { runValidate } from '../../src/cli/commands/validate/action.js';
import { renderValidation } from '../../src/cli/commands/validate/report.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-property-');
const RUNS = 200;
/** Far above the few milliseconds a run takes: a run this slow is a hang, not a slow machine. */
const HANG_MS = 5000;
const ENV = { SECRET: 'property-secret-value', EMPTY: '' };

const LEXEMES = [
  'apiVersion: wsync/v1\n', 'kind: Monitor\n', 'kind: Notifier\n', 'kind: User\n', 'kind: Bogus\n', 'metadata:\n',
  '  name: x\n', 'spec:\n', '  type: Threshold\n', '  notifiers: [a, b]\n', '  properties:\n', '    slack:\n',
  '      slackUrl: ${env:SECRET}\n', '${env:MISSING}', '${file:x}', '$${', '${', '}', '---\n', '...\n', '- ', '  ', '\t',
  '\n', ': ', '? ', '{', '}', '[', ']', ',', '&a ', '*a', '*b', '!!str ', '!!int ', '!custom ', '|\n', '>-\n', '#', '"',
  "'", '\\', '%YAML 1.2\n', '~', 'null', '.inf', '0x1F', '1e999', '__proto__: 1\n', 'constructor: {}\n', '<<: *a\n',
  '\u0000', '\ufeff', 'é', '\u2028',
];

const yamlish = fc.array(fc.constantFrom(...LEXEMES), { maxLength: 120 }).map((parts) => parts.join(''));

const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const fieldNames = fc.constantFrom(
  'type', 'aplQuery', 'operator', 'threshold', 'notifiers', 'properties', 'slack', 'slackUrl', 'email', 'emails',
  'name', 'role', 'members', 'dataset', 'expression', 'owner', 'query', 'apl', 'datasets', 'orgCapabilities', 'x',
);
const specValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.constant('${env:SECRET}'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fieldNames, tie('value'), { maxKeys: 5 }),
  ),
})).value;

const resourceLike = fc
  .record(
    {
      apiVersion: fc.oneof(fc.constant('wsync/v1'), fc.constant('wsync/v2'), fc.string({ maxLength: 10 })),
      kind: fc.oneof(fc.constantFrom(...KIND_NAMES), fc.string({ maxLength: 12 })),
      metadata: fc.record(
        { name: fc.oneof(fc.string({ maxLength: 20 }), fc.emailAddress(), scalar), annotations: fc.dictionary(fc.string(), scalar) },
        { requiredKeys: [] },
      ),
      spec: specValue,
    },
    { requiredKeys: [] },
  )
  .map((d) => stringify(d));

const documents = fc.array(fc.oneof(resourceLike, yamlish), { minLength: 1, maxLength: 4 }).map((docs) => docs.join('---\n'));

/** The invariants of any result: each document is a resource, skipped, or has an error. */
function checkResult(desired: Desired): void {
  expect(Array.isArray(desired.diagnostics)).toBe(true);
  for (const d of desired.diagnostics) {
    expect(['error', 'warning']).toContain(d.severity);
    expect(typeof d.code).toBe('string');
    expect(typeof d.message).toBe('string');
    if (d.file !== undefined) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
    }
  }
  if (!hasErrors(desired.diagnostics)) {
    expect(desired.resources.length + desired.stats.skipped).toBe(desired.stats.documents);
  }
  const text = renderValidation(desired);
  expect(text.exitCode).toBe(hasErrors(desired.diagnostics) ? 1 : 0);
  const json = JSON.parse(renderValidation(desired, { format: 'json' }).output) as { valid: boolean };
  expect(json.valid).toBe(text.exitCode === 0);
  expect(text.output).not.toContain(ENV.SECRET);
}

describe('validate on arbitrary input', () => {
  it('arbitrary text never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => {
        checkResult(desiredFromTexts([{ path: 'a.yaml', text }], { env: ENV }));
      }),
      { numRuns: RUNS },
    );
  });

  it('YAML-ish lexeme soup never throws', () => {
    fc.assert(
      fc.property(yamlish, (text) => {
        checkResult(desiredFromTexts([{ path: 'a.yaml', text }], { env: ENV }));
      }),
      { numRuns: RUNS },
    );
  });

  it('resource-shaped documents, whole or cut and spliced, never throw', () => {
    fc.assert(
      fc.property(documents, fc.nat(), fc.nat(), (text, cut, splice) => {
        const mangled = text.slice(0, cut % (text.length + 1)) + text.slice(splice % (text.length + 1));
        checkResult(desiredFromTexts([{ path: 'a.yaml', text }, { path: 'b.yml', text: mangled }], { env: ENV }));
      }),
      { numRuns: RUNS },
    );
  });

  it('the validate command over a directory of such files never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(documents, { minLength: 1, maxLength: 3 }), async (texts) => {
        const dir = scratch.tree(Object.fromEntries(texts.map((text, i) => [`f${i}.yaml`, text])));
        for (const format of ['text', 'json'] as const) {
          const result = await runValidate([dir], { format, env: ENV });
          expect([0, 1]).toContain(result.exitCode);
          expect(result.output).not.toContain(ENV.SECRET);
        }
      }),
      { numRuns: 40, timeout: HANG_MS },
    );
  });
});
