// Monitors: /v2/monitors. Server-filled defaults per docs/wire-contract.md; createdBy is the
// caller's user id; notifierIds must name existing notifiers.
import { badRequest } from '../errors.js';
import { stringArrayField, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
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

const MONITOR_DEFAULTS: JsonObject = {
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
  notifierIds: [],
};

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
  if (disabledUntil === null) delete fields.disabledUntil;
  else if (typeof disabledUntil === 'string') fields.disabledUntil = normalizeTimestamp(disabledUntil);
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

const write = writer('Monitor', LABEL, collection, saveMonitor);

export const monitors: KindModule = {
  routes: crudRoutes({
    base: '/v2/monitors',
    noun: 'monitor',
    collection,
    capability: (action) => orgCap('monitors', action),
    create: (context) => write(context),
    update: write,
  }),
  seed: seedWith('monitors', 'Monitor', collection, saveMonitor),
};
