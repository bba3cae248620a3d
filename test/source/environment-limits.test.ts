// An environment's overlay files (environments/NAME/) count toward the tree's limits like the base
// files, and go through the same pre-scan: the limits bound what is read, whatever folder it is in.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostics.js';
import type { Desired } from '../../src/core/types.js';
import { readDesired } from '../../src/source/index.js';
import type { TreeLimits } from '../../src/source/limits.js';
import { useScratch, type Files } from '../support/tree.js';
import { namedMonitorYaml, resource } from '../support/yaml.js';

const scratch = useScratch('wsync-env-limits-');

const CONFIG = 'environments:\n  staging: {}\n  prod: {}\n';

const monitor = (name: string): string => namedMonitorYaml(name);

const BASE: Files = { 'wsync.yaml': CONFIG, 'm.yaml': monitor('errors') };
const baseBytes = Object.values(BASE).reduce((sum, text) => sum + Buffer.byteLength(text as string), 0);
/** Documents of BASE: wsync.yaml's and the monitor. */
const BASE_DOCUMENTS = 2;

const render = (dir: string, environment: string, limits: Partial<TreeLimits>): Promise<Desired> => readDesired(dir, { env: {}, environment, limits });
const errors = (desired: Desired): string[] => desired.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);

describe("an environment's overlay files count toward the tree's limits", () => {
  it('bytes: an overlay file past --max-input-bytes stops reading with an error naming it', async () => {
    const own = Array.from({ length: 20 }, (_, i) => monitor(`prod-${i}`)).join('---\n');
    const dir = scratch.tree({ ...BASE, 'environments/prod/own.yaml': own });
    const limits = { maxBytes: baseBytes + 100 };
    expect(errors(await render(dir, 'staging', limits))).toEqual([]);
    const prod = await render(dir, 'prod', limits);
    expect(errors(prod)).toEqual([
      expect.stringMatching(/^environments\/prod\/own\.yaml:1:1: environment prod: the files hold more than \d+ bytes in total: .*--max-input-bytes/),
    ]);
    expect(prod.resources.filter((r) => r.name.startsWith('prod-'))).toEqual([]);
  });

  it('bytes: overlays and base within the limit apart, past it together, are refused, the message saying the overlays count', async () => {
    const overlay = resource('Monitor', 'errors', { threshold: 2, description: 'x'.repeat(200) });
    const dir = scratch.tree({ ...BASE, 'environments/prod/m.yaml': overlay });
    const limits = { maxBytes: baseBytes + Buffer.byteLength(overlay) - 1 };
    expect(errors(await render(dir, 'staging', limits))).toEqual([]);
    expect(errors(await render(dir, 'prod', limits))).toEqual([
      expect.stringMatching(/the files hold more than \d+ bytes in total: .*\(environment prod's overlay files, read first, count toward it\)/),
    ]);
  });

  it('resources: overlay documents count toward --max-resources before they are parsed', async () => {
    const own = Array.from({ length: 3 }, (_, i) => monitor(`prod-${i}`)).join('---\n');
    const dir = scratch.tree({ ...BASE, 'environments/prod/own.yaml': own });
    const limits = { maxResources: BASE_DOCUMENTS + 2 };
    expect(errors(await render(dir, 'staging', limits))).toEqual([]);
    expect(errors(await render(dir, 'prod', { maxResources: 2 }))).toEqual([
      expect.stringMatching(/^environments\/prod\/own\.yaml:1:1: environment prod: the files declare more than 2 resources: .*--max-resources/),
    ]);
    expect(errors(await render(dir, 'prod', limits))).toEqual([
      expect.stringMatching(/^(m|wsync)\.yaml:1:1: environment prod: the files declare more than 4 resources: .*environment prod's overlay files, read first, count toward it/),
    ]);
    expect(errors(await render(dir, 'prod', { maxResources: BASE_DOCUMENTS + 3 }))).toEqual([]);
  });

  it('bytes: what aliases in an overlay file expand to counts as written out, at the overlay file', async () => {
    const aliased = ['apiVersion: v1', 'kind: ConfigMap', 'data:', `  a: &long "${'x'.repeat(1000)}"`, ...Array.from({ length: 10 }, (_, i) => `  b${i}: *long`), ''].join('\n');
    const dir = scratch.tree({ ...BASE, 'environments/prod/aliased.yaml': aliased });
    const files = baseBytes + Buffer.byteLength(aliased);
    expect(errors(await render(dir, 'prod', { maxBytes: files + 10_100 }))).toEqual([]);
    expect(errors(await render(dir, 'prod', { maxBytes: files + 9_000 }))).toEqual([
      expect.stringMatching(/^environments\/prod\/aliased\.yaml:1:1: environment prod: the files hold more than \d+ bytes in total: .*\(what aliases expand to counts as written out\)/),
    ]);
  });

  it('an overlay nested past the depth limit is refused by the pre-scan at its file and line', async () => {
    const deep = ['apiVersion: wsync/v1', 'kind: Monitor', 'metadata:', '  name: errors', 'spec:', '  description:'];
    for (let depth = 0; depth < 70; depth++) deep.push(`${'  '.repeat(depth + 2)}k:`);
    const dir = scratch.tree({ ...BASE, 'environments/prod/m.yaml': `${deep.join('\n')} x\n` });
    const prod = errors(await render(dir, 'prod', {}));
    expect(prod).toEqual([expect.stringMatching(/^environments\/prod\/m\.yaml:\d+:\d+: environment prod: nested deeper than 64 levels/)]);
  });

  it('what an overlay-only dashboard names in JSON counts toward the bytes', async () => {
    const json = `${JSON.stringify({
      name: 'Checkout',
      charts: [{ id: 'errors', type: 'TimeSeries', query: { apl: `['checkout'] | where msg != '${'x'.repeat(2000)}' | count` } }],
      layout: [{ i: 'errors', x: 0, y: 0, w: 12, h: 4 }],
      refreshTime: 60,
      schemaVersion: 2,
      timeWindowStart: 'qr-now-1h',
      timeWindowEnd: 'qr-now',
    })}\n`;
    const dashboard = ['apiVersion: wsync/v1', 'kind: Dashboard', 'metadata:', '  name: board', 'spec:', '  file: board.json', ''].join('\n');
    const dir = scratch.tree({ ...BASE, 'environments/prod/board.yaml': dashboard, 'environments/prod/board.json': json });
    const within = baseBytes + Buffer.byteLength(dashboard) + Buffer.byteLength(json) + 10;
    expect(errors(await render(dir, 'prod', { maxBytes: within }))).toEqual([]);
    expect(errors(await render(dir, 'prod', { maxBytes: within - 20 })).join('\n')).toMatch(/^environments\/prod\/board\.yaml:6:3: .*spec\.file: "board\.json": the files hold more than the tree may \(--max-input-bytes\)/);
  });
});
