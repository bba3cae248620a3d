import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostics.js';
import type { Desired } from '../../src/core/types.js';
import { readWorkspaceConfig } from '../../src/source/config.js';
import { readDesired } from '../../src/source/index.js';
import { useScratch, type Files } from '../support/tree.js';
import { notifierYaml } from '../support/yaml.js';

const scratch = useScratch('wsync-env-');

const CONFIG = `environments:
  staging:
    vars: { errorThreshold: 5, interval: 10, team: checkout-staging, paging: false }
  prod:
    vars: { errorThreshold: 2, interval: 5, team: checkout, paging: true, notifiers: [email, pager] }
`;

const monitor = (name: string, extra: string[] = []): string =>
  [
    'apiVersion: wsync/v1',
    'kind: Monitor',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  type: Threshold',
    '  description: "errors of ${var:team}"',
    "  aplQuery: \"['app'] | summarize count() by bin_auto(_time)\"",
    '  operator: Above',
    '  threshold: ${var:errorThreshold}',
    '  intervalMinutes: ${var:interval}',
    '  rangeMinutes: 10',
    ...extra,
    '',
  ].join('\n');

function tree(files: Files): string {
  return scratch.tree({ 'wsync.yaml': CONFIG, 'notifiers.yaml': `${notifierYaml('email')}---\n${notifierYaml('pager')}`, ...files });
}

const render = (dir: string, environment?: string): Promise<Desired> =>
  readDesired(dir, { env: {}, ...(environment === undefined ? {} : { environment }) });

const errors = (desired: Desired): string[] => desired.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);

describe('${var:NAME}', () => {
  it('an exact placeholder takes the variable type; inside a longer string it is text', async () => {
    const dir = tree({ 'm.yaml': monitor('errors') });
    const staging = await render(dir, 'staging');
    expect(errors(staging)).toEqual([]);
    const m = staging.resources.find((r) => r.kind === 'Monitor');
    expect(m?.spec).toMatchObject({ threshold: 5, intervalMinutes: 10, description: 'errors of checkout-staging' });
    const prod = (await render(dir, 'prod')).resources.find((r) => r.kind === 'Monitor');
    expect(prod?.spec).toMatchObject({ threshold: 2, intervalMinutes: 5, description: 'errors of checkout' });
    expect(staging.environment).toBe('staging');
    expect(staging.secretValues).toEqual([]);
    expect(m?.interpolated).toEqual([]);
  });

  it('a list variable fills a list field; $${ stays the literal escape', async () => {
    const dir = tree({ 'm.yaml': monitor('errors', ['  notifiers: ${var:notifiers}']).replace('errors of ${var:team}', () => 'cost $${var:team}') });
    const prod = await render(dir, 'prod');
    expect(errors(prod)).toEqual([]);
    expect(prod.resources.find((r) => r.kind === 'Monitor')?.spec).toMatchObject({ notifiers: ['email', 'pager'], description: 'cost ${var:team}' });
  });

  it('a variable missing in an environment is an error naming the environment and file:line', async () => {
    const dir = tree({ 'm.yaml': monitor('errors', ['  notifiers: ${var:notifiers}']) });
    expect(errors(await render(dir, 'prod'))).toEqual([]);
    const staging = errors(await render(dir, 'staging'));
    expect(staging).toHaveLength(1);
    expect(staging[0]).toMatch(/^m\.yaml:13:\d+: Monitor\/errors: environment staging: spec\.notifiers: \$\{var:notifiers\}: variable "notifiers" is not defined in environment "staging"/);
  });

  it('a variable of the wrong type is a schema error at the use site naming the environment', async () => {
    const dir = tree({ 'm.yaml': monitor('errors').replace('${var:interval}', '${var:team}') });
    const staging = errors(await render(dir, 'staging'));
    expect(staging).toHaveLength(1);
    expect(staging[0]).toBe('m.yaml:11:3: Monitor/errors: environment staging: spec.intervalMinutes: must be a whole number (the value of "${var:team}")');
  });

  it('a list inside a longer string is an error', async () => {
    const dir = tree({ 'm.yaml': monitor('errors').replace('errors of ${var:team}', 'to ${var:notifiers}') });
    expect(errors(await render(dir, 'prod')).join('\n')).toMatch(/\$\{var:notifiers\} is a list in environment "prod"/);
  });
});

