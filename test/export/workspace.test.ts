import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { DEFAULT_POLICY, type Inventory, type JsonObject, type KindName, type LiveState } from '../../src/core/types.js';
import { exportWorkspace, type ExportResult } from '../../src/export/index.js';
import type { SchemaSet } from '../../src/export/schema-order.js';
import { planChanges } from '../../src/plan/index.js';
import { desiredFromTexts } from '../../src/source/index.js';
import { loadSchemas } from '../../src/source/validate/schema-files.js';
import { SECRETS, VARIABLES, seedWorkspace } from './fixtures.js';
import { liveFromSeed } from './live-from-seed.js';

const schemas = Object.fromEntries(loadSchemas()) as SchemaSet;

/** Datasets count as read only when the test gives some: otherwise the names of datasets are not checked. */
function live(objects: Partial<Record<KindName, JsonObject[]>>, listed?: readonly KindName[]): LiveState {
  const kinds = listed ?? KIND_NAMES.filter((kind) => kind !== 'Dataset' || objects.Dataset !== undefined);
  const state: LiveState = { objects: {}, listedKinds: [...kinds], listedDatasets: {}, requests: 0 };
  for (const [kind, list] of Object.entries(objects) as [KindName, JsonObject[]][]) {
    state.objects[kind] = list.map((raw) => ({ kind, id: String(raw.id), raw }));
  }
  return state;
}

function run(state: LiveState, kinds: readonly KindName[] = KIND_NAMES, schemaBase = '../schemas'): ExportResult {
  return exportWorkspace(state, { kinds, schemas, schemaBase });
}

function file(result: ExportResult, path: string): string {
  const found = result.files.find((f) => f.path === path);
  if (!found) throw new Error(`no file ${path}; files: ${result.files.map((f) => f.path).join(', ')}`);
  return found.content;
}

function documentOf(result: ExportResult, kind: KindName, name: string): JsonObject {
  for (const f of result.files) {
    const doc = parse(f.content) as JsonObject;
    if (doc.kind === kind && (doc.metadata as JsonObject).name === name) return doc;
  }
  throw new Error(`no ${kind} "${name}" exported`);
}

function inventoryOf(result: ExportResult): Inventory {
  return {
    version: 1,
    hashKey: 'test-hash-key',
    entries: result.objects.filter((o) => !o.renamed).map((o) => ({ kind: o.kind, key: o.key, id: o.id })),
  };
}

