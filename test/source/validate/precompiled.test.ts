// The built CLI validates with dist/source/validate/validators/NAME.cjs (compiled by `npm run build`,
// one module per schema); the tests that run from the sources compile at run time. Both must answer alike.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/index.js';
import { loadSchemas } from '../../../src/source/validate/schema-files.js';
import { createAjv, exportNameOf } from '../../../src/source/validate/validator.js';

const built = join(import.meta.dirname, '..', '..', '..', 'dist', 'source', 'validate', 'validators');

const samples: unknown[] = [
  { apiVersion: 'wsync/v1', kind: 'Monitor', metadata: { name: 'm' }, spec: { type: 'Threshold', aplQuery: 'q', treshold: 3 } },
  { apiVersion: 'wsync/v1', kind: 'Monitor', metadata: { name: 'm', annotations: { 'wsync/nope': 'x' } }, spec: { type: 'Nope', intervalMinutes: 0 } },
  { apiVersion: 'wsync/v1', kind: 'Notifier', metadata: { name: 'n' }, spec: { properties: { slack: { slackUrl: 'not a url' }, email: { emails: [] } } } },
  { apiVersion: 'wsync/v1', kind: 'Role', metadata: { name: 'r' }, spec: { orgCapabilities: { monitors: ['fly'] }, members: ['not-an-email'] } },
  { apiVersion: 'wsync/v1', kind: 'Annotation', metadata: { name: 'a' }, spec: { type: 'Bad Type', datasets: [], time: 'yesterday' } },
  { apiVersion: 'wsync/v1', kind: 'StarredQuery', metadata: { name: 'q' }, spec: { owner: 'a@b.c', query: { apl: 'x', queryOptions: { priority: 'urgent' } } } },
  { apiVersion: 'wsync/v1', kind: 'User', metadata: { name: 'not-an-email' }, spec: { name: 'x', role: 'user' } },
  { apiVersion: 'wsync/v1', kind: 'ApiToken', metadata: { name: 't' }, spec: { datasetCapabilities: { '*': { query: ['write'] } } } },
];

describe('validators compiled ahead of time', () => {
  it('report exactly what the run-time compiled ones report', () => {
    expect(existsSync(built), 'dist/source/validate/validators/ is missing: run npm run build (npm test does)').toBe(true);
    const load = createRequire(import.meta.url);
    const ajv = createAjv();
    for (const module of Object.values(KINDS)) {
      const name = exportNameOf(module.schemaFile);
      const ahead = (load(join(built, `${name}.cjs`)) as Record<string, ((data: unknown) => boolean) & { errors?: unknown }>)[name];
      const now = ajv.getSchema(module.schemaFile);
      expect(ahead, module.schemaFile).toBeDefined();
      for (const sample of samples) {
        expect(ahead?.(sample), `${module.schemaFile}`).toBe(now?.(sample));
        expect(JSON.stringify(ahead?.errors ?? null)).toBe(JSON.stringify(now?.errors ?? null));
      }
    }
  });

  it('are one module per schema (a tree loads only those of its kinds), each exporting its validator', () => {
    const names = [...loadSchemas().keys()].map(exportNameOf).sort();
    expect(readdirSync(built).sort()).toEqual(names.map((name) => `${name}.cjs`));
    const load = createRequire(import.meta.url);
    for (const name of names) expect(Object.keys(load(join(built, `${name}.cjs`)) as object)).toEqual([name]);
  });
});