describe('choosing the environment', () => {
  it('without one, a tree with environments is an error naming them; an unknown one lists them', async () => {
    const dir = tree({ 'm.yaml': monitor('errors') });
    expect(errors(await render(dir))).toEqual(['wsync.yaml declares the environments staging, prod: choose one with --env NAME (or WSYNC_ENV)']);
    expect(errors(await render(dir, 'stagin'))).toEqual(['environment stagin: --env stagin: no such environment (did you mean "staging"?); wsync.yaml declares staging, prod'].map((m) => m.replace('environment stagin: ', '')));
  });

  it('on a tree without environments, --env is an error and ${var:} says there are none', async () => {
    const dir = scratch.tree({ 'm.yaml': monitor('errors') });
    expect(errors(await render(dir, 'prod'))[0]).toMatch(/--env prod: wsync.yaml declares no environments/);
    expect(errors(await render(dir))[0]).toMatch(/wsync.yaml declares no environments, so there are no variables/);
  });

  it('names are checked like resource names; values are literal', () => {
    for (const [name, why] of [
      ['a/b', 'path separator'],
      ['..', 'cannot start with "."'],
      ['bad\\u0007', 'control characters'],
    ] as const) {
      const dir = scratch.tree({ 'wsync.yaml': `environments:\n  "${name}": {}\n` });
      const { diagnostics } = readWorkspaceConfig(dir);
      expect(diagnostics.map((d) => d.message).join('\n')).toContain(why);
      expect(diagnostics[0]?.line).toBe(2);
    }
    const dir = scratch.tree({ 'wsync.yaml': 'environments:\n  prod:\n    vars:\n      url: "${env:URL}"\n' });
    const { diagnostics } = readWorkspaceConfig(dir);
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(/^wsync\.yaml:4:\d+: environments\.prod\.vars\.url: a variable's value is literal/),
    ]);
  });
});

