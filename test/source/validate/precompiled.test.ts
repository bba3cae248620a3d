// The built CLI validates with dist/source/validate/validators.cjs (compiled by `npm run build`); the tests
// that run from the sources compile at run time. Both must answer alike.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/index.js';
import { createAjv, exportNameOf } from '../../../src/source/validate/validator.js';

const built = join(import.meta.dirname, '..', '..', '..', 'dist', 'source', 'validate', 'validators.cjs');

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
    expect(existsSync(built), 'dist/source/validate/validators.cjs is missing: run npm run build (npm test does)').toBe(true);
    const precompiled = createRequire(import.meta.url)(built) as Record<string, ((data: unknown) => boolean) & { errors?: unknown }>;
    const ajv = createAjv();
    for (const module of Object.values(KINDS)) {
      const ahead = precompiled[exportNameOf(module.schemaFile)];
      const now = ajv.getSchema(module.schemaFile);
      expect(ahead, module.schemaFile).toBeDefined();
      for (const sample of samples) {
        expect(ahead?.(sample), `${module.schemaFile}`).toBe(now?.(sample));
        expect(JSON.stringify(ahead?.errors ?? null)).toBe(JSON.stringify(now?.errors ?? null));
      }
    }
  });
});
