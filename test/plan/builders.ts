// Plain-value builders for planner tests: desired resources as the source reader makes them, live
// objects in the wire shape the emulator answers (server defaults filled, PagerDuty blanked).
import {
  DEFAULT_POLICY,
  type Change,
  type Desired,
  type DesiredResource,
  type Inventory,
  type InventoryEntry,
  type JsonObject,
  type KindName,
  type LiveObject,
  type LiveState,
  type Plan,
  type Policy,
  type SourceLocation,
} from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { planChanges } from '../../src/plan/index.js';

export const DATASETS = ['http', 'checkout'];

export interface ResourceOptions {
  annotations?: Record<string, string>;
  file?: string;
  line?: number;
  locations?: Record<string, SourceLocation>;
  interpolated?: string[];
}

export function resource(kind: KindName, name: string, spec: JsonObject, options: ResourceOptions = {}): DesiredResource {
  const file = options.file ?? `${KINDS[kind].plural}.yaml`;
  return {
    kind,
    name,
    key: KINDS[kind].keyOf(name, spec),
    annotations: options.annotations ?? {},
    spec,
    source: { file, line: options.line ?? 1, column: 1 },
    locations: options.locations ?? {},
    interpolated: options.interpolated ?? [],
  };
}

export function desiredOf(...resources: DesiredResource[]): Desired {
  return { resources, diagnostics: [], stats: { files: 1, documents: resources.length, skipped: 0 }, secretValues: [] };
}

export function obj(kind: KindName, raw: JsonObject & { id: string }): LiveObject {
  return { kind, id: raw.id, raw };
}

export interface LiveOptions {
  listedKinds?: KindName[];
  listedDatasets?: Partial<Record<KindName, string[]>>;
}

export function liveOf(objects: LiveObject[], options: LiveOptions = {}): LiveState {
  const grouped: Partial<Record<KindName, LiveObject[]>> = {};
  // The datasets the other objects live in exist, unless the test gives its own.
  const datasets = objects.some((o) => o.kind === 'Dataset') ? [] : DATASETS.map((name) => wire.dataset(name));
  for (const o of [...datasets, ...objects]) (grouped[o.kind] ??= []).push(o);
  return {
    objects: grouped,
    listedKinds: options.listedKinds ?? [...KIND_NAMES],
    listedDatasets: options.listedDatasets ?? { VirtualField: [...DATASETS], DatasetField: [...DATASETS] },
    requests: 0,
  };
}

export const HASH_KEY = 'test-hash-key';

export function inventoryOf(entries: InventoryEntry[] = [], hashKey = HASH_KEY): Inventory {
  return { version: 1, entries, hashKey };
}

/** An inventory entry for a live object: wsync owns it. */
export function owns(o: LiveObject, key: string, extra: Partial<InventoryEntry> = {}): InventoryEntry {
  return { kind: o.kind, key, id: o.id, ...extra };
}

export function policyOf(overrides: Partial<Policy> = {}): Policy {
  return { ...DEFAULT_POLICY, ...overrides };
}

export function plan(desired: Desired, live: LiveState, inventory: Inventory = inventoryOf(), policy: Policy = policyOf()): Plan {
  return planChanges(desired, live, inventory, policy);
}

export function changeOf(p: Plan, kind: KindName, key: string): Change {
  const found = p.changes.find((c) => c.kind === kind && c.key === key);
  if (!found) throw new Error(`no change for ${kind}/${key} in ${JSON.stringify(p.changes.map((c) => `${c.kind}/${c.key}`))}`);
  return found;
}

const STAMPS = { createdAt: '2026-01-01T00:00:00.000Z', createdBy: 'usr_emulatoradmin00000', updatedAt: '2026-01-02T00:00:00.000Z' };

