// Dashboards: /v2/dashboards, addressed by their uid (metadata.name). The document is written with
// the version read last, so a save made in the UI in between is refused (409/412) rather than
// overwritten. docs/wire-contract.md "Dashboards" gives the evidence for what is normalised here.
import { asJsonObject, isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { DashboardSpec } from '../generated/spec-types.js';
import { asString, encodeSegment } from './common.js';
import { checkDashboard } from './dashboard-checks.js';
import { outlineDashboard } from './dashboard-outline.js';
import type { KindModule, SpecFields } from './types.js';

/** The owner meaning "every user of the org"; the service also answers it in lower case, and makes "" into it. */
export const EVERYONE = 'X-AXIOM-EVERYONE';

/** Keys the service puts into the document it answers; never compared, never sent. */
const READ_BACK_KEYS = ['id', 'uid', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'];

/**
 * The document's own keys (the OpenAPI `Dashboard`, plus `datasets`): always compared. Any other
 * key the service keeps (`overrides`, keys the OpenAPI does not name) is compared when the file
 * names it, as the Terraform provider compares only the keys its user wrote.
 */
const DOCUMENT_KEYS = new Set([
  'name',
  'owner',
  'description',
  'charts',
  'layout',
  'refreshTime',
  'schemaVersion',
  'against',
  'againstTimestamp',
  'timeWindowStart',
  'timeWindowEnd',
  'datasets',
]);

/** The live document with only the keys the file compares. */
function comparedKeys(live: JsonObject, desired: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(live)) if (DOCUMENT_KEYS.has(key) || key in desired) out[key] = value;
  return out;
}


function ownerOf(document: JsonObject): string {
  const owner = asString(document.owner) ?? '';
  return owner === '' || owner.toUpperCase() === EVERYONE ? EVERYONE : owner;
}

/**
 * The document without what the service adds on read, the owner in one spelling. `overrides: {}`
 * is what the service answers when none were written: dropped from what it answers, kept where a
 * file writes it (none, compared).
 */
function withoutReadBack(document: JsonObject, read = true): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(document)) {
    if (READ_BACK_KEYS.includes(key)) continue;
    if (read && key === 'overrides' && isJsonObject(value) && Object.keys(value).length === 0) continue;
    out[key] = value;
  }
  out.owner = ownerOf(document);
  return out;
}

function documentOf(spec: SpecFields<DashboardSpec>): JsonObject {
  return asJsonObject(spec.dashboard) ?? {};
}

export const dashboard: KindModule<DashboardSpec> = {
  kind: 'Dashboard',
  plural: 'dashboards',
  schemaFile: 'dashboard.json',
  level: 2,
  description: 'A dashboard (charts and their layout), keyed by uid; its document may be a JSON file beside the resource.',
  keyOf: (name) => name,
  list: { style: 'paged', path: '/v2/dashboards', pageSize: 1000, query: {} },
  read: (id) => ({ method: 'GET', path: `/v2/dashboards/uid/${encodeSegment(id)}` }),
  liveObjectFromListItem(item) {
    // A write answers {status, dashboard: <the listed shape>}; a list item is that shape itself.
    const inner = asJsonObject(item.dashboard);
    const raw = typeof item.status === 'string' && inner !== undefined && typeof inner.uid === 'string' ? inner : item;
    const uid = raw.uid;
    if (typeof uid !== 'string' || uid === '') throw new Error('a dashboard without a uid');
    return { id: uid, raw };
  },
  create: { method: 'POST', path: '/v2/dashboards' },
  update: (id) => ({ method: 'PUT', path: `/v2/dashboards/uid/${encodeSegment(id)}` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/dashboards/uid/${encodeSegment(id)}` }),
  // 409 and 412: someone saved the dashboard after we read its version.
  staleWriteStatuses: [409, 412],
  versionOf: (raw) => (typeof raw.version === 'number' ? raw.version : undefined),
  serverOwned: ['id', 'uid', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'],
  secretFields: [],
  setFields: ['dashboard.datasets'],
  keyedArrays: [
    { path: 'dashboard.charts', key: 'id' },
    { path: 'dashboard.layout', key: 'i' },
  ],
  defaults: {},
  computed: [],
  timestamps: [],
  immutable: [],
  // Names go on the wire as written (a dataset's id is its name); checked like every dataset name.
  references: [{ field: 'dashboard.datasets', wireField: 'dashboard.datasets', target: 'Dataset', many: true, oftenUndeclared: true }],
  documentFile: { pathField: 'file', documentField: 'dashboard', schemaFile: 'dashboard-document.json' },

  normalize(spec) {
    const normal: JsonObject = { dashboard: withoutReadBack(documentOf(spec), false) };
    if (spec.overwrite === true) normal.overwrite = true;
    return normal;
  },

  // `overwrite` is how the file asks to be written, not something the service keeps: never a diff.
  alignLive(desired, live) {
    const wanted = documentOf(desired);
    const document = comparedKeys(documentOf(live), wanted);
    // The service answers no overrides as {}, which the read drops: the file's {} is that.
    if (isJsonObject(wanted.overrides) && document.overrides === undefined) document.overrides = {};
    return desired.overwrite === true ? { ...live, dashboard: document, overwrite: true } : { ...live, dashboard: document };
  },

  writeOptions: ['overwrite'],

  writeReason: (spec) =>
    spec.overwrite === true
      ? 'overwrite: true: written with overwrite and no version, over any save made since this plan read it (the UI\'s included)'
      : undefined,

  checkSpec: (name, spec) => checkDashboard(name, documentOf(spec)),

  outline: (diffs) => outlineDashboard(diffs),

  toWire(name, spec, _resolve, live) {
    const body: JsonObject = { uid: name, dashboard: withoutReadBack(documentOf(spec), false) };
    // Only when the file opts in (the Terraform provider's `overwrite`): no version, and the write wins.
    if (spec.overwrite === true) return { ...body, overwrite: true };
    // Otherwise a write over a version we did not read must fail, not win.
    const version = live?.raw.version;
    if (typeof version === 'number') body.version = version;
    return body;
  },

  fromWire(raw) {
    // Every key the service keeps in the document (`overrides` and keys the OpenAPI does not name) is
    // compared and sent back: what a file or an export holds, the service holds.
    const document = asJsonObject(raw.dashboard) ?? {};
    return { name: asString(raw.uid) ?? '', spec: { dashboard: withoutReadBack(document) } };
  },
};
