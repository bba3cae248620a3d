// The per-kind table of docs/wire-contract.md ("Per kind: a file with only its required fields, and
// an optional field removed") says what the kind modules do: it is read here and checked against the
// modules' defaults, computed and uncleared fields, the schemas, and the rows of
// minimal-resources.ts that the convergence test applies. A doc that drifts from the code fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonValue, KindName } from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { packageRoot } from '../../src/util/package-root.js';
import { MINIMAL } from './minimal-resources.js';

const root = packageRoot();
const HEADING = '### Per kind: a file with only its required fields, and an optional field removed';

interface Row {
  required: string[];
  /** Field -> the default written back, or undefined when it is sent absent. */
  cleared: Map<string, JsonValue | undefined>;
  computed: string[];
  uncleared: string[];
}

/** The backticked names of a cell; `name: value` gives the value as JSON. */
function entries(cell: string): [string, JsonValue | undefined][] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => {
    const text = m[1] ?? '';
    const colon = text.indexOf(': ');
    return colon < 0 ? [text, undefined] : [text.slice(0, colon), JSON.parse(text.slice(colon + 2)) as JsonValue];
  });
}

function tableRows(): Map<string, Row> {
  const doc = readFileSync(join(root, 'docs', 'wire-contract.md'), 'utf8');
  const start = doc.indexOf(HEADING);
  expect(start, 'the heading is in docs/wire-contract.md').toBeGreaterThanOrEqual(0);
  const lines = doc.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('| kind |'));
  const rows = new Map<string, Row>();
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const [, kind = '', required = '', cleared = '', computed = '', uncleared = ''] = line.split('|').map((c) => c.trim());
    rows.set(kind, {
      required: entries(required).map(([name]) => name),
      cleared: new Map(entries(cleared)),
      computed: entries(computed).map(([name]) => name),
      uncleared: entries(uncleared).map(([name]) => name),
    });
  }
  return rows;
}

interface SpecSchema {
  required?: string[];
  properties?: Record<string, unknown>;
  oneOf?: { required?: string[] }[];
}

function specSchema(kind: KindName): SpecSchema {
  const file = JSON.parse(readFileSync(join(root, 'schemas', KINDS[kind].schemaFile), 'utf8')) as { properties: { spec: SpecSchema } };
  return file.properties.spec;
}

describe('docs/wire-contract.md, the per-kind table', () => {
  const rows = tableRows();

  it('has one row per kind, and no other', () => {
    expect([...rows.keys()].sort()).toEqual([...KIND_NAMES].sort());
  });

  describe.each(KIND_NAMES)('%s', (kind) => {
    const module = KINDS[kind];
    const minimal = MINIMAL[kind];

    it('names every field the schema requires, and those of the minimal resource the convergence test applies', () => {
      const row = rows.get(kind);
      const schema = specSchema(kind);
      for (const field of [...(schema.required ?? []), ...Object.keys(minimal.required)]) expect(row?.required, field).toContain(field);
    });

    it('lists exactly the optional fields the convergence test sets and removes, each in the column its module says', () => {
      const row = rows.get(kind);
      if (!row) throw new Error(`no row for ${kind}`);
      const listed = [...row.cleared.keys(), ...row.computed, ...row.uncleared];
      expect(listed.sort()).toEqual(Object.keys(minimal.optional).sort());
      expect(row.computed.sort()).toEqual(Object.keys(minimal.optional).filter((f) => module.computed.includes(f)).sort());
      expect(row.uncleared.sort()).toEqual(Object.keys(minimal.optional).filter((f) => (module.uncleared ?? []).includes(f)).sort());
      for (const [field, value] of row.cleared) {
        expect(module.defaults[field], `${kind}.${field}: the default the table names is the module's`).toEqual(value);
      }
    });

    it('covers every optional field of the schema (a choice between fields counts as required)', () => {
      const schema = specSchema(kind);
      const alternatives = (schema.oneOf ?? []).flatMap((choice) => choice.required ?? []);
      // A write option (how to write, not what the object holds) is never read back: nothing to clear.
      const writeOptions = module.writeOptions ?? [];
      const optional = Object.keys(schema.properties ?? {}).filter(
        (f) => !(schema.required ?? []).includes(f) && !alternatives.includes(f) && !writeOptions.includes(f),
      );
      const covered = new Set(Object.keys(minimal.optional).map((path) => path.split('.')[0]));
      for (const field of optional) expect(covered.has(field), `${kind}.${field} is set and removed by the convergence test`).toBe(true);
    });
  });
});
