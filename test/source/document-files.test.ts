// A dashboard's document kept as a JSON file beside its YAML (spec.file): read from the tree, every
// mistake in it named by the JSON file, line and field, and a path that leaves the tree refused.
import { afterAll, describe, expect, it } from 'vitest';
import { readDesired } from '../../src/source/index.js';
import { makeTree } from './helpers.js';

const RESOURCE = (file: string): string =>
  ['apiVersion: wsync/v1', 'kind: Dashboard', 'metadata:', '  name: checkout', 'spec:', `  file: ${file}`, ''].join('\n');

const DOCUMENT = {
  name: 'Checkout',
  charts: [{ id: 'errors', type: 'TimeSeries', query: { apl: "['checkout'] | count" } }],
  layout: [{ i: 'errors', x: 0, y: 0, w: 12, h: 4 }],
  refreshTime: 60,
  schemaVersion: 2,
  timeWindowStart: 'qr-now-1h',
  timeWindowEnd: 'qr-now',
};

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const trees: Array<() => void> = [];
afterAll(() => trees.forEach((cleanup) => cleanup()));

async function read(files: Record<string, string>): Promise<Awaited<ReturnType<typeof readDesired>>> {
  const tree = makeTree(files);
  trees.push(tree.cleanup);
  return readDesired(tree.dir);
}

describe('document files', () => {
  it('reads the document from the JSON file the resource names, relative to it', async () => {
    const desired = await read({ 'boards/checkout.yaml': RESOURCE('json/checkout.json'), 'boards/json/checkout.json': pretty(DOCUMENT) });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources).toHaveLength(1);
    expect(desired.resources[0]?.spec).toEqual({ dashboard: DOCUMENT });
  });

  it('names the JSON file, line and field of a mistake inside it', async () => {
    const broken = { ...DOCUMENT, layout: [{ i: 'errors', x: 14, y: 0, w: 12, h: 4 }] };
    const desired = await read({ 'checkout.yaml': RESOURCE('checkout.json'), 'checkout.json': pretty(broken) });
    const error = desired.diagnostics.find((d) => d.severity === 'error');
    // The field as the JSON file spells it: the file is the document.
    expect(error).toMatchObject({ file: 'checkout.json', field: 'layout[0].x' });
    expect(error?.line).toBe(pretty(broken).split('\n').findIndex((l) => l.includes('"x": 14')) + 1);
    expect(desired.resources).toHaveLength(0);
  });

  it('names the line and column of a JSON syntax error (a trailing comma)', async () => {
    const text = pretty(DOCUMENT).replace('"qr-now"\n', '"qr-now",\n');
    const desired = await read({ 'checkout.yaml': RESOURCE('checkout.json'), 'checkout.json': text });
    expect(desired.diagnostics).toHaveLength(1);
    expect(desired.diagnostics[0]).toMatchObject({ severity: 'error', code: 'json-syntax', file: 'checkout.json' });
    expect(desired.diagnostics[0]?.message).toContain('trailing comma');
    expect(desired.diagnostics[0]?.line).toBe(text.split('\n').findIndex((l) => l.includes('"qr-now",')) + 1);
  });

  it('refuses a missing file and a path that leaves the tree, at the line of spec.file', async () => {
    const missing = await read({ 'checkout.yaml': RESOURCE('nope.json') });
    expect(missing.diagnostics[0]).toMatchObject({ severity: 'error', file: 'checkout.yaml', line: 6, field: 'spec.file' });
    const outside = await read({ 'in/checkout.yaml': RESOURCE('../../outside.json') });
    expect(outside.diagnostics[0]).toMatchObject({ severity: 'error', file: 'in/checkout.yaml', line: 6, field: 'spec.file' });
    expect(outside.diagnostics[0]?.message).toMatch(/^spec\.file: /);
    expect(missing.resources).toHaveLength(0);
    expect(outside.resources).toHaveLength(0);
  });
});