describe('overlays in environments/NAME/', () => {
  const overlay = (lines: string[]): string => ['apiVersion: wsync/v1', 'kind: Monitor', 'metadata:', '  name: errors', 'spec:', ...lines, ''].join('\n');

  it('merge by key, replace lists and scalars, remove with null; only that environment reads them', async () => {
    const dir = tree({
      'm.yaml': monitor('errors', ['  notifiers: [email]']),
      'environments/prod/m.yaml': overlay(['  rangeMinutes: 30', '  notifiers: [pager]', '  description: null']),
      'environments/staging/only.yaml': notifierYaml('staging-only'),
    });
    const prod = await render(dir, 'prod');
    expect(errors(prod)).toEqual([]);
    const m = prod.resources.find((r) => r.kind === 'Monitor');
    expect(m?.spec).toMatchObject({ rangeMinutes: 30, notifiers: ['pager'], threshold: 2 });
    expect(m?.spec).not.toHaveProperty('description');
    expect(m?.source.file).toBe('m.yaml');
    expect(prod.resources.map((r) => r.name).sort()).toEqual(['email', 'errors', 'pager']);
    const staging = await render(dir, 'staging');
    expect(staging.resources.map((r) => r.name).sort()).toEqual(['email', 'errors', 'pager', 'staging-only']);
    expect(staging.resources.find((r) => r.kind === 'Monitor')?.spec).toMatchObject({ rangeMinutes: 10, notifiers: ['email'] });
  });

  it('a problem in a merged field names the overlay line, and base and overlay', async () => {
    const dir = tree({ 'm.yaml': monitor('errors'), 'environments/prod/m.yaml': overlay(['  rangeMinutes: soon']) });
    const prod = errors(await render(dir, 'prod'));
    expect(prod).toEqual([expect.stringMatching(/^environments\/prod\/m\.yaml:6:\d+: Monitor\/errors: environment prod: spec\.rangeMinutes: .*\(overlay environments\/prod\/m\.yaml:1 over the base at m\.yaml:1\)$/)]);
    expect(errors(await render(dir, 'staging'))).toEqual([]);
  });

  it('an overlay whose base has another kind is an error', async () => {
    const dir = tree({ 'environments/prod/email.yaml': ['apiVersion: wsync/v1', 'kind: Monitor', 'metadata:', '  name: email', 'spec: {}', ''].join('\n') });
    const prod = errors(await render(dir, 'prod'));
    expect(prod).toEqual([expect.stringMatching(/^environments\/prod\/email\.yaml:1:1: Monitor\/email: environment prod: environment "prod": overlays "email", which the base declares as a Notifier at notifiers\.yaml:1/)]);
  });

  it('a base variable the overlay replaces need not be defined', async () => {
    const dir = tree({ 'm.yaml': monitor('errors', ['  notifiers: ${var:notifiers}']), 'environments/staging/m.yaml': overlay(['  notifiers: [email]']) });
    const staging = await render(dir, 'staging');
    expect(errors(staging)).toEqual([]);
    expect(staging.resources.find((r) => r.kind === 'Monitor')?.spec).toMatchObject({ notifiers: ['email'] });
  });

  it('a folder of no environment is a warning and is not read', async () => {
    const dir = tree({ 'environments/qa/x.yaml': notifierYaml('qa-only') });
    const prod = await render(dir, 'prod');
    expect(prod.resources.map((r) => r.name)).not.toContain('qa-only');
    expect(prod.diagnostics.map(formatDiagnostic)).toContain(
      'environments/qa/x.yaml:1:1: environment prod: warning: environments/qa/ is the folder of no environment (wsync.yaml declares staging, prod): its files are not read',
    );
  });
});

describe('${var:} in a dashboard document', () => {
  const dashboard = 'apiVersion: wsync/v1\nkind: Dashboard\nmetadata:\n  name: overview\nspec:\n  file: overview.json\n';
  const json = (name: string, refresh: string): string =>
    `{\n  "name": ${JSON.stringify(name)},\n  "owner": "X-AXIOM-EVERYONE",\n  "charts": [],\n  "layout": [],\n  "refreshTime": ${refresh},\n  "schemaVersion": 2,\n  "timeWindowStart": "qr-now-1h",\n  "timeWindowEnd": "qr-now"\n}\n`;

  it('is resolved in the JSON file too (typed when exact); a missing one is an error at its line', async () => {
    const dir = tree({ 'd.yaml': dashboard, 'overview.json': json('Errors of ${var:team}', '"${var:interval}"') });
    const staging = await render(dir, 'staging');
    expect(errors(staging)).toEqual([]);
    expect(staging.resources.find((r) => r.kind === 'Dashboard')?.spec.dashboard).toMatchObject({ name: 'Errors of checkout-staging', refreshTime: 10 });
    const missing = tree({ 'd.yaml': dashboard, 'overview.json': json('Errors of ${var:nope}', '60') });
    expect(errors(await render(missing, 'prod'))).toEqual([
      expect.stringMatching(/^overview\.json:2:\d+: Dashboard\/overview: environment prod: \$\{var:nope\}: variable "nope" is not defined in environment "prod"/),
    ]);
  });

  it('a tree without environments reads its documents as written', async () => {
    const dir = scratch.tree({ 'd.yaml': dashboard, 'overview.json': json('Costs ${var:team}', '60') });
    const desired = await readDesired(dir, { env: {} });
    expect(errors(desired)).toEqual([]);
    expect(desired.resources[0]?.spec.dashboard).toMatchObject({ name: 'Costs ${var:team}' });
  });
});
