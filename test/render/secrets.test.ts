// Every secret field of every kind, set to a distinctive value, never reaches a rendered plan:
// not in text (plain, coloured, verbose), not in json, not in markdown. No redactor is passed:
// the plan must be clean by construction.
import { describe, expect, it } from 'vitest';
import type { DesiredResource, JsonObject, LiveObject, Plan } from '../../src/core/types.js';
import { KINDS } from '../../src/kinds/index.js';
import { findPaths } from '../../src/core/json-paths.js';
import { OBSERVE_REASON } from '../../src/plan/index.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { desiredOf, inventoryOf, liveOf, obj, owns, plan, policyOf, resource } from '../plan/builders.js';

/** One notifier per channel; `tag` makes each value distinct per scenario. */
function channels(tag: string): Record<string, JsonObject> {
  return {
    slack: { slack: { slackUrl: `https://hooks.slack.example/SLACK-${tag}-7f3a9c` } },
    discord: { discord: { discordChannel: 'alerts', discordToken: `DISCORD-${tag}-1b8e44` } },
    discordWebhook: { discordWebhook: { discordWebhookUrl: `https://discord.example/api/webhooks/DWH-${tag}-99d0` } },
    teams: { microsoftTeams: { microsoftTeamsUrl: `https://teams.example/webhook/TEAMS-${tag}-c0ffee` } },
    opsgenie: { opsgenie: { apiKey: `OPSGENIE-${tag}-5e5e5e`, isEU: true } },
    pagerduty: { pagerduty: { routingKey: `PD-ROUTING-${tag}-a1a1`, token: `PD-TOKEN-${tag}-b2b2` } },
    plainWebhook: { webhook: { url: `https://hooks.example.com/catch/WEBHOOK-${tag}-d1d1` } },
    webhook: {
      customWebhook: {
        url: `https://incidents.example.com/hook?token=CUSTOM-${tag}-e2e2`,
        body: '{"alert": "{{.AlertName}}"}',
        headers: { Authorization: `Bearer PLAIN-HDR-${tag}-f3f3` },
        secretHeaders: { Authorization: `Bearer HDR-AUTH-${tag}-4242`, 'X-Api-Key': `HDR-KEY-${tag}-8484` },
      },
    },
  };
}

const API_TOKEN_SECRET = 'xapt-APITOKEN-SECRET-0a0a0a0a';
const ENV_VALUE = 'ENV-INTERPOLATED-SECRET-3c3c';

function secretValuesOf(specs: JsonObject[]): string[] {
  const values = specs.flatMap((spec) => findPaths(spec, KINDS.Notifier.secretFields).map((f) => String(f.value)));
  return [...values, API_TOKEN_SECRET, ENV_VALUE];
}

function notifiers(tag: string, annotations: Record<string, string> = {}): DesiredResource[] {
  return Object.entries(channels(tag)).map(([name, properties]) => resource('Notifier', `${name}-${tag}`, { properties }, { annotations }));
}

function liveNotifiers(tag: string, names: string): LiveObject[] {
  // The live side as stored, values visible (worst case: a service that does not blank them).
  return Object.entries(channels(tag)).map(([name, properties]) => obj('Notifier', { id: `notify_${name}_${names}`, name: `${name}-${names}`, properties }));
}

