import type { JsonObject } from '../core/types.js';
import { asString, asStringArray, encodeSegment, namesOf, resolveMany, SERVER_OWNED_COMMON } from './common.js';
import type { KindModule } from './types.js';

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

export const monitor: KindModule = {
  kind: 'Monitor',
  plural: 'monitors',
  schemaFile: 'monitor.json',
  level: 3,
  description: 'An alert definition: an APL query, a condition and the notifiers to call.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/monitors' },
  create: { method: 'POST', path: '/v2/monitors' },
  update: (id) => ({ method: 'PUT', path: `/v2/monitors/${encodeSegment(id)}` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/monitors/${encodeSegment(id)}` }),
  serverOwned: SERVER_OWNED_COMMON,
  secretFields: [],
  setFields: ['notifiers'],
  defaults: {
    description: '',
    disabled: false,
    alertOnNoData: false,
    notifyByGroup: false,
    notifyEveryRun: false,
    resolvable: false,
    skipResolved: false,
    secondDelay: 0,
    triggerAfterNPositiveResults: 1,
    triggerFromNRuns: 1,
    notifiers: [],
  },
  computed: [],
  timestamps: ['disabledUntil'],
  immutable: [],
  references: [{ field: 'notifiers', wireField: 'notifierIds', target: 'Notifier', many: true }],

  toWire(name, spec, resolve) {
    const body: JsonObject = { name };
    for (const field of PASSTHROUGH) {
      const value = spec[field];
      if (value !== undefined) body[field] = value;
    }
    body.notifierIds = resolveMany(resolve, 'Notifier', asStringArray(spec.notifiers), 'notifiers');
    return body;
  },

  fromWire(raw, resolveId) {
    const spec: JsonObject = {};
    for (const field of PASSTHROUGH) {
      const value = raw[field];
      if (value !== undefined && value !== null) spec[field] = value;
    }
    spec.notifiers = namesOf(resolveId, 'Notifier', asStringArray(raw.notifierIds));
    return { name: asString(raw.name) ?? '', spec };
  },
};