describe('exportWorkspace: file format', () => {
  it('writes one file per object, in a folder per kind, with the schema line and keys in schema order', () => {
    const result = run(
      live({
        Monitor: [
          {
            // Wire order differs from schema order; server-owned fields and defaults are present.
            notifierIds: [],
            threshold: 25,
            operator: 'Above',
            aplQuery: "['checkout'] | count",
            updatedAt: '2026-01-01T00:00:00Z',
            id: 'mon_1',
            name: 'checkout-errors',
            type: 'Threshold',
            createdAt: '2026-01-01T00:00:00Z',
            createdBy: 'usr_x',
            description: '',
            disabled: false,
            secondDelay: 0,
            triggerFromNRuns: 1,
            triggerAfterNPositiveResults: 0,
            tolerance: 0,
            compareDays: 0,
            alertOnNoData: false,
            notifyByGroup: true,
            columnName: '',
            intervalMinutes: 5,
          },
        ],
      }),
    );
    expect(result.files.map((f) => f.path)).toEqual(['monitors/checkout-errors.yaml']);
    expect(file(result, 'monitors/checkout-errors.yaml')).toBe(
      [
        '# yaml-language-server: $schema=../../schemas/monitor.json',
        'apiVersion: wsync/v1',
        'kind: Monitor',
        'metadata:',
        '  name: checkout-errors',
        'spec:',
        '  type: Threshold',
        '  aplQuery: "[\'checkout\'] | count"',
        '  operator: Above',
        '  threshold: 25',
        '  intervalMinutes: 5',
        '  notifyByGroup: true',
        '',
      ].join('\n'),
    );
    expect(result.warnings).toEqual([]);
  });

  it('keeps values that differ from the defaults, zero and false included', () => {
    const result = run(
      live({
        Monitor: [
          { id: 'mon_1', name: 'm', type: 'Threshold', aplQuery: 'q', operator: 'Below', threshold: 0, disabled: true, secondDelay: 60 },
        ],
      }),
    );
    const spec = documentOf(result, 'Monitor', 'm').spec as JsonObject;
    expect(spec).toEqual({ type: 'Threshold', aplQuery: 'q', operator: 'Below', threshold: 0, secondDelay: 60, disabled: true });
  });

  it('leaves out what the service answers for "unset": a MatchEvent threshold 0, "no time", empty operator', () => {
    const result = run(
      live({
        Monitor: [
          { id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'q', operator: '', threshold: 0, disabledUntil: '0001-01-01T00:00:00Z' },
        ],
        ApiToken: [{ id: 'tok_1', name: 't', expiresAt: '0001-01-01T00:00:00Z' }],
        Notifier: [{ id: 'n_1', name: 'n', properties: { email: { emails: ['a@example.com'] } }, disabledUntil: null }],
      }),
    );
    expect(documentOf(result, 'Monitor', 'm').spec).toEqual({ type: 'MatchEvent', aplQuery: 'q' });
    expect(documentOf(result, 'ApiToken', 't')).not.toHaveProperty('spec.expiresAt');
    expect(documentOf(result, 'Notifier', 'n').spec).toEqual({ properties: { email: { emails: ['a@example.com'] } } });
  });

  it('writes an MPL monitor the service answers in aplQuery as aplQuery (it takes the text either way)', () => {
    const result = run(live({ Monitor: [{ id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'metrics:cpu', mplQuery: '' }] }));
    expect(documentOf(result, 'Monitor', 'm').spec).toEqual({ type: 'MatchEvent', aplQuery: 'metrics:cpu' });
  });

  it('says which kinds a workspace without their add-on could not give, and exports users with base-role keys', () => {
    const state = live({ User: [{ id: 'usr_1', email: 'a@example.com', name: 'A', role: { id: 'owner', name: 'Owner' } }] }, ['User']);
    state.unavailable = { Role: 'GET /v2/rbac/roles answered 403: Forbidden' };
    const result = run(state, ['Role', 'User']);
    expect(result.warnings).toEqual(['Role: not exported, RBAC is not available on this workspace (GET /v2/rbac/roles answered 403: Forbidden)']);
    expect(documentOf(result, 'User', 'a@example.com').spec).toEqual({ name: 'A', role: 'owner' });
  });

  it('points $schema at a URL or a relative path, as asked', () => {
    const state = live({ Org: [{ id: 'org-a-1', name: 'Acme', plan: 'personal', license: { tier: 'x' } }] });
    expect(run(state, ['Org'], 'https://example.com/wsync/schemas/').files[0]?.content.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=https://example.com/wsync/schemas/org.json',
    );
    expect(run(state, ['Org'], '../node_modules/wsync/schemas').files[0]?.content.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../../node_modules/wsync/schemas/org.json',
    );
    // An Org is its name: no spec at all.
    expect(run(state, ['Org']).files[0]?.content).not.toContain('spec');
  });

  it('writes an empty spec where the schema requires one', () => {
    const result = run(live({ Role: [{ id: 'role_1', name: 'viewers', description: '', members: [], orgCapabilities: {} }] }));
    expect(documentOf(result, 'Role', 'viewers').spec).toEqual({});
  });

  it('exports every kind of the seed fixture as files that validate', () => {
    const result = run(liveFromSeed(seedWorkspace()));
    const kinds = new Set(result.objects.map((o) => o.kind));
    // The seed's users are listed as Users; a UserRole is the same object, exported only when named.
    expect([...kinds].sort()).toEqual(KIND_NAMES.filter((k) => k !== 'UserRole').sort());
    const desired = desiredFromTexts(result.files.map((f) => ({ path: f.path, text: f.content })), { env: VARIABLES });
    expect(desired.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // One resource per YAML file; a dashboard's document is a JSON file beside it.
    expect(desired.resources).toHaveLength(result.files.filter((f) => f.path.endsWith('.yaml')).length);
    expect(result.files.filter((f) => f.path.endsWith('.json')).map((f) => f.path)).toEqual(['dashboards/checkout-overview.json']);
  });
});

describe('exportWorkspace: references', () => {
  it('turns ids into names: notifierIds, role members, user roles, starred query owners', () => {
    const result = run(
      live({
        Notifier: [
          { id: 'notify_1', name: 'oncall', properties: { webhook: { url: 'https://x.example.com' } } },
          { id: 'notify_2', name: 'backup', properties: { email: { emails: ['b@example.com', 'a@example.com'] } } },
        ],
        Monitor: [{ id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'q', notifierIds: ['notify_2', 'notify_1'] }],
        User: [
          { id: 'usr_1', name: 'Ada', email: 'Ada@Example.com', role: { id: 'role_1', name: 'sre' } },
          { id: 'usr_2', name: 'Bob', email: 'bob@example.com', role: { id: 'user', name: 'User' } },
        ],
        Role: [{ id: 'role_1', name: 'sre', members: ['usr_2', 'usr_1'] }],
        StarredQuery: [{ id: 'sq_1', name: 'errors', kind: 'apl', who: 'usr_1', metadata: {}, query: { apl: 'x' } }],
      }),
    );
    expect((documentOf(result, 'Monitor', 'm').spec as JsonObject).notifiers).toEqual(['backup', 'oncall']);
    expect((documentOf(result, 'Role', 'sre').spec as JsonObject).members).toEqual(['ada@example.com', 'bob@example.com']);
    expect(documentOf(result, 'User', 'ada@example.com').spec).toEqual({ name: 'Ada', role: 'sre' });
    expect(documentOf(result, 'User', 'bob@example.com').spec).toEqual({ name: 'Bob', role: 'user' });
    expect(documentOf(result, 'StarredQuery', 'errors').spec).toEqual({ owner: 'ada@example.com', query: { apl: 'x' } });
    // Sets are written sorted.
    const email = (documentOf(result, 'Notifier', 'backup').spec as JsonObject).properties as JsonObject;
    expect(email).toEqual({ email: { emails: ['a@example.com', 'b@example.com'] } });
    expect(result.files.every((f) => !/notify_|usr_|role_/.test(f.content))).toBe(true);
  });

  it('reads referenced kinds for names without writing them', () => {
    const result = run(
      live({
        Notifier: [{ id: 'notify_1', name: 'oncall', properties: { webhook: { url: 'https://x.example.com' } } }],
        Monitor: [{ id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'q', notifierIds: ['notify_1'] }],
      }),
      ['Monitor'],
    );
    expect(result.files.map((f) => f.path)).toEqual(['monitors/m.yaml']);
    expect((documentOf(result, 'Monitor', 'm').spec as JsonObject).notifiers).toEqual(['oncall']);
  });

  it('keeps notifier ids the list does not show as id:<id>, and skips a query whose owner is unknown', () => {
    const result = run(
      live({
        Notifier: [{ id: 'notify_1', name: 'oncall', properties: { webhook: { url: 'https://x.example.com' } } }],
        Monitor: [{ id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'q', notifierIds: ['notify_1', 'notify_gone'] }],
        User: [],
        StarredQuery: [{ id: 'sq_1', name: 'mine', kind: 'apl', who: 'usr_caller', query: { apl: 'x' } }],
      }),
    );
    expect((documentOf(result, 'Monitor', 'm').spec as JsonObject).notifiers).toEqual(['id:notify_gone', 'oncall']);
    expect(result.files.some((f) => f.path.startsWith('starred-queries/'))).toBe(false);
    expect(result.warnings).toEqual([
      'Monitor "m" (id mon_1): its notifiers name 1 Notifier id(s) the Notifier list does not show (id:notify_gone); the file keeps them ' +
        'in that form, so that an apply does not detach them (the token may not see them, or they are gone: remove them from the file ' +
        'and annotate wsync/detach-unlisted: "true" to detach)',
      'StarredQuery "mine" (id sq_1): skipped, its owner points at a User that is not listed, so a file could not name it',
    ]);
  });
});

describe('exportWorkspace: secrets', () => {
  const state = liveFromSeed(seedWorkspace());
  const result = run(state);

  it('writes every secret field as ${env:VAR} with a predictable name and lists the variables', () => {
    expect(result.variables).toEqual(Object.keys(VARIABLES).sort());
    const custom = documentOf(result, 'Notifier', 'incident/webhook').spec as JsonObject;
    expect(custom.properties).toEqual({
      customWebhook: {
        url: '${env:WSYNC_NOTIFIER_INCIDENT_WEBHOOK_URL}',
        body: '{"alert": "{{.AlertName}}", "note": "$${not-a-variable}"}',
        headers: {
          Authorization: '${env:WSYNC_NOTIFIER_INCIDENT_WEBHOOK_HEADERS_AUTHORIZATION}',
          'Content-Type': '${env:WSYNC_NOTIFIER_INCIDENT_WEBHOOK_HEADERS_CONTENT_TYPE}',
        },
        secretHeaders: {
          Authorization: '${env:WSYNC_NOTIFIER_INCIDENT_WEBHOOK_SECRETHEADERS_AUTHORIZATION}',
          'X-Api-Key': '${env:WSYNC_NOTIFIER_INCIDENT_WEBHOOK_SECRETHEADERS_X_API_KEY}',
        },
      },
    });
    // Blanked on read (PagerDuty): still a placeholder, and the user is told why plan shows an update.
    expect((documentOf(result, 'Notifier', 'pages / pagerduty').spec as JsonObject).properties).toEqual({
      pagerduty: {
        routingKey: '${env:WSYNC_NOTIFIER_PAGES_PAGERDUTY_ROUTINGKEY}',
        token: '${env:WSYNC_NOTIFIER_PAGES_PAGERDUTY_TOKEN}',
      },
    });
    expect(result.warnings.some((w) => w.includes('"pages / pagerduty": the API does not return'))).toBe(true);
  });

  it('never puts a secret value in a file, a warning or a variable name', () => {
    const everything = [...result.files.map((f) => f.content), ...result.warnings, ...result.variables, ...result.files.map((f) => f.path)].join('\n');
    for (const value of Object.values(SECRETS)) expect(everything).not.toContain(value);
    // The values the API returned are handed back only so that output can be scrubbed of them.
    expect(result.secretValues).toContain(SECRETS.slackUrl);
    expect(result.secretValues).not.toContain(SECRETS.pagerdutyRoutingKey);
  });

  it('keeps a header named __proto__ as a header, in headers and secretHeaders', () => {
    const properties = JSON.parse(
      '{"customWebhook": {"url": "https://x.example.com", "body": "b", "headers": {"__proto__": "proto-header-value"}, "secretHeaders": {"__proto__": "proto-secret-value"}}}',
    ) as JsonObject;
    const out = run(live({ Notifier: [{ id: 'notify_1', name: 'hook', properties }] }));
    expect(out.variables).toEqual(['WSYNC_NOTIFIER_HOOK_HEADERS_PROTO', 'WSYNC_NOTIFIER_HOOK_SECRETHEADERS_PROTO', 'WSYNC_NOTIFIER_HOOK_URL']);
    const text = out.files[0]?.content ?? '';
    expect(text).toContain('      __proto__: ${env:WSYNC_NOTIFIER_HOOK_HEADERS_PROTO}\n');
    expect(text).toContain('      __proto__: ${env:WSYNC_NOTIFIER_HOOK_SECRETHEADERS_PROTO}\n');
    expect(text).not.toMatch(/proto-secret-value|proto-header-value/);
    const env = { WSYNC_NOTIFIER_HOOK_SECRETHEADERS_PROTO: 'proto-secret-value', WSYNC_NOTIFIER_HOOK_HEADERS_PROTO: 'proto-header-value', WSYNC_NOTIFIER_HOOK_URL: 'https://x.example.com' };
    const desired = desiredFromTexts([{ path: out.files[0]?.path ?? '', text }], { env });
    expect(desired.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('makes a placeholder for a required secret the API left out', () => {
    const out = run(live({ Notifier: [{ id: 'notify_1', name: 'pd', properties: { pagerduty: {} } }] }));
    expect((documentOf(out, 'Notifier', 'pd').spec as JsonObject).properties).toEqual({
      pagerduty: { routingKey: '${env:WSYNC_NOTIFIER_PD_ROUTINGKEY}' },
    });
  });

  it('tells apart variable names that fold together, the same way every time', () => {
    const notifiers = [
      { id: 'notify_1', name: 'on call', properties: { slack: { slackUrl: 'https://hooks.slack.com/one-secret' } } },
      { id: 'notify_2', name: 'on-call', properties: { slack: { slackUrl: 'https://hooks.slack.com/two-secret' } } },
      { id: 'notify_3', name: 'On_Call', properties: { slack: { slackUrl: 'https://hooks.slack.com/three-secret' } } },
    ];
    const first = run(live({ Notifier: notifiers }));
    const again = run(live({ Notifier: [...notifiers].reverse() }));
    expect(first.variables).toHaveLength(3);
    expect(new Set(first.variables).size).toBe(3);
    expect(first.variables[0]).toBe('WSYNC_NOTIFIER_ON_CALL_SLACKURL');
    for (const name of first.variables) expect(name).toMatch(/^WSYNC_NOTIFIER_ON_CALL_SLACKURL(_[0-9A-F]{6})?$/);
    expect(again).toEqual(first);
  });
});

describe('exportWorkspace: names and determinism', () => {
  it('gives safe, distinct, stable file names for any name', () => {
    const names = ['a/b', '../../etc/passwd', 'Ünïcödé alerts', '日本語', ' ', 'con', 'Foo', 'foo', '.hidden', 'x'.repeat(300).slice(0, 256)];
    const notifiers = names.map((name, i) => ({ id: `notify_${i}`, name, properties: { webhook: { url: 'https://x.example.com' } } }));
    const monitors = names.map((name, i) => ({ id: `mon_${i}`, name, type: 'MatchEvent', aplQuery: 'q' }));
    const result = run(live({ Notifier: notifiers, Monitor: monitors }));
    const paths = result.files.map((f) => f.path);
    expect(paths).toHaveLength(names.length * 2);
    expect(new Set(paths.map((p) => p.toLowerCase())).size).toBe(paths.length);
    for (const path of paths) expect(path).toMatch(/^(notifiers|monitors)\/[a-z0-9][a-z0-9-]{0,80}\.yaml$/);
    expect(paths).toContain('notifiers/foo.yaml');
    expect(paths).toContain('monitors/foo.yaml');
    expect(paths.filter((p) => p.startsWith('notifiers/unnamed-'))).toHaveLength(2);
    expect(paths.some((p) => /\/con\.yaml$/.test(p))).toBe(false);
    expect(paths.some((p) => p.startsWith('notifiers/ueinicode-alerts') || p.startsWith('notifiers/unicode-alerts'))).toBe(true);
  });

  it('does not depend on the order of the live lists', () => {
    const state = liveFromSeed(seedWorkspace());
    const reversed: LiveState = {
      ...state,
      objects: Object.fromEntries(Object.entries(state.objects).map(([kind, list]) => [kind, [...(list ?? [])].reverse()])),
    };
    expect(run(reversed)).toEqual(run(state));
  });

  it('escapes a literal ${ in names and values so that the file reads back the same', () => {
    const result = run(
      live({ Monitor: [{ id: 'mon_1', name: 'costs ${region}', type: 'MatchEvent', aplQuery: "['x'] | where msg has '${env:HOME}'" }] }),
    );
    const desired = desiredFromTexts(result.files.map((f) => ({ path: f.path, text: f.content })), { env: { HOME: '/root' } });
    expect(desired.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(desired.resources[0]?.name).toBe('costs ${region}');
    expect(desired.resources[0]?.spec.aplQuery).toBe("['x'] | where msg has '${env:HOME}'");
  });
});

describe('exportWorkspace: ambiguous keys', () => {
  it('keeps the first by id, renames the others with a warning, and points references at the renamed one', () => {
    const result = run(
      live({
        Notifier: [
          { id: 'notify_b', name: 'oncall', properties: { email: { emails: ['b@example.com'] } } },
          { id: 'notify_a', name: 'oncall', properties: { email: { emails: ['a@example.com'] } } },
        ],
        Monitor: [
          { id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'q', notifierIds: ['notify_b'] },
          { id: 'mon_2', name: 'm', type: 'MatchEvent', aplQuery: 'q2' },
        ],
        User: [
          { id: 'usr_1', name: 'A', email: 'ada@example.com', role: 'user' },
          { id: 'usr_2', name: 'A2', email: 'ADA@example.com', role: 'user' },
        ],
      }),
    );
    const kept = documentOf(result, 'Notifier', 'oncall').spec as JsonObject;
    expect(kept.properties).toEqual({ email: { emails: ['a@example.com'] } });
    const renamed = documentOf(result, 'Notifier', 'oncall (duplicate notify_b)').spec as JsonObject;
    expect(renamed.properties).toEqual({ email: { emails: ['b@example.com'] } });
    expect((documentOf(result, 'Monitor', 'm').spec as JsonObject).aplQuery).toBe('q');
    expect((documentOf(result, 'Monitor', 'm (duplicate mon_2)').spec as JsonObject).aplQuery).toBe('q2');
    expect((documentOf(result, 'Monitor', 'm').spec as JsonObject).notifiers).toEqual(['oncall (duplicate notify_b)']);
    // A User's name must stay an email address.
    expect(documentOf(result, 'User', 'ada+duplicate-usr_2@example.com').spec).toEqual({ name: 'A2', role: 'user' });
    expect(result.warnings.filter((w) => w.includes('live objects share this key'))).toHaveLength(3);
    expect(result.objects.filter((o) => o.renamed).map((o) => o.id).sort()).toEqual(['mon_2', 'notify_b', 'usr_2']);
    const desired = desiredFromTexts(result.files.map((f) => ({ path: f.path, text: f.content })));
    expect(desired.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('exportWorkspace: kind rules', () => {
  it('exports only dataset fields whose settings were changed, without their type', () => {
    const field = (name: string, extra: JsonObject): JsonObject => ({
      id: `checkout/${name}`,
      name,
      dataset: 'checkout',
      type: 'string',
      description: '',
      hidden: false,
      unit: '',
      ...extra,
    });
    const result = run(
      live({
        DatasetField: [field('plain', {}), field('described', { description: 'What it is' }), field('hidden', { hidden: true }), field('timed', { unit: 'ms' })],
      }),
    );
    expect(result.objects.map((o) => o.key).sort()).toEqual(['checkout/described', 'checkout/hidden', 'checkout/timed']);
    expect(documentOf(result, 'DatasetField', 'hidden').spec).toEqual({ dataset: 'checkout', hidden: true });
    expect(result.files.every((f) => !f.content.includes('type:'))).toBe(true);
  });

  it('exports tokens without a secret, users by email, annotations by title', () => {
    const result = run(
      live({
        ApiToken: [{ id: 'tok_1', name: 'ci', description: '', token: 'xapt-should-never-appear', samlAuthenticated: false, orgCapabilities: { annotations: ['read'] } }],
        User: [{ id: 'usr_1', name: '', email: 'nameless@example.com', role: { id: 'admin', name: 'admin' } }],
        Annotation: [{ id: 'ann_1', type: 'deploy', title: 'v1', datasets: ['b', 'a'], time: '2026-01-01T00:00:00.000Z' }],
      }),
    );
    expect(documentOf(result, 'ApiToken', 'ci').spec).toEqual({ orgCapabilities: { annotations: ['read'] } });
    expect(result.files.some((f) => f.content.includes('xapt-should-never-appear'))).toBe(false);
    expect(documentOf(result, 'User', 'nameless@example.com').spec).toEqual({ name: 'nameless@example.com', role: 'admin' });
    expect(documentOf(result, 'Annotation', 'v1').spec).toEqual({ type: 'deploy', datasets: ['a', 'b'], time: '2026-01-01T00:00:00.000Z' });
  });

  it('skips objects whose name cannot be a metadata.name, with a warning', () => {
    const result = run(live({ Monitor: [{ id: 'mon_1', name: 'line\nbreak', type: 'MatchEvent', aplQuery: 'q' }, { id: 'mon_2', name: '', type: 'MatchEvent', aplQuery: 'q' }] }));
    expect(result.files).toEqual([]);
    expect(result.warnings).toHaveLength(2);
  });
});

describe('exportWorkspace: round trip through source and planner', () => {
  const state = liveFromSeed(seedWorkspace());
  const result = run(state);
  const desired = desiredFromTexts(result.files.map((f) => ({ path: f.path, text: f.content })), { env: VARIABLES });

  it('plans no change for adopted objects, except secrets the API does not return', () => {
    const plan = planChanges(desired, state, inventoryOf(result), DEFAULT_POLICY);
    expect(plan.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const changed = plan.changes.filter((c) => c.action !== 'noop');
    expect(changed.map((c) => `${c.action} ${c.kind}/${c.key}`)).toEqual(['update Notifier/pages / pagerduty']);
    expect(changed[0]?.diffs.every((d) => d.sensitive === true)).toBe(true);
    expect(plan.changes.filter((c) => c.action === 'noop')).toHaveLength(result.objects.length - 1);
  });

  it('plans an adopt without differences for each object when nothing is owned yet', () => {
    const plan = planChanges(desired, state, { version: 1, hashKey: '', entries: [] }, DEFAULT_POLICY);
    const withDiffs = plan.changes.filter((c) => c.diffs.length > 0).map((c) => `${c.kind}/${c.key}`);
    expect(withDiffs).toEqual(['Notifier/pages / pagerduty']);
    expect(plan.changes.every((c) => c.action === 'adopt')).toBe(true);
  });
});

describe('exportWorkspace: datasets, groups and views', () => {
  const result = run(liveFromSeed(seedWorkspace()));

  it('writes a dataset with its settings and map fields, leaving out what the server fills in', () => {
    expect(documentOf(result, 'Dataset', 'http-logs').spec).toEqual({
      kind: 'otel:logs:v1',
      retentionDays: 30,
      useRetentionPeriod: true,
      mapFields: ['attributes'],
    });
    expect(documentOf(result, 'Dataset', 'checkout').spec).toEqual({ description: 'Checkout events' });
  });

  it('writes a group with members by email and roles by name, and leaves out the groups the service manages', () => {
    expect(documentOf(result, 'Group', 'on-call').spec).toEqual({ description: 'Pager holders', members: ['ada@example.com'], roles: ['sre'] });
    expect(result.objects.filter((o) => o.kind === 'Group').map((o) => o.key)).toEqual(['on-call']);
    expect(result.warnings).toContain(
      'Group "Engineering (directory)" (id grp_0000000000000002): skipped, the service manages it (wsync never writes it)',
    );
  });

  it('writes a view addressed by its name', () => {
    expect(result.objects.find((o) => o.kind === 'View')).toMatchObject({ key: 'checkout-errors', id: 'checkout-errors', path: 'views/checkout-errors.yaml' });
    expect(documentOf(result, 'View', 'checkout-errors').spec).toEqual({
      aplQuery: "['checkout'] | where status >= 500",
      datasets: ['checkout'],
      description: 'Errors only',
    });
  });

  it('keeps capabilities on a dataset that is not listed (the service keeps them: docs/wire-contract.md)', () => {
    const exported = run(
      live({
        Dataset: [{ id: 'checkout', name: 'checkout', kind: 'axiom:events:v1', description: '' }],
        ApiToken: [{ id: 'tok_1', name: 'ci', datasetCapabilities: { checkout: { query: ['read'] }, gone: { query: ['read'] }, '*': { ingest: ['create'] } } }],
      }),
    );
    expect((documentOf(exported, 'ApiToken', 'ci').spec as JsonObject).datasetCapabilities).toEqual({
      '*': { ingest: ['create'] },
      checkout: { query: ['read'] },
      gone: { query: ['read'] },
    });
    expect(exported.warnings).toEqual([]);
  });
});
