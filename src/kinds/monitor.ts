import type { JsonObject } from '../core/types.js';
import type { MonitorSpec } from '../generated/spec-types.js';
import {
  alignIdReferences,
  asString,
  asStringArray,
  encodeSegment,
  namesAnyById,
  namesOrIdsOf,
  resolveMany,
  SERVER_OWNED_COMMON,
  withDefaultsFilled,
} from './common.js';
import { aplDatasets, mplDatasets } from './query-datasets.js';
import type { Defaults, KindModule, SpecFields } from './types.js';

const PASSTHROUGH = [
  'type',
  'description',
  'aplQuery',
  'mplQuery',
  'columnName',
  'operator',
  'threshold',
  'tolerance',
  'compareDays',
  'intervalMinutes',
  'rangeMinutes',
  'secondDelay',
  'triggerAfterNPositiveResults',
  'triggerFromNRuns',
  'alertOnNoData',
  'notifyByGroup',
  'notifyEveryRun',
  'resolvable',
  'skipResolved',
  'disabled',
  'disabledUntil',
] as const;

/**
 * What the service answers for a field nobody set (docs/wire-contract.md "Monitor defaults", with
 * its evidence): the same for every monitor type. `intervalMinutes` and `rangeMinutes` have no
 * safe default and are `computed` instead.
 */
const DEFAULTS: Defaults<MonitorSpec> = {
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
  operator: '',
  columnName: '',
  notifiers: [],
};

/** The ids a monitor answers: `notifierIds`, or the older spelling `notifierIDs`; null means none. */
function notifierIdsOf(raw: JsonObject): string[] {
  return asStringArray(raw.notifierIds ?? raw.notifierIDs ?? []);
}

export const monitor: KindModule<MonitorSpec> = {
  kind: 'Monitor',
  plural: 'monitors',
  schemaFile: 'monitor.json',
  level: 3,
  description: 'An alert definition: an APL query, a condition and the notifiers to call.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/monitors' },
  read: (id) => ({ method: 'GET', path: `/v2/monitors/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/monitors' },
  update: (id) => ({ method: 'PUT', path: `/v2/monitors/${encodeSegment(id)}` }),
  renamable: true,
  remove: (id) => ({ method: 'DELETE', path: `/v2/monitors/${encodeSegment(id)}` }),
  serverOwned: SERVER_OWNED_COMMON,
  secretFields: [],
  setFields: ['notifiers'],
  defaults: DEFAULTS,
  // The service keeps its own schedule when a file leaves it out (the Terraform provider uses 1).
  computed: ['intervalMinutes', 'rangeMinutes'],
  timestamps: ['disabledUntil'],
  immutable: [],
  // A notifier the list does not show (the token may not see it) is kept as `id:<id>`.
  references: [{ field: 'notifiers', wireField: 'notifierIds', target: 'Notifier', many: true, byId: true }],

  listedOnlyIfQueryable: {
    datasetKind: 'Dataset',
    datasets(spec) {
      if (typeof spec.mplQuery === 'string') return mplDatasets(spec.mplQuery);
      return typeof spec.aplQuery === 'string' ? aplDatasets(spec.aplQuery) : [];
    },
  },

  alignLive(desired, live, raw) {
    // The wire's ids are copied out only when the file names a notifier by its id (rarely).
    const notifiers = namesAnyById(desired.notifiers) ? alignIdReferences(desired.notifiers, live.notifiers, notifierIdsOf(raw)) : live.notifiers;
    const aligned = notifiers === live.notifiers || notifiers === undefined ? live : { ...live, notifiers };
    // The service answers a monitor written with mplQuery with the text in aplQuery.
    const mpl = desired.mplQuery;
    if (typeof mpl !== 'string' || desired.aplQuery !== undefined) return aligned;
    if ((aligned.mplQuery ?? '') !== '' || aligned.aplQuery !== mpl) return aligned;
    const { aplQuery: _translation, ...rest } = aligned;
    return { ...rest, mplQuery: mpl };
  },

  toWire(name, spec, resolve) {
    // PUT replaces: the whole object, a field the file left out as the service's default.
    const full = withDefaultsFilled(spec, DEFAULTS);
    const body: JsonObject = { name };
    for (const field of PASSTHROUGH) {
      const value = full[field];
      if (value !== undefined) body[field] = value;
    }
    // No default time: an explicit null clears a pause the file no longer holds.
    body.disabledUntil = full.disabledUntil ?? null;
    body.notifierIds = resolveMany(resolve, 'Notifier', asStringArray(full.notifiers), 'notifiers');
    return body;
  },

  fromWire(raw, resolveId) {
    const spec: SpecFields<MonitorSpec> = {};
    // An indexed loop: every live monitor passes here, and a cold `for...of` makes an iterator result per field.
    for (let i = 0; i < PASSTHROUGH.length; i++) {
      const field = PASSTHROUGH[i] as (typeof PASSTHROUGH)[number];
      const value = raw[field];
      if (value !== undefined && value !== null) spec[field] = value;
    }
    spec.notifiers = namesOrIdsOf(resolveId, 'Notifier', notifierIdsOf(raw));
    return { name: asString(raw.name) ?? '', spec };
  },
};
