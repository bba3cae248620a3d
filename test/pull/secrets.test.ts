// Every secret field a kind declares (Notifier's are all of them): changed in the workspace, it is
// reported by name, never written into the files, and neither value appears in what pull returns.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { pullOf, treeWorkspace } from './fixtures.js';

const FILE_SECRET = 'file-secret-value-0123456789';
const LIVE_SECRET = 'live-secret-value-9876543210';

/** Per secret field pattern of Notifier: a channel holding it as `${env:S}`, and the field's path. */
const CHANNELS: Record<string, { properties: Record<string, Record<string, unknown>>; field: string[] }> = {
  'properties.slack.slackUrl': { properties: { slack: { slackUrl: '${env:S}' } }, field: ['slack', 'slackUrl'] },
  'properties.discord.discordToken': { properties: { discord: { discordChannel: 'alerts', discordToken: '${env:S}' } }, field: ['discord', 'discordToken'] },
  'properties.discordWebhook.discordWebhookUrl': { properties: { discordWebhook: { discordWebhookUrl: '${env:S}' } }, field: ['discordWebhook', 'discordWebhookUrl'] },
  'properties.microsoftTeams.microsoftTeamsUrl': { properties: { microsoftTeams: { microsoftTeamsUrl: '${env:S}' } }, field: ['microsoftTeams', 'microsoftTeamsUrl'] },
  'properties.opsgenie.apiKey': { properties: { opsgenie: { apiKey: '${env:S}' } }, field: ['opsgenie', 'apiKey'] },
  'properties.pagerduty.routingKey': { properties: { pagerduty: { routingKey: '${env:S}' } }, field: ['pagerduty', 'routingKey'] },
  'properties.pagerduty.token': { properties: { pagerduty: { routingKey: 'rk-0123456789', token: '${env:S}' } }, field: ['pagerduty', 'token'] },
  'properties.customWebhook.secretHeaders.*': {
    properties: { customWebhook: { url: 'https://hooks.example.com/a', body: '{}', secretHeaders: { Authorization: '${env:S}' } } },
    field: ['customWebhook', 'secretHeaders', 'Authorization'],
  },
  'properties.customWebhook.headers.*': {
    properties: { customWebhook: { url: 'https://hooks.example.com/a', body: '{}', headers: { 'X-Key': '${env:S}' } } },
    field: ['customWebhook', 'headers', 'X-Key'],
  },
  'properties.customWebhook.url': { properties: { customWebhook: { url: '${env:S}', body: '{}' } }, field: ['customWebhook', 'url'] },
  'properties.webhook.url': { properties: { webhook: { url: '${env:S}' } }, field: ['webhook', 'url'] },
};

describe('pull and secret fields', () => {
  it('has a case for every secret field of every kind', () => {
    const declared = Object.values(KINDS).flatMap((module) => module.secretFields.map((field) => `${module.kind} ${field}`));
    expect(declared.sort()).toEqual(Object.keys(CHANNELS).map((field) => `Notifier ${field}`).sort());
  });

  it.each(Object.entries(CHANNELS))('%s changed in the workspace: reported, not written, never shown', (_, { properties, field }) => {
    // URL fields must hold a URL (the schema says so).
    const secret = /url$/i.test(field[field.length - 1] ?? '') ? `https://x.example/${FILE_SECRET}` : FILE_SECRET;
    const text = `apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: channel\nspec:\n  properties: ${JSON.stringify(properties)}\n`;
    const ws = treeWorkspace({ 'notifiers/channel.yaml': text }, { env: { S: secret } });
    let node = (ws.raw('Notifier', 'channel').properties ?? {}) as Record<string, unknown>;
    for (const segment of field.slice(0, -1)) node = node[segment] as Record<string, unknown>;
    node[field[field.length - 1] as string] = `https://x.example/${LIVE_SECRET}`;
    const plan = pullOf(ws);
    expect(plan.changes).toEqual([]);
    expect(plan.reports.map((r) => `${r.what} ${r.field}`)).toEqual([`secret properties.${field.join('.')}`]);
    const shown = JSON.stringify({ changes: plan.changes, reports: plan.reports, pulled: plan.pulled });
    expect(shown).not.toContain(LIVE_SECRET);
    expect(shown).not.toContain(FILE_SECRET);
  });
});
