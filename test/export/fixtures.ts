// A varied workspace in the emulator's seed format (wire shapes): every notifier channel, every
// monitor type, roles with members, users with built-in and custom roles, starred queries of
// different owners, virtual fields in two datasets, customised and plain dataset fields,
// annotations, tokens, an org, groups (one managed by the service), a view, and odd names (spaces, slashes, unicode, one name in many kinds).

/** Distinctive secret values: none may ever show up in an exported file or in any output. */
export const SECRETS = {
  slackUrl: 'https://hooks.slack.com/services/T0/B0/slack-secret-7f3e9a51',
  pagerdutyRoutingKey: 'pd-routing-secret-41c8d2e6',
  pagerdutyToken: 'pd-token-secret-93b1aa07',
  opsgenieApiKey: 'opsgenie-key-secret-5d2e7190',
  discordToken: 'discord-token-secret-c4a9f0b3',
  discordWebhookUrl: 'https://discord.com/api/webhooks/1/discord-hook-secret-2b8e66d1',
  microsoftTeamsUrl: 'https://example.webhook.office.com/teams-secret-0e7d4492',
  authorizationHeader: 'Bearer header-secret-6a1f3c58',
  apiKeyHeader: 'apikey-header-secret-88d0b1c4',
  /** Under plain `headers`, as the makers' own tests send it: a secret all the same. */
  plainAuthorizationHeader: 'Bearer plain-header-secret-3f9c2d71',
  apiToken: 'xapt-token-secret-1234abcd9876',
} as const;

/** The variables export names for the secrets above, and the value each must be set to. */
export const VARIABLES: Record<string, string> = {
  WSYNC_NOTIFIER_ONCALL_SLACK_SLACKURL: SECRETS.slackUrl,
  WSYNC_NOTIFIER_PAGES_PAGERDUTY_ROUTINGKEY: SECRETS.pagerdutyRoutingKey,
  WSYNC_NOTIFIER_PAGES_PAGERDUTY_TOKEN: SECRETS.pagerdutyToken,
  WSYNC_NOTIFIER_OPSGENIE_EU_APIKEY: SECRETS.opsgenieApiKey,
  WSYNC_NOTIFIER_DISCORD_BOT_DISCORDTOKEN: SECRETS.discordToken,
  WSYNC_NOTIFIER_DISCORD_HOOK_DISCORDWEBHOOKURL: SECRETS.discordWebhookUrl,
  WSYNC_NOTIFIER_TEAMS_PLATFORM_MICROSOFTTEAMSURL: SECRETS.microsoftTeamsUrl,
  WSYNC_NOTIFIER_INCIDENT_WEBHOOK_SECRETHEADERS_AUTHORIZATION: SECRETS.authorizationHeader,
  WSYNC_NOTIFIER_INCIDENT_WEBHOOK_SECRETHEADERS_X_API_KEY: SECRETS.apiKeyHeader,
  WSYNC_NOTIFIER_INCIDENT_WEBHOOK_HEADERS_AUTHORIZATION: SECRETS.plainAuthorizationHeader,
  WSYNC_NOTIFIER_INCIDENT_WEBHOOK_HEADERS_CONTENT_TYPE: 'application/json',
  WSYNC_NOTIFIER_INCIDENT_WEBHOOK_URL: 'https://incidents.example.com/hooks/wsync',
  WSYNC_NOTIFIER_PLAIN_WEBHOOK_URL: 'https://hooks.example.com/wsync',
};

const id = (prefix: string, n: number): string => `${prefix}_${n.toString(16).padStart(16, '0')}`;

export const IDS = {
  slack: id('notify', 1),
  pagerduty: id('notify', 2),
  opsgenie: id('notify', 3),
  discord: id('notify', 4),
  discordWebhook: id('notify', 5),
  teams: id('notify', 6),
  email: id('notify', 7),
  webhook: id('notify', 8),
  customWebhook: id('notify', 9),
  roleSre: id('role', 1),
  rolePayments: id('role', 2),
  ada: id('usr', 1),
  grace: id('usr', 2),
  zoe: id('usr', 3),
  bob: id('usr', 4),
};

