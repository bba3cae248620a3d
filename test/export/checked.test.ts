// Export writes only what plans clean: each object's files are read back by validate's rules
// before anything is written, and one odd live object is left out with a warning naming its id.
import { describe, expect, it } from 'vitest';
import type { JsonObject, KindName, LiveState } from '../../src/core/types.js';
import { exportWorkspace } from '../../src/export/index.js';
import type { SchemaSet } from '../../src/export/schema-order.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { desiredFromTexts } from '../../src/source/index.js';
import { loadSchemas } from '../../src/source/validate/schema-files.js';

const schemas = Object.fromEntries(loadSchemas()) as SchemaSet;

function live(objects: Partial<Record<KindName, JsonObject[]>>): LiveState {
  const state: LiveState = { objects: {}, listedKinds: KIND_NAMES.filter((kind) => kind !== 'Dataset'), listedDatasets: {}, requests: 0 };
  for (const [kind, list] of Object.entries(objects) as [KindName, JsonObject[]][]) {
    // A dashboard is addressed by its uid (Dashboard.liveObjectFromListItem).
    state.objects[kind] = list.map((raw) => ({ kind, id: String(kind === 'Dashboard' ? raw.uid : raw.id), raw }));
  }
  return state;
}

const GOOD_BOARD = {
  name: 'Good',
  owner: 'X-AXIOM-EVERYONE',
  charts: [],
  layout: [],
  refreshTime: 60,
  schemaVersion: 2,
  timeWindowStart: 'qr-now-1h',
  timeWindowEnd: 'qr-now',
};

describe('export leaves out what would not validate', () => {
  const result = exportWorkspace(
    live({
      Monitor: [
        { id: 'mon_good', name: 'good', type: 'MatchEvent', aplQuery: "['logs']" },
        { id: 'mon_notype', name: 'no type', aplQuery: "['logs'] | count" },
      ],
      Dashboard: [
        { uid: 'good', id: 'dash_1', version: 1, dashboard: { ...GOOD_BOARD, uid: 'good' } },
        { uid: 'only-name', id: 'dash_2', version: 1, dashboard: { name: 'Only a name', uid: 'only-name' } },
        { uid: 'team/board', id: 'dash_3', version: 1, dashboard: { ...GOOD_BOARD, uid: 'team/board' } },
      ],
      Notifier: [
        // No body: the schema (and the OpenAPI) require one. Its header is a secret all the same.
        { id: 'notify_nobody', name: 'no body', properties: { customWebhook: { url: 'https://x.example.com', headers: { Authorization: 'Bearer hdr-9d9d' } } } },
      ],
    }),
    { kinds: KIND_NAMES, schemas, schemaBase: '../schemas' },
  );

  it('writes the good objects, and every file it writes validates', () => {
    expect(result.objects.map((o) => `${o.kind}/${o.key}`)).toEqual(['Dashboard/good', 'Monitor/good']);
    expect(result.files.map((f) => f.path)).toEqual(['dashboards/good.json', 'dashboards/good.yaml', 'monitors/good.yaml']);
    const desired = desiredFromTexts(result.files.map((f) => ({ path: f.path, text: f.content })));
    expect(desired.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('names each object left out by its id, with what is wrong', () => {
    const left = result.warnings.filter((w) => w.includes('not exported, its file would not validate'));
    expect(left).toHaveLength(4);
    expect(left.find((w) => w.startsWith('Monitor "no type" (id mon_notype)'))).toContain('missing required field "type"');
    expect(left.find((w) => w.startsWith('Dashboard "only-name" (id only-name)'))).toContain('missing required field "charts"');
    expect(left.find((w) => w.startsWith('Dashboard "team/board" (id team/board)'))).toContain('metadata.name: must match the pattern');
    expect(left.find((w) => w.startsWith('Notifier "no body" (id notify_nobody)'))).toContain('missing required field "body"');
  });

  it('asks for no variable of an object it left out, and never prints its secret', () => {
    expect(result.variables).toEqual([]);
    expect(result.warnings.join('\n')).not.toContain('hdr-9d9d');
  });
});
