// Property: a workspace made from the files through each kind's toWire (as apply would write it,
// read back in the shape the emulator answers) plans as all noop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DesiredResource, InventoryEntry, JsonObject, KindName, LiveObject } from '../../src/core/types.js';
import { KINDS } from '../../src/kinds/index.js';
import type { ResolveName } from '../../src/kinds/types.js';
import { secretHashes } from '../../src/plan/index.js';
import { desiredOf, HASH_KEY, inventoryOf, liveOf, plan, resource } from './builders.js';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
const text = fc.string({ maxLength: 20 });
const url = fc.webUrl();
const secret = fc.string({ minLength: 1, maxLength: 30 });
const crud = fc.subarray(['create', 'read', 'update', 'delete']);
const instant = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
const headerName = fc.stringMatching(/^X-[A-Za-z]{1,8}$/);

const channel: fc.Arbitrary<JsonObject> = fc.oneof(
  url.map((slackUrl) => ({ slack: { slackUrl } })),
  fc.uniqueArray(fc.emailAddress(), { minLength: 1, maxLength: 4 }).map((emails) => ({ email: { emails } })),
  fc.record({ routingKey: secret, token: secret }, { requiredKeys: ['routingKey'] }).map((pagerduty) => ({ pagerduty })),
  fc.record({ apiKey: secret, isEU: fc.boolean() }, { requiredKeys: ['apiKey'] }).map((opsgenie) => ({ opsgenie })),
  fc
    .record(
      { url, body: text, headers: fc.dictionary(headerName, text, { maxKeys: 2 }), secretHeaders: fc.dictionary(headerName, secret, { maxKeys: 2 }) },
      { requiredKeys: ['url', 'body'] },
    )
    .map((customWebhook) => ({ customWebhook })),
  fc.record({ discordChannel: name, discordToken: secret }).map((discord) => ({ discord })),
);

const notifierSpec = fc.record({ properties: channel, disabledUntil: instant }, { requiredKeys: ['properties'] });

const monitorSpec = (notifiers: string[]) =>
  fc.record(
    {
      type: fc.constantFrom('Threshold', 'MatchEvent', 'AnomalyDetection'),
      aplQuery: text,
      description: text,
      operator: fc.constantFrom('Below', 'Above', 'AboveOrBelow'),
      threshold: fc.integer({ min: -1000, max: 1000 }),
      intervalMinutes: fc.integer({ min: 1, max: 60 }),
      disabled: fc.boolean(),
      notifyByGroup: fc.boolean(),
      secondDelay: fc.nat(100),
      disabledUntil: instant,
      notifiers: fc.subarray(notifiers),
    },
    { requiredKeys: ['type', 'aplQuery'] },
  );

