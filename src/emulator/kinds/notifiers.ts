// Notifiers: /v2/notifiers. createdBy is the caller's email; PagerDuty secrets are blanked on read
// by the collection's view (views.ts), never in what is stored.
import { orgCap } from '../capabilities.js';
import { isJsonObject, isZeroTime } from '../json.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { assignId, crudRoutes, seedWith, serverStamps, withoutFields, writer, type KindModule, type SaveFunction } from './common.js';

const LABEL = 'notifiers';
const SERVER_FIELDS = ['createdAt', 'createdBy', 'updatedAt'] as const;
const collection = (workspace: Workspace) => workspace.notifiers;

const saveNotifier: SaveFunction = (workspace, body, meta, _label, existing) => {
  const notifier: Stored = {
    id: existing?.id ?? assignId(meta, workspace.notifiers, 'notify', workspace),
    ...withoutFields(body, SERVER_FIELDS),
    ...serverStamps(meta, existing, meta.email),
  };
  workspace.notifiers.put(notifier);
  return notifier;
};

/** `disabledUntil` as Go's zero time, `""` or null means "not disabled" (docs/wire-contract.md). */
function prepareBody(body: unknown): unknown {
  if (!isJsonObject(body)) return body;
  const until = body.disabledUntil;
  if (until !== null && (typeof until !== 'string' || (until !== '' && !isZeroTime(until)))) return body;
  const { disabledUntil: _none, ...rest } = body;
  return rest;
}

const write = writer('Notifier', LABEL, collection, saveNotifier, 200, prepareBody);

export const notifiers: KindModule = {
  routes: crudRoutes({
    base: '/v2/notifiers',
    noun: 'notifier',
    collection,
    capability: (action) => orgCap('notifiers', action),
    create: (context) => write(context),
    update: write,
    afterDelete: (workspace, deleted) => {
      // A monitor keeps no reference to a deleted notifier (it could not alert through it).
      for (const monitor of workspace.monitors.values()) {
        const ids = monitor.notifierIds;
        if (Array.isArray(ids) && ids.includes(deleted.id)) {
          workspace.monitors.put({ ...monitor, notifierIds: ids.filter((id) => id !== deleted.id) });
        }
      }
    },
  }),
  seed: seedWith('notifiers', 'Notifier', collection, saveNotifier, prepareBody),
};