export function seedWorkspace(): Record<string, unknown[]> {
  return {
    datasets: [
      {
        name: 'checkout',
        description: 'Checkout events',
        fields: [
          { name: 'duration_ms', type: 'float', description: 'Time to the last byte', unit: 'ms' },
          { name: 'status', type: 'integer' },
          { name: 'user_id', type: 'string', hidden: true },
        ],
      },
      {
        name: 'http-logs',
        kind: 'otel:logs:v1',
        retentionDays: 30,
        useRetentionPeriod: true,
        mapFields: ['attributes'],
        fields: [
          { name: 'bytes', type: 'integer', unit: 'By' },
          { name: 'path', type: 'string' },
        ],
      },
    ],
    roles: [
      {
        id: IDS.roleSre,
        name: 'sre',
        description: 'Site reliability engineers',
        members: [IDS.grace, IDS.ada],
        orgCapabilities: { monitors: ['create', 'read', 'update', 'delete'], notifiers: ['read'] },
        datasetCapabilities: { '*': { query: ['read'], starredQueries: ['create', 'read'] } },
      },
      {
        // The same name as a notifier and a monitor: one name across kinds.
        id: IDS.rolePayments,
        name: 'payments',
        viewCapabilities: { 'payments-view': { query: ['read'] } },
      },
    ],
    users: [
      { id: IDS.ada, name: 'Ada Lovelace', email: 'ada@example.com', role: IDS.roleSre },
      { id: IDS.grace, name: 'Grace Hopper', email: 'grace@example.com', role: 'user' },
      { id: IDS.zoe, name: 'Zoë Ünal', email: 'zoe@example.com', role: 'read-only' },
      { id: IDS.bob, name: 'Bob', email: 'bob@example.com', role: 'admin' },
    ],
    notifiers: [
      { id: IDS.slack, name: 'oncall-slack', properties: { slack: { slackUrl: SECRETS.slackUrl } } },
      {
        id: IDS.pagerduty,
        name: 'pages / pagerduty',
        properties: { pagerduty: { routingKey: SECRETS.pagerdutyRoutingKey, token: SECRETS.pagerdutyToken } },
      },
      { id: IDS.opsgenie, name: 'opsgenie EU', properties: { opsgenie: { apiKey: SECRETS.opsgenieApiKey, isEU: true } } },
      {
        id: IDS.discord,
        name: 'discord bot',
        properties: { discord: { discordChannel: 'alerts', discordToken: SECRETS.discordToken } },
      },
      { id: IDS.discordWebhook, name: 'discord-hook', properties: { discordWebhook: { discordWebhookUrl: SECRETS.discordWebhookUrl } } },
      {
        id: IDS.teams,
        name: 'Teams — Plätform',
        properties: { microsoftTeams: { microsoftTeamsUrl: SECRETS.microsoftTeamsUrl } },
        disabledUntil: '2099-01-01T00:00:00.000Z',
      },
      { id: IDS.email, name: 'payments', properties: { email: { emails: ['sre-leads@example.com', 'oncall@example.com'] } } },
      { id: IDS.webhook, name: 'plain webhook', properties: { webhook: { url: 'https://hooks.example.com/wsync' } } },
      {
        id: IDS.customWebhook,
        name: 'incident/webhook',
        properties: {
          customWebhook: {
            url: 'https://incidents.example.com/hooks/wsync',
            // A literal ${ in a template must survive the round trip (files escape it as $${).
            body: '{"alert": "{{.AlertName}}", "note": "${not-a-variable}"}',
            headers: { 'Content-Type': 'application/json', Authorization: SECRETS.plainAuthorizationHeader },
            secretHeaders: { Authorization: SECRETS.authorizationHeader, 'X-Api-Key': SECRETS.apiKeyHeader },
          },
        },
      },
    ],
    monitors: [
      {
        name: 'Checkout errors / 5xx',
        type: 'Threshold',
        description: 'Too many failed checkouts',
        aplQuery: "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)",
        operator: 'Above',
        threshold: 25,
        intervalMinutes: 5,
        rangeMinutes: 10,
        alertOnNoData: true,
        notifierIds: [IDS.slack, IDS.pagerduty, IDS.customWebhook],
      },
      {
        name: 'payments',
        type: 'MatchEvent',
        aplQuery: "['checkout'] | where amount > 10000",
        intervalMinutes: 1,
        rangeMinutes: 1,
        notifyByGroup: true,
        secondDelay: 30,
        notifierIds: [IDS.email],
      },
      {
        name: '決済レイテンシ',
        type: 'AnomalyDetection',
        aplQuery: "['checkout'] | summarize avg(duration_ms) by bin_auto(_time)",
        compareDays: 7,
        tolerance: 12.5,
        intervalMinutes: 10,
        rangeMinutes: 60,
        triggerAfterNPositiveResults: 2,
        triggerFromNRuns: 3,
        notifierIds: [IDS.teams, IDS.opsgenie, IDS.discord, IDS.discordWebhook, IDS.webhook],
      },
      {
        name: 'Quiet threshold',
        type: 'Threshold',
        aplQuery: "['http-logs'] | summarize count()",
        operator: 'Below',
        threshold: 0,
        intervalMinutes: 15,
        rangeMinutes: 15,
        disabled: true,
      },
    ],
    vfields: [
      { name: 'is_error', dataset: 'checkout', expression: 'status >= 500', description: 'Failed on our side', type: 'boolean' },
      { name: 'is_error', dataset: 'http-logs', expression: 'status >= 400' },
      { name: 'duration_s', dataset: 'http-logs', expression: 'duration_ms / 1000', type: 'float', unit: 's' },
    ],
    starredQueries: [
      {
        name: 'Errors / by path',
        kind: 'apl',
        who: IDS.ada,
        dataset: 'checkout',
        query: { apl: "['checkout']\n| where status >= 500\n| summarize count() by path", queryOptions: { priority: 'low' } },
      },
      // The same name, another owner: a different key.
      { name: 'Errors / by path', kind: 'apl', who: IDS.grace, query: { apl: "['http-logs'] | summarize count() by path" } },
      { name: 'Zoë’s slow endpoints', kind: 'apl', who: IDS.zoe, metadata: { team: 'edge' }, query: { apl: "['http-logs'] | top 10 by duration_ms" } },
    ],
    annotations: [
      {
        type: 'production-deployment',
        title: 'Deploy v1.2.3 🚀',
        datasets: ['http-logs', 'checkout'],
        time: '2026-01-10T12:00:00.000Z',
        endTime: '2026-01-10T12:05:00.000Z',
        description: 'Rolled out by CI',
        url: 'https://ci.example.com/runs/42',
      },
      { type: 'incident', title: 'payments', datasets: ['checkout'], time: '2026-01-11T08:30:00.000Z' },
    ],
    tokens: [
      {
        name: 'ci annotations',
        description: 'Lets the deploy pipeline add annotations',
        orgCapabilities: { annotations: ['create', 'read'] },
        token: SECRETS.apiToken,
      },
      {
        name: 'read-only dashboards',
        expiresAt: '2099-06-30T00:00:00.000Z',
        datasetCapabilities: { checkout: { query: ['read'] } },
      },
    ],
    orgs: [{ name: 'Acme Observability' }],
    groups: [
      { name: 'on-call', description: 'Pager holders', members: [IDS.ada], roles: [IDS.roleSre] },
      // Made by directory sync: the service's, never exported.
      { name: 'Engineering (directory)', isManaged: true, members: [IDS.grace] },
    ],
    views: [{ name: 'checkout-errors', aplQuery: "['checkout'] | where status >= 500", datasets: ['checkout'], description: 'Errors only' }],
    dashboards: [
      {
        uid: 'checkout-overview',
        version: 4,
        dashboard: {
          name: 'Checkout — overview',
          owner: 'X-AXIOM-EVERYONE',
          description: 'Errors and latency; a literal ${not-a-variable} survives the round trip',
          charts: [
            { id: 'errors', name: 'Errors', type: 'TimeSeries', query: { apl: "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)" } },
            { id: 'p95', name: 'p95', type: 'Statistic', query: { apl: "['checkout'] | summarize percentile(duration_ms, 95)" } },
          ],
          layout: [
            { i: 'errors', x: 0, y: 0, w: 8, h: 4 },
            { i: 'p95', x: 8, y: 0, w: 4, h: 4 },
          ],
          refreshTime: 60,
          schemaVersion: 2,
          timeWindowStart: 'qr-now-1h',
          timeWindowEnd: 'qr-now',
        },
      },
    ],
  };
}