const capabilities = fc.record({ monitors: crud, notifiers: crud, users: crud }, { requiredKeys: [] });
const roleSpec = (emails: string[]) =>
  fc.record(
    {
      description: text,
      members: fc.subarray(emails).map((m) => m.map((e) => e.toUpperCase())),
      orgCapabilities: capabilities,
      datasetCapabilities: fc.dictionary(fc.constantFrom('*', 'http'), fc.record({ query: fc.subarray(['read']) }), { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  );
const vfieldSpec = fc.record(
  { dataset: fc.constantFrom('http', 'checkout'), expression: text, description: text, type: fc.constantFrom('', 'string', 'float'), unit: text },
  { requiredKeys: ['dataset', 'expression'] },
);
const tokenSpec = fc.record({ description: text, orgCapabilities: capabilities, expiresAt: instant }, { requiredKeys: [] });

const workspace = fc
  .record({
    notifiers: fc.uniqueArray(name, { maxLength: 4 }),
    monitors: fc.uniqueArray(name, { maxLength: 4 }),
    roles: fc.uniqueArray(name, { maxLength: 2 }),
    users: fc.uniqueArray(fc.emailAddress().map((e) => e.toLowerCase()), { maxLength: 3, selector: (e) => e }),
    vfields: fc.uniqueArray(name, { maxLength: 3 }),
    tokens: fc.uniqueArray(name, { maxLength: 2 }),
  })
  .chain((names) =>
    fc.record({
      notifiers: fc.tuple(...names.notifiers.map((n) => notifierSpec.map((spec) => resource('Notifier', n, spec)))),
      monitors: fc.tuple(...names.monitors.map((n) => monitorSpec(names.notifiers).map((spec) => resource('Monitor', n, spec)))),
      roles: fc.tuple(...names.roles.map((n) => roleSpec(names.users).map((spec) => resource('Role', n, spec)))),
      users: fc.tuple(
        ...names.users.map((email) =>
          fc.record({ name: text, role: fc.constantFrom('owner', 'admin', 'user', 'Read-only', 'none', ...names.roles) }).map((spec) => resource('User', email, spec)),
        ),
      ),
      vfields: fc.tuple(...names.vfields.map((n) => vfieldSpec.map((spec) => resource('VirtualField', n, spec)))),
      tokens: fc.tuple(...names.tokens.map((n) => tokenSpec.map((spec) => resource('ApiToken', n, spec)))),
    }),
  )
  .map((w) => [...w.notifiers, ...w.monitors, ...w.roles, ...w.users, ...w.vfields, ...w.tokens] as DesiredResource[]);

/** What the emulator answers for an object it stored from `body` (PagerDuty blanked, user roles as {id, name}). */
function asServed(kind: KindName, id: string, body: JsonObject, roleNames: Map<string, string>): JsonObject {
  const raw: JsonObject = { ...body, id };
  if (kind === 'Notifier') {
    const properties = body.properties as JsonObject;
    const pagerduty = properties.pagerduty as JsonObject | undefined;
    if (pagerduty) raw.properties = { pagerduty: Object.fromEntries(Object.keys(pagerduty).map((k) => [k, ''])) };
  }
  if (kind === 'User') raw.role = { id: String(body.role), name: roleNames.get(String(body.role)) ?? String(body.role) };
  for (const key of ['notifierIds', 'members']) {
    if (Array.isArray(raw[key])) raw[key] = [...(raw[key] as string[])].reverse();
  }
  if (typeof raw.disabledUntil === 'string') raw.disabledUntil = raw.disabledUntil.replace('Z', '+00:00');
  return raw;
}

describe('idempotence (property)', () => {
  it('planning against what apply would have written gives only noops', () => {
    fc.assert(
      fc.property(workspace, (resources) => {
        const ids = new Map<string, string>();
        resources.forEach((r, i) => ids.set(`${r.kind}/${r.key}`, `${r.kind.toLowerCase()}_${i}`));
        const resolve: ResolveName = (kind, n) => ids.get(`${kind}/${KINDS[kind].keyOf(n, {})}`);
        const roleNames = new Map(resources.filter((r) => r.kind === 'Role').map((r) => [ids.get(`Role/${r.key}`) ?? '', r.name]));
        const live: LiveObject[] = [];
        const entries: InventoryEntry[] = [];
        for (const r of resources) {
          const id = ids.get(`${r.kind}/${r.key}`) ?? '';
          const body = KINDS[r.kind].toWire(r.name, r.spec, resolve);
          live.push({ kind: r.kind, id, raw: asServed(r.kind, id, body, roleNames) });
          entries.push({ kind: r.kind, key: r.key, id, secretHashes: secretHashes(KINDS[r.kind], r.spec, HASH_KEY) });
        }
        const p = plan(desiredOf(...resources), liveOf(live), inventoryOf(entries));
        expect(p.diagnostics).toEqual([]);
        expect(p.changes.filter((c) => c.action !== 'noop')).toEqual([]);
        expect(p.summary.noop).toBe(resources.length);
      }),
      { numRuns: 100 },
    );
  });
});
