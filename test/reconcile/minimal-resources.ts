// For every kind: a resource with only its required fields, and each optional field with a value
// that differs from the service's default. A record by kind: a new kind does not compile until it
// has its row (#13 "Done when": what the file leaves out or removes must converge to no changes).
import type { JsonObject, JsonValue, KindName } from '../../src/core/types.js';

/** What removing an optional field from the file does, when it is not "cleared back to the default". */
export type Kept =
  /** The service keeps its own value when a file leaves the field out (KindModule.computed): no change. */
  | 'computed'
  /** An update cannot clear it (KindModule.uncleared): the plan says so and skips the object. */
  | 'uncleared'
  /**
   * Part of the object's natural key (an Annotation's title): another value declares another
   * object, so setting it creates one and removing it declares the first one again.
   */
  | 'identity';

export interface MinimalResource {
  /** metadata.name */
  name: string;
  /** The spec with only the fields the schema requires. */
  required: JsonObject;
  /** Dotted spec path -> a value to set, one at a time. */
  optional: Record<string, JsonValue>;
  /** Optional fields that a removal does not clear, and why. */
  kept?: Record<string, Kept>;
}

/** The user every resource that names one refers to (it is the User row itself). */
export const OWNER = 'conv-owner@example.com';
/** A dataset the emulator is seeded with, holding the field `latency` (as ingest would make it). */
export const DATASET = 'conv';
/** A user already in the organization (made by single sign-on), whose role only the UserRole row sets. */
export const MEMBER = 'conv-member@example.com';
/** What the emulator is seeded with: the dataset and the member. */
export const CONVERGENCE_SEED = {
  datasets: [{ name: DATASET, fields: [{ name: 'latency', type: 'float' }] }],
  users: [{ email: MEMBER, name: 'Conv Member', role: 'read-only' }],
};

const CAPABILITIES = {
  orgCapabilities: { monitors: ['read'] },
  datasetCapabilities: { [DATASET]: { query: ['read'] } },
  viewCapabilities: { '*': { query: ['read'] } },
};

export const MINIMAL: Record<KindName, MinimalResource> = {
  Dataset: {
    name: 'conv-dataset',
    required: {},
    // `kind` can be written only as it is (it is set at creation): its default.
    // `edgeDeployment` too (the emulator's default, which a dataset made without one reads back).
    optional: {
      description: 'Checkout events',
      kind: 'axiom:events:v1',
      mapFields: ['attributes'],
      retentionDays: 30,
      useRetentionPeriod: true,
      edgeDeployment: 'cloud.us-east-1.aws',
    },
    kept: { edgeDeployment: 'computed' },
  },
  Role: {
    name: 'conv-role',
    required: {},
    optional: { description: 'Reviewers', members: [OWNER], ...CAPABILITIES },
  },
  Notifier: {
    name: 'conv-notifier',
    required: { properties: { customWebhook: { url: 'https://hooks.example.com/conv', body: '{{.Message}}' } } },
    optional: { disabledUntil: '2031-01-01T00:00:00Z', 'properties.customWebhook.headers': { 'X-Team': 'sre' } },
  },
  Org: { name: 'conv-org', required: {}, optional: {} },
  User: { name: OWNER, required: { name: 'Conv Owner', role: 'user' }, optional: {} },
  UserRole: { name: MEMBER, required: { role: 'user' }, optional: {} },
  Group: {
    name: 'conv-group',
    required: {},
    optional: { description: 'On call', members: [OWNER], roles: ['conv-role'] },
    // Left out of the file, members are left alone (the provider's axiom_group); `[]` clears them.
    kept: { members: 'computed' },
  },
  Monitor: {
    name: 'conv-monitor',
    required: { type: 'MatchEvent', aplQuery: `['${DATASET}'] | where latency > 100` },
    optional: {
      description: 'Slow requests',
      columnName: 'latency',
      operator: 'Above',
      threshold: 5,
      tolerance: 10,
      compareDays: 2,
      // A MatchEvent monitor runs every minute over the last minute: 1 is the only value its schema takes.
      intervalMinutes: 1,
      rangeMinutes: 1,
      secondDelay: 60,
      triggerAfterNPositiveResults: 2,
      triggerFromNRuns: 3,
      alertOnNoData: true,
      notifyByGroup: true,
      notifyEveryRun: true,
      resolvable: true,
      skipResolved: true,
      disabled: true,
      disabledUntil: '2031-01-01T00:00:00Z',
      notifiers: ['conv-notifier'],
    },
    kept: { intervalMinutes: 'computed', rangeMinutes: 'computed' },
  },
  StarredQuery: {
    name: 'conv-query',
    required: { owner: OWNER, query: { apl: `['${DATASET}'] | take 5` } },
    optional: { dataset: DATASET, kind: 'apl', metadata: { color: 'red' }, 'query.defaultLimit': 50 },
  },
  VirtualField: {
    name: 'conv_doubled',
    required: { dataset: DATASET, expression: 'latency * 2' },
    optional: { description: 'Twice the latency', type: 'float', unit: 'ms' },
  },
  DatasetField: {
    name: 'latency',
    required: { dataset: DATASET },
    optional: { description: 'Time to first byte', hidden: true, unit: 'ms', type: 'string' },
    kept: { type: 'computed' },
  },
  Annotation: {
    name: 'Conv deploy',
    required: { type: 'deploy', datasets: [DATASET], time: '2026-01-01T00:00:00Z' },
    // `url` any text (the OpenAPI's); `title: ""` declares an untitled annotation, another one.
    // endTime last: once set, it stays (the plan says so on every later run).
    optional: { description: 'v2 rollout', url: 'JIRA-1234', title: '', endTime: '2099-01-01T00:00:00Z' },
    kept: { title: 'identity', endTime: 'uncleared' },
  },
  View: {
    name: 'conv-view',
    required: { aplQuery: `['${DATASET}'] | take 10` },
    optional: { datasets: [DATASET], description: 'Recent events' },
  },
  Dashboard: {
    name: 'conv-dashboard',
    // The document is one whole value (spec.dashboard or spec.file): it has no optional spec field.
    required: {
      dashboard: {
        name: 'Conv',
        owner: 'X-AXIOM-EVERYONE',
        charts: [],
        layout: [],
        refreshTime: 60,
        schemaVersion: 2,
        timeWindowStart: 'qr-now-1h',
        timeWindowEnd: 'qr-now',
      },
    },
    optional: {},
  },
  ApiToken: {
    name: 'conv-token',
    required: {},
    optional: { description: 'CI', expiresAt: '2099-01-01T00:00:00Z', ...CAPABILITIES, orgCapabilities: { annotations: ['create'] } },
  },
};
