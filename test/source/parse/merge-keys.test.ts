// Merge keys (`<<: *defaults`, `<<: [*a, *b]`): values as YAML's merge type defines them, positions
// where the merged keys are written, the same on the fast path and the yaml path.
import { describe, expect, it } from 'vitest';
import { parseFile, parseFileWithYaml } from '../../../src/source/parse/document.js';
import { readFast } from '../../../src/source/parse/fast-document.js';
import { createSecretSources } from '../../../src/source/interpolate/interpolate.js';
import { doc, errorsOf, readOne } from '../helpers.js';

const role = (...capabilities: string[]): string =>
  doc('kind: Role', 'metadata:', '  name: sre', 'spec:', '  datasetCapabilities:', ...capabilities);

function bothPaths(text: string): void {
  const sources = () => createSecretSources({ TOKEN: 'merge-secret' }, undefined);
  const fast = readFast(text, 'r.yaml', sources());
  expect(fast, 'the fast path takes merge keys').toBeDefined();
  const exact = parseFileWithYaml(text, 'r.yaml', sources());
  expect(fast?.map((d) => d.value)).toEqual(exact.documents.map((d) => d.value));
  expect(fast?.map((d) => d.locations)).toEqual(exact.documents.map((d) => d.locations));
  expect(fast?.map((d) => d.interpolated)).toEqual(exact.documents.map((d) => d.interpolated));
}

describe('merge keys', () => {
  it('merge an anchored mapping; explicit keys win wherever they stand', () => {
    const text = role(
      '    logs: &read',
      '      query: [read]',
      '      starredQueries: [read]',
      '    traces:',
      '      starredQueries: [create, read]',
      '      <<: *read',
      '      ingest: [create]',
    );
    const desired = readOne(text);
    expect(errorsOf(desired)).toEqual([]);
    expect(desired.resources[0]?.spec.datasetCapabilities).toEqual({
      logs: { query: ['read'], starredQueries: ['read'] },
      traces: { starredQueries: ['create', 'read'], query: ['read'], ingest: ['create'] },
    });
    bothPaths(text);
  });

  it('merge a list of mappings, the earlier one first, and let a later explicit key override', () => {
    const text = role(
      '    a: &a {query: [read], trim: [update]}',
      '    b: &b {query: [], vacuum: [update], data: [delete]}',
      '    c:',
      '      <<: [*a, *b]',
      '      data: []',
    );
    const [resource] = readOne(text).resources;
    expect(resource?.spec.datasetCapabilities).toMatchObject({ c: { query: ['read'], trim: ['update'], vacuum: ['update'], data: [] } });
    bothPaths(text);
  });

  it('place a merged key where it is written, an overriding key where it is', () => {
    const text = role(
      '    logs: &read',
      '      query: [read]',
      '      ingest: [create]',
      '    traces:',
      '      <<: *read',
      '      ingest: []',
    );
    const [resource] = readOne(text).resources;
    expect(resource?.locations['/spec/datasetCapabilities/traces/query']).toMatchObject({ line: 8, column: 7 });
    expect(resource?.locations['/spec/datasetCapabilities/traces/query/0']).toMatchObject({ line: 8, column: 15 });
    expect(resource?.locations['/spec/datasetCapabilities/traces/ingest']).toMatchObject({ line: 12, column: 7 });
    bothPaths(text);
  });

  it('report a problem in a merged value at the line that holds it', () => {
    const text = role('    logs: &read', '      query: [write]', '    traces:', '      <<: *read');
    expect(errorsOf(readOne(text))).toMatchObject([
      { code: 'schema', line: 8, field: 'spec.datasetCapabilities.logs.query[0]' },
      { code: 'schema', line: 8, field: 'spec.datasetCapabilities.traces.query[0]' },
    ]);
  });

  it('interpolate merged strings at their place in the result', () => {
    const text = doc(
      'kind: Notifier',
      'metadata:',
      '  name: hook',
      'spec:',
      '  properties:',
      '    customWebhook:',
      '      <<: &hook',
      '        url: https://example.com/hook',
      '        secretHeaders: {Authorization: "Bearer ${env:TOKEN}"}',
      '      body: "{}"',
    );
    const desired = readOne(text, { env: { TOKEN: 'merge-secret' } });
    expect(errorsOf(desired)).toEqual([]);
    expect(desired.resources[0]?.interpolated).toEqual(['/spec/properties/customWebhook/secretHeaders/Authorization']);
    expect(desired.secretValues).toEqual(['merge-secret']);
    bothPaths(text);
  });

  it('take only mappings, and one merge key per mapping', () => {
    expect(errorsOf(readOne(role('    logs:', '      <<: [read]')))).toMatchObject([
      { code: 'merge-key', line: 8, column: 7, field: 'spec.datasetCapabilities.logs.<<' },
    ]);
    expect(errorsOf(readOne(role('    logs:', '      <<: {query: [read]}', '      <<: {ingest: [create]}')))).toMatchObject([
      { code: 'duplicate-key', line: 9, column: 7 },
    ]);
  });

  it('treat a quoted "<<" as an ordinary key', () => {
    const text = role('    logs: &read {query: [read]}', '    traces:', '      "<<": *read');
    expect(readFast(text, 'r.yaml', createSecretSources({}, undefined))).toBeUndefined();
    expect(errorsOf(readOne(text))).toMatchObject([{ code: 'unknown-field', line: 9, field: 'spec.datasetCapabilities.traces.<<' }]);
    expect(parseFile(text, 'r.yaml', createSecretSources({}, undefined)).documents[0]?.diagnostics).toEqual([]);
  });
});
