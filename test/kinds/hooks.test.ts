// The hooks through which a kind module says what is special about its kind: the engine calls
// them and never names a kind.
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';

describe('replace: how a kind that cannot change in place is replaced', () => {
  it('regenerates an API token with the new spec, the old one valid until the time given', () => {
    const replace = KINDS.ApiToken.replace;
    expect(replace?.reason).toBe('API tokens are immutable: regenerate with the new spec');
    expect(replace?.graceful).toBe(true);
    const request = replace?.request('tok/1', { name: 't', description: 'd' }, new Date('2026-01-02T03:04:05Z'));
    expect(request).toEqual({
      endpoint: { method: 'POST', path: '/v2/tokens/tok%2F1/regenerate' },
      body: { existingTokenExpiresAt: '2026-01-02T03:04:05.000Z', newToken: { name: 't', description: 'd' } },
    });
  });

  it('keeps an API token valid for the grace period, but never past the expiry it already had', () => {
    const until = KINDS.ApiToken.replace?.oldValidUntil;
    const now = new Date('2026-01-01T00:00:00Z');
    const day = 24 * 3_600_000;
    expect(until?.(now, day, { id: 'tok_1' })?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(until?.(now, day, { id: 'tok_1', expiresAt: '0001-01-01T00:00:00Z' })?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(until?.(now, day, { id: 'tok_1', expiresAt: '2026-01-01T06:00:00Z' })?.toISOString()).toBe('2026-01-01T06:00:00.000Z');
    expect(until?.(now, day, { id: 'tok_1', expiresAt: '2027-01-01T00:00:00Z' })?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(until?.(now, 0, undefined)?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('is declared only by kinds without an update, and every replaced kind gives its reason', () => {
    for (const kind of KIND_NAMES) {
      const module = KINDS[kind];
      if (module.replace) {
        expect(module.update, kind).toBeUndefined();
        expect(module.replace.reason, kind).not.toBe('');
      }
    }
  });
});

describe('issuedSecret: a secret only the answer to a write carries', () => {
  it('names the wire field of an API token that holds its secret, which is server-owned (never compared or sent)', () => {
    expect(KINDS.ApiToken.issuedSecret).toEqual({ wireField: 'token' });
    expect(KINDS.ApiToken.serverOwned).toContain('token');
    const wire = KINDS.ApiToken.toWire('t', { description: 'd' }, () => undefined);
    expect(wire).not.toHaveProperty('token');
  });

  it('is declared only by kinds that can be created', () => {
    for (const kind of KIND_NAMES) if (KINDS[kind].issuedSecret) expect(KINDS[kind].create, kind).toBeDefined();
  });
});

describe('liveObjectFromListItem: how a listed item is addressed', () => {
  const fromListItem = KINDS.DatasetField.liveObjectFromListItem;

  it('addresses a dataset field by dataset and name, and stamps the dataset it was listed under', () => {
    expect(fromListItem?.({ name: 'duration_ms', type: 'float', dataset: 'stale' }, 'checkout')).toEqual({
      id: 'checkout/duration_ms',
      raw: { name: 'duration_ms', type: 'float', dataset: 'checkout' },
    });
  });

  it('refuses a field without a name: it could not be addressed', () => {
    expect(() => fromListItem?.({ type: 'float' }, 'checkout')).toThrow('a field without a name');
    expect(() => fromListItem?.({ name: '' }, 'checkout')).toThrow('a field without a name');
  });
});

describe('missingReason: why a declared object that does not exist is not created', () => {
  it('says a dataset field comes from ingest', () => {
    expect(KINDS.DatasetField.missingReason?.('duration_ms', { dataset: 'http' })).toBe(
      'field "duration_ms" does not exist in dataset "http" yet (fields come from ingest)',
    );
  });

  it('is given by every kind that cannot be created', () => {
    for (const kind of KIND_NAMES) if (!KINDS[kind].create) expect(KINDS[kind].missingReason, kind).toBeDefined();
  });
});

describe('listedOnlyIfQueryable: the datasets a token must query for the list to show an object', () => {
  const of = (spec: JsonObject) => KINDS.Monitor.listedOnlyIfQueryable?.datasets(spec);

  it('reads the datasets of an APL monitor query: bracketed names anywhere and a leading bare name', () => {
    expect(of({ aplQuery: "['checkout'] | where status >= 500" })).toEqual(['checkout']);
    expect(of({ aplQuery: 'http-logs | union ["edge.logs"] | count' })).toEqual(['edge.logs', 'http-logs']);
    expect(of({ aplQuery: "['a'] | join kind=inner (['b'] | project id) on id" })).toEqual(['a', 'b']);
    expect(of({ aplQuery: 'print x = 1' })).toEqual([]);
  });

  it('reads the dataset of an MPL query (`dataset`:`metric`)', () => {
    expect(of({ mplQuery: '`otel-metrics`:`http.server.duration` | align to 5m using avg' })).toEqual(['otel-metrics']);
    expect(of({ mplQuery: 'metrics:cpu | align to 1m using avg' })).toEqual(['metrics']);
  });

  it('is declared by monitors only, naming datasets', () => {
    expect(KIND_NAMES.filter((kind) => KINDS[kind].listedOnlyIfQueryable)).toEqual(['Monitor']);
    expect(KINDS.Monitor.listedOnlyIfQueryable?.datasetKind).toBe('Dataset');
  });
});

describe('writeReason: how an object will be written, said in the plan', () => {
  it('says a dashboard with overwrite: true is written over any save, and says nothing otherwise', () => {
    expect(KINDS.Dashboard.writeReason?.({ overwrite: true, dashboard: {} })).toMatch(/^overwrite: true: written with overwrite and no version/);
    expect(KINDS.Dashboard.writeReason?.({ dashboard: {} })).toBeUndefined();
    expect(KIND_NAMES.filter((kind) => KINDS[kind].writeReason)).toEqual(['Dashboard']);
    expect(KINDS.Dashboard.writeOptions).toEqual(['overwrite']);
    // Never a diff: the live object is taken as written with it.
    const aligned = KINDS.Dashboard.alignLive?.({ overwrite: true, dashboard: { name: 'd' } }, { dashboard: { name: 'd' } }, {});
    expect(aligned).toEqual({ overwrite: true, dashboard: { name: 'd' } });
  });

  it('sends overwrite and no version only when the file opts in', () => {
    const live = { kind: 'Dashboard' as const, id: 'u', raw: { uid: 'u', version: 7, dashboard: {} } };
    const resolve = () => undefined;
    expect(KINDS.Dashboard.toWire('u', { overwrite: true, dashboard: { name: 'd' } }, resolve, live)).toMatchObject({ overwrite: true });
    expect(KINDS.Dashboard.toWire('u', { overwrite: true, dashboard: { name: 'd' } }, resolve, live)).not.toHaveProperty('version');
    expect(KINDS.Dashboard.toWire('u', { dashboard: { name: 'd' } }, resolve, live)).toMatchObject({ version: 7 });
    expect(KINDS.Dashboard.toWire('u', { dashboard: { name: 'd' } }, resolve, live)).not.toHaveProperty('overwrite');
  });
});

describe('duplicateName: the name export gives a second object with a taken key', () => {
  it('plus-addresses a user, so metadata.name stays an email address', () => {
    expect(KINDS.User.duplicateName?.('Ada@Example.com', 'usr 1/x')).toBe('ada+duplicate-usr-1-x@example.com');
  });

  it('falls back to a plain suffix for a user name that is not an email address', () => {
    expect(KINDS.User.duplicateName?.('ada', 'usr_1')).toBe('ada (duplicate usr_1)');
  });
});

describe('exportSpec: what a file says that fromWire alone does not settle', () => {
  it('writes a dataset field only when a setting differs from its default, without the ingest type', () => {
    const exportSpec = KINDS.DatasetField.exportSpec;
    const base = { id: 'http/d', name: 'd' };
    expect(exportSpec?.({ ...base, spec: { dataset: 'http', description: '', hidden: false, unit: '', type: 'integer' } })).toEqual({});
    expect(exportSpec?.({ ...base, spec: { dataset: 'http', description: 'Latency', unit: '', type: 'integer' } })).toEqual({
      spec: { dataset: 'http', description: 'Latency', unit: '' },
    });
    expect(exportSpec?.({ ...base, spec: { dataset: 'http', hidden: true } })).toEqual({ spec: { dataset: 'http', hidden: true } });
  });

  it('names a user without a name by its email address, and says so', () => {
    const decision = KINDS.User.exportSpec?.({ id: 'usr_1', name: 'ada@example.com', spec: { name: '', role: 'user' } });
    expect(decision).toEqual({
      spec: { name: 'ada@example.com', role: 'user' },
      warning: 'User "ada@example.com": the workspace has no name for this user; the file uses the email address',
    });
    expect(KINDS.User.exportSpec?.({ id: 'usr_1', name: 'a@b.c', spec: { name: 'Ada', role: 'admin' } })).toEqual({
      spec: { name: 'Ada', role: 'admin' },
    });
  });

  it("leaves wsync's own marks of an applied revision out of the files, and writes every other annotation", () => {
    const spec = { type: 'wsync-apply', datasets: ['app'], time: '2026-11-28T03:00:00.000Z' };
    expect(KINDS.Annotation.exportSpec?.({ id: 'ann_1', name: 'wsync applied 0123456789ab: 1 created, 0 updated, 0 deleted', spec })).toEqual({});
    const deploy = { ...spec, type: 'deploy' };
    expect(KINDS.Annotation.exportSpec?.({ id: 'ann_2', name: 'Deploy', spec: deploy })).toEqual({ spec: deploy });
  });

  it('skips a notifier without exactly one channel, and says why', () => {
    const exportSpec = KINDS.Notifier.exportSpec;
    const warning = 'Notifier "n" (id notify_1): skipped, a resource file needs exactly one channel under properties';
    expect(exportSpec?.({ id: 'notify_1', name: 'n', spec: { properties: {} } })).toEqual({ warning });
    expect(exportSpec?.({ id: 'notify_1', name: 'n', spec: { properties: { slack: {}, email: {} } } })).toEqual({ warning });
    const one = { properties: { email: { emails: ['a@b.c'] } } };
    expect(exportSpec?.({ id: 'notify_1', name: 'n', spec: one })).toEqual({ spec: one });
  });
});

describe('staleWriteStatuses: answers that mean the object was saved since the plan read it', () => {
  it('are 409 and 412 for a dashboard, which writes the version it read and never overwrite', () => {
    expect(KINDS.Dashboard.staleWriteStatuses).toEqual([409, 412]);
    const live = { kind: 'Dashboard' as const, id: 'b', raw: { uid: 'b', version: 7, dashboard: {} } };
    const body = KINDS.Dashboard.toWire('b', { dashboard: { name: 'B', charts: [] } }, () => undefined, live);
    expect(body).toMatchObject({ uid: 'b', version: 7 });
    expect(body).not.toHaveProperty('overwrite');
    expect(KINDS.Dashboard.toWire('b', { dashboard: { name: 'B' } }, () => undefined)).not.toHaveProperty('version');
  });

  it('are declared only by kinds that can be updated', () => {
    for (const kind of KIND_NAMES) if (KINDS[kind].staleWriteStatuses) expect(KINDS[kind].update, kind).toBeDefined();
  });
});

describe('documentFile, keyedArrays, outline, checkSpec: a dashboard document', () => {
  it('may come from a .json file named by spec.file, checked against its own schema', () => {
    expect(KINDS.Dashboard.documentFile).toEqual({ pathField: 'file', documentField: 'dashboard', schemaFile: 'dashboard-document.json' });
  });

  it('compares charts by id and layout cells by i, and outlines the diffs per chart', () => {
    expect(KINDS.Dashboard.keyedArrays).toEqual([
      { path: 'dashboard.charts', key: 'id' },
      { path: 'dashboard.layout', key: 'i' },
    ]);
    const groups = KINDS.Dashboard.outline?.([
      { path: 'dashboard.name', before: 'A', after: 'B' },
      { path: 'dashboard.charts[errors].query.apl', before: 'x', after: 'y' },
      { path: 'dashboard.charts[new].id', after: 'new' },
      { path: 'dashboard.charts[new].type', after: 'Note' },
      { path: 'dashboard.charts[new].text', after: 'hi' },
      { path: 'dashboard.charts[old].id', before: 'old' },
      { path: 'dashboard.charts[old].type', before: 'Pie' },
      { path: 'dashboard.layout[errors].x', before: 0, after: 6 },
    ]);
    expect(groups).toEqual([
      { title: 'dashboard', status: 'changed', diffs: [{ path: 'name', before: 'A', after: 'B' }] },
      { title: 'chart errors', status: 'changed', diffs: [{ path: 'query.apl', before: 'x', after: 'y' }] },
      {
        title: 'chart new (Note)',
        status: 'added',
        diffs: [
          { path: 'type', after: 'Note' },
          { path: 'text', after: 'hi' },
        ],
      },
      { title: 'chart old (Pie)', status: 'removed', diffs: [] },
      { title: 'layout', status: 'changed', diffs: [], notes: ['errors: x 0 -> 6'] },
    ]);
  });

  it('finds what the schema cannot: a repeated chart id, a uid that is not metadata.name, an unplaced chart', () => {
    const problems = KINDS.Dashboard.checkSpec?.('board', {
      dashboard: {
        uid: 'other',
        charts: [
          { id: 'a', type: 'Note' },
          { id: 'a', type: 'Note' },
          { id: 'b', type: 'Note' },
        ],
        layout: [{ i: 'a', x: 0, y: 0, w: 1, h: 1 }],
      },
    });
    expect(problems?.map((p) => `${p.severity} ${p.pointer}`)).toEqual([
      'error /dashboard/uid',
      'error /dashboard/charts/1/id',
      'warning /dashboard/charts/2/id',
    ]);
  });
});

describe('alignLive: a value the service answers in another form than written is no diff', () => {
  it('takes a monitor written with mplQuery and read back with the text in aplQuery as the one written', () => {
    const desired = { type: 'MatchEvent', mplQuery: 'metrics:cpu' };
    const live = { type: 'MatchEvent', aplQuery: 'metrics:cpu' };
    expect(KINDS.Monitor.alignLive?.(desired, live, {})).toEqual({ type: 'MatchEvent', mplQuery: 'metrics:cpu' });
    // Read back as written, or as another query: left as it is (the diff shows what differs).
    expect(KINDS.Monitor.alignLive?.(desired, { mplQuery: 'metrics:cpu' }, {})).toEqual({ mplQuery: 'metrics:cpu' });
    expect(KINDS.Monitor.alignLive?.(desired, { aplQuery: 'other' }, {})).toEqual({ aplQuery: 'other' });
    expect(KINDS.Monitor.alignLive?.({ aplQuery: 'q' }, { aplQuery: 'q' }, {})).toEqual({ aplQuery: 'q' });
  });

  it('takes a user role as written when the read role id or label says so, in any letter case', () => {
    const align = (role: string, raw: JsonObject): JsonValue | undefined =>
      KINDS.User.alignLive?.({ name: 'A', role }, { name: 'A', role: 'read back' }, raw).role;
    expect(align('owner', { role: { id: 'owner', name: 'Owner' } })).toBe('owner');
    expect(align('Owner', { role: { id: 'owner', name: 'Owner' } })).toBe('Owner');
    expect(align('SRE team', { role: { id: 'role_1', name: 'sre team' } })).toBe('SRE team');
    expect(align('none', { role: null })).toBe('none');
    expect(align('admin', { role: { id: 'user', name: 'User' } })).toBe('read back');
  });
});

describe('references: built-in values and values only the service knows', () => {
  const [role] = KINDS.User.references;

  it('knows the five base roles, in any letter case, and sends a role it cannot resolve as written', () => {
    expect(role?.builtins).toEqual(['owner', 'admin', 'user', 'read-only', 'none']);
    expect(role?.openValues).toBe(true);
    expect(KINDS.User.normalize?.({ name: 'A', role: 'Read-Only' })).toEqual({ name: 'A', role: 'read-only' });
    expect(KINDS.User.normalize?.({ name: 'A', role: 'SRE' })).toEqual({ name: 'A', role: 'SRE' });
  });

  it('reads a role as its built-in key, the Role it names, or its label; no role at all is none', () => {
    const role = (raw: JsonValue, roles: Record<string, string> = {}): JsonValue | undefined =>
      KINDS.User.fromWire({ id: 'u', email: 'a@b.c', name: 'A', role: raw }, (_kind, id) => roles[id]).spec.role;
    expect(role({ id: 'owner', name: 'Owner' })).toBe('owner');
    expect(role({ id: 'role_1', name: 'SRE' }, { role_1: 'sre' })).toBe('sre');
    expect(role({ id: 'role_1', name: 'SRE' })).toBe('SRE');
    expect(role(null)).toBe('none');
    expect(role('admin')).toBe('admin');
  });
});

describe('addOn, serviceMade and uncleared: what a workspace or its API cannot do', () => {
  it('names RBAC as the add-on of roles and groups only', () => {
    expect(KIND_NAMES.filter((kind) => KINDS[kind].addOn !== undefined)).toEqual(['Role', 'Group']);
    expect(KINDS.Role.addOn).toBe('RBAC');
  });

  it('marks annotations as made by the service too, and their end time as something an update cannot clear', () => {
    expect(KINDS.Annotation.serviceMade).toContain('a triggered monitor');
    expect(KINDS.Annotation.uncleared).toEqual(['endTime']);
  });

  it('clears a removed annotation description or url with "" on update (PUT merges), not on create', () => {
    const live = { kind: 'Annotation' as const, id: 'ann_1', raw: {} };
    const spec = { type: 'deploy', datasets: ['d'] };
    expect(KINDS.Annotation.toWire('Deploy', spec, () => undefined, live)).toEqual({ title: 'Deploy', ...spec, description: '', url: '' });
    expect(KINDS.Annotation.toWire('Deploy', spec, () => undefined)).toEqual({ title: 'Deploy', ...spec });
  });
});

describe('timestamps: "no time" as the service spells it', () => {
  it('leaves null, "" and Go\'s zero time out of every kind\'s live spec', () => {
    const absent = [null, '', '0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000-05:00'];
    for (const kind of KIND_NAMES) {
      for (const path of KINDS[kind].timestamps) {
        for (const value of absent) {
          const raw: JsonObject = { id: 'x', name: 'n', title: 'n', email: 'a@b.c', properties: {}, [path]: value };
          expect(KINDS[kind].fromWire(raw, () => undefined).spec, `${kind}.${path} = ${JSON.stringify(value)}`).not.toHaveProperty(path);
        }
      }
    }
    expect(KINDS.Monitor.fromWire({ name: 'm', disabledUntil: '2030-01-01T00:00:00Z' }, () => undefined).spec.disabledUntil).toBe(
      '2030-01-01T00:00:00Z',
    );
  });
});

describe('dataLoss, dataLossOptIn and immutableNote: what an update destroys, and what it cannot do', () => {
  const dataset = KINDS.Dataset;
  const loss = (desired: JsonObject, live: JsonObject): string | undefined => dataset.dataLoss?.(desired, live);

  it('calls a lowered retention, or a retention turned on over kept data, data loss', () => {
    expect(loss({ useRetentionPeriod: true, retentionDays: 7 }, { useRetentionPeriod: true, retentionDays: 30 })).toBe(
      'LOWERS RETENTION from 30 days to 7 days: the service deletes the events older than that, and they cannot be recovered',
    );
    expect(loss({ useRetentionPeriod: true, retentionDays: 1 }, { useRetentionPeriod: false, retentionDays: 0 })).toContain(
      'from all data (useRetentionPeriod off) to 1 day:',
    );
    expect(loss({ useRetentionPeriod: true, retentionDays: 0 }, { useRetentionPeriod: false })).toContain('with 0 days is not documented');
  });

  it('calls a raised retention, a retention turned off, or days changed while it is off no loss', () => {
    expect(loss({ useRetentionPeriod: true, retentionDays: 90 }, { useRetentionPeriod: true, retentionDays: 30 })).toBeUndefined();
    expect(loss({ useRetentionPeriod: false, retentionDays: 7 }, { useRetentionPeriod: true, retentionDays: 30 })).toBeUndefined();
    expect(loss({ retentionDays: 7 }, { retentionDays: 30 })).toBeUndefined();
    expect(loss({ description: 'x' }, { description: 'y' })).toBeUndefined();
  });

  it('is declared with its opt-in, and only by datasets', () => {
    expect(KIND_NAMES.filter((kind) => KINDS[kind].dataLoss !== undefined)).toEqual(['Dataset']);
    expect(KIND_NAMES.filter((kind) => KINDS[kind].dataLossOptIn !== undefined)).toEqual(['Dataset']);
    expect(dataset.dataLossOptIn).toContain('--allow-data-loss Dataset');
  });

  it('says that a dataset of another kind or region is a new dataset', () => {
    expect(dataset.immutable).toEqual(['kind', 'edgeDeployment']);
    expect(dataset.immutableNote).toContain('changing one takes a new dataset');
  });

  it('sends a declared edge deployment at creation only, and reads one back', () => {
    const body = dataset.toWire('logs', { edgeDeployment: 'cloud.eu-central-1.aws' }, () => undefined);
    expect(body).toMatchObject({ name: 'logs', edgeDeployment: 'cloud.eu-central-1.aws' });
    const live = { kind: 'Dataset' as const, id: 'logs', raw: { id: 'logs' } };
    expect(dataset.toWire('logs', { edgeDeployment: 'cloud.eu-central-1.aws' }, () => undefined, live)).not.toHaveProperty('edgeDeployment');
    expect(dataset.toWire('logs', {}, () => undefined)).not.toHaveProperty('edgeDeployment');
    expect(dataset.fromWire({ id: 'logs', name: 'logs', edgeDeployment: 'cloud.us-east-1.aws' }, () => undefined).spec.edgeDeployment).toBe('cloud.us-east-1.aws');
    expect(dataset.fromWire({ id: 'logs', name: 'logs', edgeDeployment: '' }, () => undefined).spec).not.toHaveProperty('edgeDeployment');
  });
});

describe('an annotation without a title', () => {
  const annotation = KINDS.Annotation;
  const raw = { id: 'ann_1', type: 'deploy', datasets: ['d'], time: '2026-03-01T12:00:00.000Z' };

  it('is read under a name made of its type and time, with title ""', () => {
    expect(annotation.fromWire(raw, () => undefined)).toEqual({
      name: 'untitled deploy 2026-03-01T12:00:00.000Z',
      spec: { type: 'deploy', datasets: ['d'], time: '2026-03-01T12:00:00.000Z', title: '' },
    });
    expect(annotation.fromWire({ ...raw, title: 'Deploy' }, () => undefined).name).toBe('Deploy');
  });

  it('is written without a title, and an update clears one with ""', () => {
    const spec = { type: 'deploy', datasets: ['d'], time: '2026-03-01T12:00:00Z', title: '' };
    expect(annotation.toWire('untitled deploy', spec, () => undefined)).not.toHaveProperty('title');
    expect(annotation.toWire('untitled deploy', spec, () => undefined, { kind: 'Annotation', id: 'ann_1', raw })).toMatchObject({ title: '' });
  });

  it('alignLive: a file giving spec.title compares it with the title read', () => {
    const spec = { type: 'deploy', title: 'Release' };
    expect(annotation.alignLive?.(spec, { type: 'deploy' }, { title: 'Release' })).toEqual({ type: 'deploy', title: 'Release' });
    expect(annotation.alignLive?.({ type: 'deploy' }, { type: 'deploy' }, { title: 'Release' })).toEqual({ type: 'deploy' });
  });
});