function scenarios(): { plan: Plan; secrets: string[] } {
  const createdSpecs = Object.values(channels('NEW')).map((properties) => ({ properties }));
  const rotatedLive = liveNotifiers('OLD', 'ROT');
  const adoptedLive = liveNotifiers('ADOPTOLD', 'ADOPT');
  const observedLive = liveNotifiers('OBSOLD', 'OBS');
  const deletedLive = liveNotifiers('GONE', 'GONE');
  const token = obj('ApiToken', { id: 'tok_1', name: 'ci', description: 'old', token: API_TOKEN_SECRET, orgCapabilities: {} });
  const monitorLive = obj('Monitor', { id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'previous' });
  const desired = desiredOf(
    ...notifiers('NEW'),
    ...notifiers('ROT').map((r) => ({ ...r, spec: { properties: channels('ROTNEW')[r.name.replace('-ROT', '')] ?? {} } })),
    ...notifiers('ADOPT').map((r) => ({ ...r, spec: { properties: channels('ADOPTNEW')[r.name.replace('-ADOPT', '')] ?? {} } })),
    ...notifiers('OBS', { 'wsync/mode': 'observe' }).map((r) => ({ ...r, spec: { properties: channels('OBSNEW')[r.name.replace('-OBS', '')] ?? {} } })),
    resource('ApiToken', 'ci', { description: 'new' }),
    resource('Monitor', 'm', { type: 'MatchEvent', aplQuery: ENV_VALUE }, { interpolated: ['/spec/aplQuery'] }),
  );
  const fillers = Array.from({ length: 40 }, (_, i) => obj('Notifier', { id: `notify_f${i}`, name: `f${i}`, properties: { webhook: { url: 'https://f.example' } } }));
  const live = liveOf([...rotatedLive, ...adoptedLive, ...observedLive, ...deletedLive, ...fillers, token, monitorLive]);
  const inventory = inventoryOf([...rotatedLive, ...observedLive, ...deletedLive, token, monitorLive].map((o) => owns(o, o.raw.name as string)));
  const p = plan(desired, live, inventory, policyOf({ prune: true, maxDeletes: 100 }));
  const secrets = secretValuesOf([
    ...createdSpecs,
    ...['OLD', 'ROTNEW', 'ADOPTOLD', 'ADOPTNEW', 'OBSOLD', 'OBSNEW', 'GONE'].flatMap((tag) => Object.values(channels(tag)).map((properties) => ({ properties }))),
  ]);
  return { plan: p, secrets };
}

describe('secrets never appear in a rendered plan', () => {
  const { plan: p, secrets } = scenarios();

  it('the fixture covers every secret field of every kind, in every kind of change', () => {
    for (const module of Object.values(KINDS)) {
      for (const pattern of module.secretFields) {
        const covered = Object.values(channels('X')).some((properties) => findPaths({ properties }, [pattern]).length > 0);
        expect(covered, `${module.kind} ${pattern}`).toBe(true);
      }
    }
    const byAction = (tag: string) => p.changes.filter((c) => c.kind === 'Notifier' && c.key.endsWith(tag)).map((c) => c.action);
    expect(new Set(byAction('-NEW'))).toEqual(new Set(['create']));
    expect(new Set(byAction('-ROT'))).toEqual(new Set(['update']));
    expect(new Set(byAction('-ADOPT'))).toEqual(new Set(['adopt']));
    expect(new Set(byAction('-OBS'))).toEqual(new Set(['skipped']));
    expect(p.changes.filter((c) => c.key.endsWith('-OBS')).every((c) => c.reason === OBSERVE_REASON)).toBe(true);
    expect(new Set(byAction('-GONE'))).toEqual(new Set(['delete']));
    expect(p.changes.find((c) => c.kind === 'ApiToken')?.action).toBe('replace');
    expect(p.changes.find((c) => c.kind === 'Monitor')?.diffs).toEqual([{ path: 'aplQuery', sensitive: true }]);
    expect(p.refusals).toEqual([]);
    // Secret diffs exist and carry no values.
    const sensitive = p.changes.flatMap((c) => c.diffs.filter((d) => d.sensitive));
    expect(sensitive.length).toBeGreaterThan(30);
    for (const d of sensitive) expect(Object.keys(d).sort()).toEqual(['path', 'sensitive']);
    expect(secrets.length).toBeGreaterThan(70);
  });

  // Each output with the mark it uses for a secret diff (so the secrets were really in the plan).
  const outputs: Array<[string, () => string, string]> = [
    ['text', () => renderText(p, { color: false }), '(sensitive value changed)'],
    ['text, coloured and verbose', () => renderText(p, { color: true, verbose: true }), '(sensitive value)'],
    ['json', () => renderJson(p), '"sensitive": true'],
    ['markdown', () => renderMarkdown(p), '(sensitive value changed)'],
    ['the Plan value itself', () => JSON.stringify(p), '"sensitive":true'],
  ];
  it.each(outputs)('%s', (_label, render, mark) => {
    const out = render();
    expect(out).toContain(mark);
    for (const secret of secrets) expect(out, secret).not.toContain(secret);
    // Not even a recognisable piece of one.
    expect(out).not.toMatch(/SLACK-|DISCORD-|DWH-|TEAMS-|OPSGENIE-|PD-ROUTING-|PD-TOKEN-|HDR-AUTH-|HDR-KEY-|APITOKEN|ENV-INTERPOLATED/);
  });
});
