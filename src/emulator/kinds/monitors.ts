// Monitors: /v2/monitors. Server-filled defaults per docs/wire-contract.md; createdBy is the
// caller's user id; notifierIds must name existing notifiers.
import { badRequest } from '../errors.js';
import { isJsonObject, isZeroTime, stringArrayField, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { maySeeEveryMonitor, maySeeMonitor } from '../query.js';
import type { Workspace } from '../store.js';
import {
  assignId,
  crudRoutes,
  normalizeTimestamp,
  seedWith,
  serverStamps,
  withDefaults,
  withoutFields,
  writer,
  type KindModule,
  type SaveFunction,
} from './common.js';

const LABEL = 'monitors';
const SERVER_FIELDS = ['createdAt', 'createdBy', 'updatedAt'] as const;
const collection = (workspace: Workspace) => workspace.monitors;

/**
 * What the service answers for a field nobody set (docs/wire-contract.md "Monitor defaults"):
 * `threshold` always (the document's only `x-omitempty: false`), numbers 0, booleans false,
 * `triggerFromNRuns` 1. `operator` and `columnName` are answered absent when empty.
 */
const MONITOR_DEFAULTS: JsonObject = {
  // In the OpenAPI document's order of Monitor properties.
  alertOnNoData: false,
  compareDays: 0,
  description: '',
  disabled: false,
  notifierIds: [],
  notifyByGroup: false,
  notifyEveryRun: false,
  resolvable: false,
  secondDelay: 0,
  skipResolved: false,
  threshold: 0,
  tolerance: 0,
  triggerAfterNPositiveResults: 0,
  triggerFromNRuns: 1,
};

/** The schedule the service keeps for every MatchEvent monitor. */
const MATCH_EVENT_SCHEDULE: JsonObject = { intervalMinutes: 1, rangeMinutes: 1 };

/**
 * What the service takes beyond the document, before the document's checks: the older spelling
 * `notifierIDs`, `null` for no notifiers, `operator: ""` (MatchEvent monitors), an empty query
 * beside the other one, and Go's zero time for "not disabled".
 */
function prepareBody(body: unknown): unknown {
  if (!isJsonObject(body)) return body;
  const out: JsonObject = { ...body };
  if ('notifierIDs' in out) {
    out.notifierIds ??= out.notifierIDs ?? null;
    delete out.notifierIDs;
  }
  if (out.notifierIds === null) out.notifierIds = [];
  for (const field of ['operator', 'columnName', 'aplQuery', 'mplQuery']) if (out[field] === '') delete out[field];
  const until = out.disabledUntil;
  if (until === null || (typeof until === 'string' && (until === '' || isZeroTime(until)))) delete out.disabledUntil;
  return out;
}

function checkMonitor(workspace: Workspace, body: JsonObject, label: string): void {
  if (stringField(body, 'aplQuery') === undefined && stringField(body, 'mplQuery') === undefined) {
    throw badRequest(`${label}: field "aplQuery" is required (or "mplQuery" for a metrics dataset)`);
  }
  stringArrayField(body, 'notifierIds').forEach((id, index) => {
    if (!workspace.notifiers.has(id)) {
      throw badRequest(`${label}: field "notifierIds[${index}]" names unknown notifier "${id}"`);
    }
  });
}

const saveMonitor: SaveFunction = (workspace, body, meta, label, existing) => {
  checkMonitor(workspace, body, label);
  const fields = withoutFields(body, SERVER_FIELDS);
  const disabledUntil = fields.disabledUntil;
  if (typeof disabledUntil === 'string') fields.disabledUntil = normalizeTimestamp(disabledUntil);
  // An MPL monitor is answered with its query in aplQuery and no mplQuery (axiom-go's live test).
  if (fields.aplQuery === undefined && typeof fields.mplQuery === 'string') {
    fields.aplQuery = fields.mplQuery;
    delete fields.mplQuery;
  }
  // A match monitor runs every minute over the last minute: the service stores 1 whatever is sent
  // (docs/wire-contract.md "MatchEvent monitors").
  if (fields.type === 'MatchEvent') Object.assign(fields, MATCH_EVENT_SCHEDULE);
  const monitor = withDefaults(
    {
      id: existing?.id ?? assignId(meta, workspace.monitors, 'mon', workspace),
      ...fields,
      ...serverStamps(meta, existing, meta.userId),
    },
    MONITOR_DEFAULTS,
  );
  workspace.monitors.put(monitor);
  return monitor;
};

const write = writer('Monitor', LABEL, collection, saveMonitor, 200, prepareBody);

export const monitors: KindModule = {
  routes: crudRoutes({
    base: '/v2/monitors',
    noun: 'monitor',
    collection,
    capability: (action) => orgCap('monitors', action),
    // The service lists (and answers) only monitors on datasets the token may query (docs `getMonitors`).
    isVisible: (monitor, context) => maySeeMonitor(context.caller, monitor),
    // Most callers (the admin token, a token granted query on "*") see them all: the cached list,
    // not a parse of 10,000 queries per request.
    seesAll: (context) => maySeeEveryMonitor(context.caller),
    create: (context) => write(context),
    update: write,
  }),
  seed: seedWith('monitors', 'Monitor', collection, saveMonitor, prepareBody),
};
