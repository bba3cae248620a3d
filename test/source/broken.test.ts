// For every kind: a valid document, then broken variants of it, each failing with the field named
// and the line of the offending node.
import { describe, expect, it } from 'vitest';
import type { KindName } from '../../src/core/types.js';
import { WRITER_LEASE_GROUP } from '../../src/core/writer-lease-record.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { errorsOf, readOne } from './helpers.js';

interface Variant {
  what: string;
  /** [search, replacement] applied to the valid text, in order. */
  edits: [string, string][];
  code: string;
  field: string;
  line: number;
  message?: RegExp;
}

interface KindCase {
  valid: string;
  variants: Variant[];
}

/** A User's or UserRole's metadata.name that is not an email address. */
function notAnEmail(email: string): Variant {
  return {
    what: 'a name that is not an email',
    edits: [[`name: ${email}`, `name: ${email.slice(0, email.indexOf('@'))}`]],
    code: 'schema',
    field: 'metadata.name',
    line: 4,
    message: /^metadata\.name: must be an email address$/,
  };
}

const CASES: Record<KindName, KindCase> = {
  Dataset: {
    valid: `apiVersion: wsync/v1
kind: Dataset
metadata:
  name: checkout
spec:
  description: Checkout events
  kind: otel:logs:v1
  retentionDays: 30
  useRetentionPeriod: true
  mapFields: [attributes]
`,
    variants: [
      {
        what: 'a name the service refuses',
        edits: [['name: checkout', 'name: axiom-checkout']],
        code: 'schema',
        field: 'metadata.name',
        line: 4,
      },
      {
        what: 'an unknown dataset kind',
        edits: [['kind: otel:logs:v1', 'kind: otel:spans:v1']],
        code: 'schema',
        field: 'spec.kind',
        line: 7,
      },
      {
        what: 'a negative retention',
        edits: [['retentionDays: 30', 'retentionDays: -1']],
        code: 'schema',
        field: 'spec.retentionDays',
        line: 8,
      },
      {
        what: 'a map field listed twice',
        edits: [['mapFields: [attributes]', 'mapFields: [attributes, attributes]']],
        code: 'schema',
        field: 'spec.mapFields[1]',
        line: 10,
      },
      {
        what: 'a misspelt field',
        edits: [['  retentionDays:', '  retentionDay:']],
        code: 'unknown-field',
        field: 'spec.retentionDay',
        line: 8,
        message: /did you mean "retentionDays"/,
      },
    ],
  },
  Group: {
    valid: `apiVersion: wsync/v1
kind: Group
metadata:
  name: on-call
spec:
  description: Pager holders
  members: [ada@example.com]
  roles: [sre]
`,
    variants: [
      {
        what: "the name of wsync's own writer lease group",
        edits: [['name: on-call', `name: ${WRITER_LEASE_GROUP}`]],
        code: 'schema',
        field: 'metadata.name',
        line: 4,
        message: /writer lease/,
      },
      {
        what: 'a member that is not an email address',
        edits: [['members: [ada@example.com]', 'members: [ada]']],
        code: 'schema',
        field: 'spec.members[0]',
        line: 7,
      },
      {
        what: 'roles as a string',
        edits: [['roles: [sre]', 'roles: sre']],
        code: 'schema',
        field: 'spec.roles',
        line: 8,
      },
      {
        what: 'a misspelt field',
        edits: [['  members:', '  member:']],
        code: 'unknown-field',
        field: 'spec.member',
        line: 7,
        message: /did you mean "members"/,
      },
    ],
  },
  View: {
    valid: `apiVersion: wsync/v1
kind: View
metadata:
  name: failed-payments
spec:
  datasets: [payments]
  aplQuery: "['payments'] | where status != 'ok'"
`,
    variants: [
      {
        what: 'no query',
        edits: [['  aplQuery: "[\'payments\'] | where status != \'ok\'"\n', '']],
        code: 'schema',
        field: 'spec.aplQuery',
        line: 5,
      },
      {
        what: 'a dataset listed twice',
        edits: [['datasets: [payments]', 'datasets: [payments, payments]']],
        code: 'schema',
        field: 'spec.datasets[1]',
        line: 6,
      },
      {
        what: 'a misspelt field',
        edits: [['  aplQuery:', '  aplQeury:']],
        code: 'unknown-field',
        field: 'spec.aplQeury',
        line: 7,
        message: /did you mean "aplQuery"/,
      },
    ],
  },
  Monitor: {
    valid: `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: checkout-errors
spec:
  type: Threshold
  aplQuery: "['checkout'] | count"
  operator: Above
  threshold: 25
  intervalMinutes: 5
  notifiers: [oncall]
`,
    variants: [
      {
        what: 'a misspelt field',
        edits: [['  threshold: 25', '  treshold: 25']],
        code: 'unknown-field',
        field: 'spec.treshold',
        line: 9,
        message: /^spec: unknown field "treshold" \(did you mean "threshold"\?\)$/,
      },
      {
        what: 'a field required by the type missing',
        edits: [['  threshold: 25\n', '']],
        code: 'schema',
        field: 'spec.threshold',
        line: 5,
        message: /^spec: missing required field "threshold" \(required when type is Threshold\)$/,
      },
      {
        what: 'a MatchEvent monitor with another schedule than the one the service keeps',
        edits: [
          ['type: Threshold', 'type: MatchEvent'],
          ['  operator: Above\n  threshold: 25\n', ''],
        ],
        code: 'schema',
        field: 'spec.intervalMinutes',
        line: 8,
        message: /^spec\.intervalMinutes: must be 1 \(A match monitor runs every minute: the service stores 1 whatever is sent\) \(when type is MatchEvent\)$/,
      },
      {
        what: 'a number below its minimum',
        edits: [['intervalMinutes: 5', 'intervalMinutes: 0']],
        code: 'schema',
        field: 'spec.intervalMinutes',
        line: 10,
        message: /^spec\.intervalMinutes: must be >= 1$/,
      },
      {
        what: 'a value outside the enum',
        edits: [['operator: Above', 'operator: Sideways']],
        code: 'schema',
        field: 'spec.operator',
        line: 8,
        message: /^spec\.operator: must be one of Below, BelowOrEqual, Above, AboveOrEqual, AboveOrBelow$/,
      },
      {
        what: 'a notifier listed twice',
        edits: [['notifiers: [oncall]', 'notifiers:\n    - oncall\n    - oncall']],
        code: 'schema',
        field: 'spec.notifiers[1]',
        line: 13,
      },
      {
        what: 'neither query',
        edits: [[`  aplQuery: "['checkout'] | count"\n`, '']],
        code: 'schema',
        field: 'spec.aplQuery',
        line: 5,
        message: /^spec: missing required field "aplQuery" or "mplQuery"$/,
      },
      {
        what: 'both queries',
        edits: [[`  aplQuery: "['checkout'] | count"\n`, `  aplQuery: "['checkout'] | count"\n  mplQuery: "checkout:requests | count"\n`]],
        code: 'schema',
        field: 'spec.mplQuery',
        line: 8,
        message: /^spec: give only one of "aplQuery" and "mplQuery", not both$/,
      },
    ],
  },
  Notifier: {
    valid: `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: oncall
spec:
  properties:
    slack:
      slackUrl: https://hooks.slack.com/services/T0/B0/x
`,
    variants: [
      {
        what: 'two channels',
        edits: [['    slack:', '    email:\n      emails: [a@example.com]\n    slack:']],
        code: 'schema',
        field: 'spec.properties',
        line: 6,
        message: /^spec\.properties: exactly one channel is allowed, found 2 \(email, slack\)$/,
      },
      {
        what: 'no channel',
        edits: [['  properties:\n    slack:\n      slackUrl: https://hooks.slack.com/services/T0/B0/x', '  properties: {}']],
        code: 'schema',
        field: 'spec.properties',
        line: 6,
        message: /^spec\.properties: exactly one channel is required, found none \(one of .*slack/,
      },
      {
        what: 'a URL that is not one',
        edits: [['slackUrl: https://hooks.slack.com/services/T0/B0/x', 'slackUrl: hooks slack com']],
        code: 'schema',
        field: 'spec.properties.slack.slackUrl',
        line: 8,
        message: /must match the pattern .* \(Secret: an http\(s\) URL/,
      },
      {
        what: 'a misspelt channel field',
        edits: [['slackUrl:', 'slackURL:']],
        code: 'unknown-field',
        field: 'spec.properties.slack.slackURL',
        line: 8,
        message: /did you mean "slackUrl"/,
      },
      {
        what: 'an unknown channel',
        edits: [['    slack:', '    slak:']],
        code: 'unknown-field',
        field: 'spec.properties.slak',
        line: 7,
        message: /^spec\.properties: unknown field "slak" \(did you mean "slack"\?\)$/,
      },
    ],
  },
  Role: {
    valid: `apiVersion: wsync/v1
kind: Role
metadata:
  name: sre
spec:
  members: [ada@example.com]
  orgCapabilities:
    monitors: [read]
  datasetCapabilities:
    "*":
      query: [read]
`,
    variants: [
      {
        what: 'an unknown capability action',
        edits: [['monitors: [read]', 'monitors: [read, fly]']],
        code: 'schema',
        field: 'spec.orgCapabilities.monitors[1]',
        line: 8,
        message: /must be one of create, read, update, delete$/,
      },
      {
        what: 'a member that is not an email',
        edits: [['members: [ada@example.com]', 'members: [ada]']],
        code: 'schema',
        field: 'spec.members[0]',
        line: 6,
        message: /must be an email address/,
      },
      {
        what: 'a misspelt capability',
        edits: [['    monitors: [read]', '    monitor: [read]']],
        code: 'unknown-field',
        field: 'spec.orgCapabilities.monitor',
        line: 8,
        message: /did you mean "monitors"/,
      },
      {
        what: 'a dataset capability action that does not exist',
        edits: [['query: [read]', 'query: [write]']],
        code: 'schema',
        field: 'spec.datasetCapabilities.*.query[0]',
        line: 11,
      },
    ],
  },
  User: {
    valid: `apiVersion: wsync/v1
kind: User
metadata:
  name: ada@example.com
spec:
  name: Ada Lovelace
  role: admin
`,
    variants: [
      notAnEmail('ada@example.com'),
      {
        what: 'no role',
        edits: [['  role: admin\n', '']],
        code: 'schema',
        field: 'spec.role',
        line: 5,
        message: /^spec: missing required field "role"$/,
      },
      {
        what: 'an empty role',
        edits: [['role: admin', 'role: ""']],
        code: 'schema',
        field: 'spec.role',
        line: 7,
        message: /^spec\.role: must not be empty$/,
      },
      {
        what: 'an unknown field',
        edits: [['  role: admin', '  role: admin\n  emial: ada@example.com']],
        code: 'unknown-field',
        field: 'spec.emial',
        line: 8,
      },
    ],
  },
  UserRole: {
    valid: `apiVersion: wsync/v1
kind: UserRole
metadata:
  name: lin@example.com
spec:
  role: admin
`,
    variants: [
      notAnEmail('lin@example.com'),
      {
        what: 'no role',
        edits: [['  role: admin\n', '']],
        code: 'schema',
        field: 'spec',
        line: 5,
      },
      {
        what: 'a name, which only a User has (a UserRole never writes it)',
        edits: [['  role: admin', '  role: admin\n  name: Lin']],
        code: 'unknown-field',
        field: 'spec.name',
        line: 7,
      },
    ],
  },
  VirtualField: {
    valid: `apiVersion: wsync/v1
kind: VirtualField
metadata:
  name: is_error
spec:
  dataset: checkout
  expression: "status >= 500"
  type: boolean
`,
    variants: [
      {
        what: 'no expression',
        edits: [['  expression: "status >= 500"\n', '']],
        code: 'schema',
        field: 'spec.expression',
        line: 5,
      },
      {
        what: 'an empty dataset',
        edits: [['dataset: checkout', 'dataset: ""']],
        code: 'schema',
        field: 'spec.dataset',
        line: 6,
        message: /must not be empty/,
      },
      {
        what: 'a misspelt field',
        edits: [['  expression:', '  expresion:']],
        code: 'unknown-field',
        field: 'spec.expresion',
        line: 7,
        message: /did you mean "expression"/,
      },
      {
        what: 'a list where a string belongs',
        edits: [['type: boolean', 'type: [boolean]']],
        code: 'schema',
        field: 'spec.type',
        line: 8,
        message: /^spec\.type: must be a string$/,
      },
    ],
  },
  DatasetField: {
    valid: `apiVersion: wsync/v1
kind: DatasetField
metadata:
  name: duration_ms
spec:
  dataset: checkout
  unit: ms
  hidden: false
`,
    variants: [
      {
        what: 'text where a boolean belongs',
        edits: [['hidden: false', 'hidden: "no"']],
        code: 'schema',
        field: 'spec.hidden',
        line: 8,
        message: /^spec\.hidden: must be true or false$/,
      },
      {
        what: 'no dataset',
        edits: [['  dataset: checkout\n', '']],
        code: 'schema',
        field: 'spec.dataset',
        line: 5,
      },
      {
        what: 'a number where a string belongs',
        edits: [['unit: ms', 'unit: 5']],
        code: 'schema',
        field: 'spec.unit',
        line: 7,
      },
      {
        what: 'a misspelt field',
        edits: [['  unit: ms', '  unit: ms\n  descripton: x']],
        code: 'unknown-field',
        field: 'spec.descripton',
        line: 8,
        message: /did you mean "description"/,
      },
    ],
  },
  StarredQuery: {
    valid: `apiVersion: wsync/v1
kind: StarredQuery
metadata:
  name: Errors by path
spec:
  owner: ada@example.com
  query:
    apl: "['checkout'] | count"
    queryOptions:
      priority: low
`,
    variants: [
      {
        what: 'an owner that is not an email',
        edits: [['owner: ada@example.com', 'owner: ada']],
        code: 'schema',
        field: 'spec.owner',
        line: 6,
      },
      {
        what: 'no APL',
        edits: [[`    apl: "['checkout'] | count"\n`, '']],
        code: 'schema',
        field: 'spec.query.apl',
        line: 7,
        message: /^spec\.query: missing required field "apl"$/,
      },
      {
        what: 'a priority outside the enum',
        edits: [['priority: low', 'priority: Lowest']],
        code: 'schema',
        field: 'spec.query.queryOptions.priority',
        line: 10,
        message: /must be one of low, medium, high/,
      },
      {
        what: 'a misspelt option',
        edits: [['      priority: low', '      priority: low\n      noFil: true']],
        code: 'unknown-field',
        field: 'spec.query.queryOptions.noFil',
        line: 11,
        message: /did you mean "noFill"/,
      },
    ],
  },
  Annotation: {
    valid: `apiVersion: wsync/v1
kind: Annotation
metadata:
  name: Checkout v2 rollout
spec:
  type: production-deployment
  datasets: [checkout]
  time: "2026-11-02T09:30:00Z"
`,
    variants: [
      {
        what: 'a type with capitals and spaces',
        edits: [['type: production-deployment', 'type: Production Deployment']],
        code: 'schema',
        field: 'spec.type',
        line: 6,
        message: /must match the pattern/,
      },
      {
        what: 'no datasets',
        edits: [['datasets: [checkout]', 'datasets: []']],
        code: 'schema',
        field: 'spec.datasets',
        line: 7,
        message: /must list at least one item/,
      },
      {
        what: 'a time that is not a timestamp',
        edits: [['time: "2026-11-02T09:30:00Z"', 'time: yesterday']],
        code: 'schema',
        field: 'spec.time',
        line: 8,
        message: /must be a date-time/,
      },
      {
        what: 'no time (with type and title, it tells annotations apart)',
        edits: [['  time: "2026-11-02T09:30:00Z"\n', '']],
        code: 'schema',
        field: 'spec.time',
        line: 5,
        message: /^spec: missing required field "time"$/,
      },
    ],
  },
  ApiToken: {
    valid: `apiVersion: wsync/v1
kind: ApiToken
metadata:
  name: ci
spec:
  description: CI
  orgCapabilities:
    annotations: [create, read]
  expiresAt: "2027-01-01T00:00:00Z"
`,
    variants: [
      {
        what: 'an unknown action',
        edits: [['annotations: [create, read]', 'annotations: [create, write]']],
        code: 'schema',
        field: 'spec.orgCapabilities.annotations[1]',
        line: 8,
      },
      {
        what: 'an expiry that is not a timestamp',
        edits: [['expiresAt: "2027-01-01T00:00:00Z"', 'expiresAt: soon']],
        code: 'schema',
        field: 'spec.expiresAt',
        line: 9,
      },
      {
        what: 'a misspelt capability group',
        edits: [['  orgCapabilities:', '  orgCapabilites:']],
        code: 'unknown-field',
        field: 'spec.orgCapabilites',
        line: 7,
        message: /did you mean "orgCapabilities"/,
      },
    ],
  },
  Org: {
    valid: `apiVersion: wsync/v1
kind: Org
metadata:
  name: acme
`,
    variants: [
      {
        what: 'a spec field',
        edits: [['  name: acme\n', '  name: acme\nspec:\n  plan: free\n']],
        code: 'unknown-field',
        field: 'spec.plan',
        line: 6,
      },
      {
        what: 'an empty name',
        edits: [['name: acme', 'name: ""']],
        code: 'schema',
        field: 'metadata.name',
        line: 4,
        message: /^metadata\.name: must not be empty$/,
      },
      {
        what: 'a misspelt name',
        edits: [['  name: acme', '  nmae: acme']],
        code: 'unknown-field',
        field: 'metadata.nmae',
        line: 4,
        message: /did you mean "name"/,
      },
      {
        what: 'an unknown wsync annotation',
        edits: [['  name: acme\n', '  name: acme\n  annotations:\n    wsync/prun: disabled\n']],
        code: 'unknown-field',
        field: 'metadata.annotations.wsync/prun',
        line: 6,
        message: /^metadata\.annotations: unknown wsync annotation "wsync\/prun" \(did you mean "wsync\/prune"\?\)$/,
      },
    ],
  },
  Dashboard: {
    valid: `apiVersion: wsync/v1
kind: Dashboard
metadata:
  name: checkout-overview
spec:
  dashboard:
    name: Checkout
    charts:
      - id: errors
        type: TimeSeries
        query: { apl: "['checkout'] | count" }
    layout:
      - { i: errors, x: 0, y: 0, w: 12, h: 4 }
    refreshTime: 60
    schemaVersion: 2
    timeWindowStart: qr-now-1h
    timeWindowEnd: qr-now
`,
    variants: [
      {
        what: 'a misspelt chart field',
        edits: [["        query: { apl: \"['checkout'] | count\" }", "        qeury: { apl: \"['checkout'] | count\" }"]],
        code: 'unknown-field',
        field: 'spec.dashboard.charts[0].qeury',
        line: 11,
        message: /^spec\.dashboard\.charts\[0\]: unknown field "qeury" \(did you mean "query"\?\)$/,
      },
      {
        what: 'a misspelt chart type',
        edits: [['type: TimeSeries', 'type: TimeSerie']],
        code: 'spec',
        field: 'spec.dashboard.charts[0].type',
        line: 10,
        message: /^spec\.dashboard\.charts\[0\]\.type: unknown chart type "TimeSerie" \(did you mean "TimeSeries"\?\)$/,
      },
      {
        what: 'a layout cell outside the grid',
        edits: [['x: 0, y: 0, w: 12', 'x: 12, y: 0, w: 12']],
        code: 'schema',
        field: 'spec.dashboard.layout[0].x',
        line: 13,
        message: /must be <= 11/,
      },
      {
        what: 'a uid that is not one',
        edits: [['name: checkout-overview', 'name: checkout overview']],
        code: 'schema',
        field: 'metadata.name',
        line: 4,
        message: /must match the pattern/,
      },
      {
        what: 'both a file and an inline document',
        edits: [['spec:\n', 'spec:\n  file: checkout.json\n']],
        code: 'schema',
        // reported at the field that makes the choice two
        field: 'spec.dashboard',
        line: 7,
        message: /only one of "file" and "dashboard"/,
      },
    ],
  },
};

function apply(text: string, edits: [string, string][]): string {
  let out = text;
  for (const [search, replacement] of edits) {
    if (!out.includes(search)) throw new Error(`test edit does not apply: ${JSON.stringify(search)}`);
    out = out.replace(search, replacement);
  }
  return out;
}

describe('broken variants of every kind', () => {
  it('covers every kind with at least three broken variants', () => {
    for (const kind of KIND_NAMES) expect(CASES[kind].variants.length, kind).toBeGreaterThanOrEqual(3);
  });

  describe.each(KIND_NAMES.map((kind) => [kind, CASES[kind]] as const))('%s', (kind, c) => {
    it('the valid document is valid', () => {
      const desired = readOne(c.valid);
      expect(desired.diagnostics).toEqual([]);
      expect(desired.resources.map((r) => r.kind)).toEqual([kind]);
    });

    it.each(c.variants.map((v) => [v.what, v] as const))('%s', (_what, variant) => {
      const desired = readOne(apply(c.valid, variant.edits));
      expect(desired.resources).toEqual([]);
      const errors = errorsOf(desired);
      const match = errors.find((d) => d.code === variant.code && d.field === variant.field);
      expect(match, JSON.stringify(errors, null, 2)).toBeDefined();
      expect(match).toMatchObject({ file: 'r.yaml', line: variant.line, kind });
      if (variant.message) expect(match?.message).toMatch(variant.message);
      // Every diagnostic names a place.
      for (const d of errors) expect(d.line).toBeGreaterThanOrEqual(1);
    });
  });
});
