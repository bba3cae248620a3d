import { asJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { NotifierSpec } from '../generated/spec-types.js';
import { asString, encodeSegment, SERVER_OWNED_COMMON } from './common.js';
import type { KindModule, SpecFields } from './types.js';

export const notifier: KindModule<NotifierSpec> = {
  kind: 'Notifier',
  plural: 'notifiers',
  schemaFile: 'notifier.json',
  level: 1,
  description: 'A notification channel (Slack, PagerDuty, email, webhooks, ...).',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/notifiers' },
  read: (id) => ({ method: 'GET', path: `/v2/notifiers/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/notifiers' },
  update: (id) => ({ method: 'PUT', path: `/v2/notifiers/${encodeSegment(id)}` }),
  renamable: true,
  remove: (id) => ({ method: 'DELETE', path: `/v2/notifiers/${encodeSegment(id)}` }),
  serverOwned: SERVER_OWNED_COMMON,
  secretFields: [
    'properties.slack.slackUrl',
    'properties.discord.discordToken',
    'properties.discordWebhook.discordWebhookUrl',
    'properties.microsoftTeams.microsoftTeamsUrl',
    'properties.opsgenie.apiKey',
    'properties.pagerduty.routingKey',
    'properties.pagerduty.token',
    'properties.customWebhook.secretHeaders.*',
    // Plain `headers` carry credentials too (the makers' own tests send Authorization there, and
    // the Terraform provider marks them sensitive), and a webhook URL is often a capability URL
    // like Slack's: docs/wire-contract.md "Fields that carry credentials".
    'properties.customWebhook.headers.*',
    'properties.customWebhook.url',
    'properties.webhook.url',
  ],
  setFields: ['properties.email.emails'],
  defaults: {},
  computed: [],
  timestamps: ['disabledUntil'],
  immutable: [],
  references: [],

  toWire(name, spec) {
    const body: JsonObject = { name, properties: spec.properties ?? {} };
    if (spec.disabledUntil !== undefined) body.disabledUntil = spec.disabledUntil;
    return body;
  },

  fromWire(raw) {
    // The service may return every channel key with null for the unused ones.
    const channels: JsonObject = {};
    for (const [channel, config] of Object.entries(asJsonObject(raw.properties) ?? {})) {
      if (config !== null && config !== undefined) channels[channel] = config;
    }
    const spec: SpecFields<NotifierSpec> = { properties: channels };
    const disabledUntil = asString(raw.disabledUntil);
    if (disabledUntil) spec.disabledUntil = disabledUntil;
    return { name: asString(raw.name) ?? '', spec };
  },

  exportSpec({ id, name, spec }) {
    const channels = asJsonObject(spec.properties);
    if (channels && Object.keys(channels).length === 1) return { spec };
    return { warning: `Notifier "${name}" (id ${id}): skipped, a resource file needs exactly one channel under properties` };
  },
};