/** Wire objects shaped as the emulator answers them (docs/wire-contract.md). */
export const wire = {
  dataset: (name: string, fields: JsonObject = {}): LiveObject =>
    obj('Dataset', {
      id: name,
      name,
      description: '',
      kind: 'axiom:events:v1',
      created: STAMPS.createdAt,
      updatedAt: STAMPS.updatedAt,
      who: 'Emulator Admin',
      canWrite: true,
      retentionDays: 0,
      useRetentionPeriod: false,
      mapFields: [],
      ...fields,
    }),
  group: (id: string, name: string, fields: JsonObject = {}): LiveObject =>
    obj('Group', { id, name, description: '', members: [], roles: [], isManaged: false, ...fields }),
  // Views are answered without an id; the reader addresses them by name.
  view: (name: string, fields: JsonObject): LiveObject => ({
    kind: 'View',
    id: name,
    raw: { name, description: '', datasets: [], ...fields },
  }),
  monitor: (id: string, name: string, fields: JsonObject): LiveObject =>
    obj('Monitor', {
      id,
      name,
      description: '',
      disabled: false,
      alertOnNoData: false,
      notifyByGroup: false,
      notifyEveryRun: false,
      resolvable: false,
      skipResolved: false,
      secondDelay: 0,
      threshold: 0,
      tolerance: 0,
      compareDays: 0,
      triggerAfterNPositiveResults: 0,
      triggerFromNRuns: 1,
      notifierIds: [],
      ...fields,
      ...STAMPS,
    }),
  notifier: (id: string, name: string, properties: JsonObject, extra: JsonObject = {}): LiveObject => {
    // PagerDuty secrets come back blank from every read.
    const pagerduty = properties.pagerduty as JsonObject | undefined;
    const shown = pagerduty
      ? {
          ...properties,
          pagerduty: Object.fromEntries(Object.keys(pagerduty).map((k) => [k, k === 'routingKey' || k === 'token' ? '' : (pagerduty[k] ?? null)])),
        }
      : properties;
    return obj('Notifier', { id, name, properties: shown, ...extra, ...STAMPS, createdBy: 'admin@emulator.local' });
  },
  role: (id: string, name: string, fields: JsonObject = {}): LiveObject =>
    obj('Role', { id, name, description: '', members: [], orgCapabilities: {}, datasetCapabilities: {}, viewCapabilities: {}, ...fields }),
  user: (id: string, email: string, name: string, role: { id: string; name: string } = { id: 'user', name: 'User' }): LiveObject =>
    obj('User', { id, email, name, role }),
  vfield: (id: string, name: string, fields: JsonObject): LiveObject =>
    obj('VirtualField', { id, name, description: '', type: '', unit: '', ...fields, ...STAMPS }),
  field: (dataset: string, name: string, fields: JsonObject = {}): LiveObject =>
    obj('DatasetField', { id: `${dataset}/${name}`, name, dataset, type: 'string', description: '', hidden: false, unit: '', ...fields }),
  starred: (id: string, name: string, who: string, fields: JsonObject): LiveObject =>
    obj('StarredQuery', { id, name, who, kind: 'apl', metadata: {}, ...fields, ...STAMPS }),
  annotation: (id: string, title: string, fields: JsonObject): LiveObject =>
    obj('Annotation', { id, title, time: '2026-03-01T12:00:00.000Z', ...fields }),
  token: (id: string, name: string, fields: JsonObject = {}): LiveObject =>
    obj('ApiToken', {
      id,
      name,
      description: '',
      orgCapabilities: {},
      datasetCapabilities: {},
      viewCapabilities: {},
      samlAuthenticated: false,
      ...fields,
      ...STAMPS,
    }),
  org: (id: string, name: string): LiveObject =>
    obj('Org', {
      id,
      name,
      plan: 'personal',
      planCreated: STAMPS.createdAt,
      lastUsageSync: STAMPS.createdAt,
      paymentStatus: 'na',
      primaryEmail: 'admin@emulator.local',
      role: 'admin',
      metaCreated: STAMPS.createdAt,
      metaModified: STAMPS.createdAt,
      metaVersion: '1',
      license: { id: `lic_${id}`, tier: 'personal', expiresAt: null },
    }),
};
