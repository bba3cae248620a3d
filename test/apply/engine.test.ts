// applyPlan in-process, with the real API client against the emulator: dependency skipping,
// refusals, abort, concurrency and redaction, which are hard to provoke through the CLI.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan, ApplyRefusedError, type ApplyEvent } from '../../src/apply/index.js';
import { DEFAULT_POLICY, type Desired, type DesiredResource, type JsonObject, type KindName, type LiveState, type Plan } from '../../src/core/types.js';
import { KINDS } from '../../src/kinds/index.js';
import { liveScope, readLive } from '../../src/live/index.js';
import { planChanges } from '../../src/plan/index.js';
import { openState, type StateHandle } from '../../src/state/index.js';
import { apiClientFor, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { removeDir, tempDir } from '../support/tree.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { named, readInventory } from '../support/workspace.js';

let emulator: TestEmulator;
let client: ApiClient;
let dir: string;
let state: StateHandle;

beforeEach(async () => {
  emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
  client = apiClientFor(emulator, { retryBaseMs: 5 });
  dir = await tempDir('wsync-engine-');
  state = await openState(join(dir, 'state'), { lock: true });
});
afterEach(async () => {
  await state.close();
  await client.close();
  await emulator.close();
  await removeDir(dir);
});

function desiredOf(resources: { kind: KindName; name: string; spec: JsonObject; annotations?: Record<string, string> }[], secretValues: string[] = []): Desired {
  return {
    resources: resources.map(
      (r, i): DesiredResource => ({
        kind: r.kind,
        name: r.name,
        key: KINDS[r.kind].keyOf(r.name, r.spec),
        annotations: r.annotations ?? {},
        spec: r.spec,
        source: { file: `r${i}.yaml`, line: 1, column: 1 },
        locations: {},
        interpolated: [],
      }),
    ),
    diagnostics: [],
    stats: { files: resources.length, documents: resources.length, skipped: 0 },
    secretValues,
  };
}

async function planFor(desired: Desired): Promise<{ plan: Plan; live: LiveState }> {
  const live = await readLive(client, liveScope(desired, state.inventory, DEFAULT_POLICY));
  return { plan: planChanges(desired, live, state.inventory, DEFAULT_POLICY), live };
}

const email = (name: string, to = `${name}@example.com`): { kind: KindName; name: string; spec: JsonObject } => ({
  kind: 'Notifier',
  name,
  spec: { properties: { email: { emails: [to] } } },
});
const monitor = (name: string, notifiers: string[]): { kind: KindName; name: string; spec: JsonObject } => ({
  kind: 'Monitor',
  name,
  spec: { type: 'MatchEvent', aplQuery: "['checkout']", intervalMinutes: 1, rangeMinutes: 1, notifiers },
});

describe('applyPlan', () => {
  it('skips the dependents of a failed change and carries on with independent ones', async () => {
    // The server refuses this notifier (a number where a URL belongs); our files would never say so.
    const broken = { kind: 'Notifier' as const, name: 'broken', spec: { properties: { slack: { slackUrl: 12 } } } };
    const desired = desiredOf([broken, email('fine'), monitor('needs-broken', ['broken']), monitor('needs-fine', ['fine'])]);
    const { plan, live } = await planFor(desired);
    expect(plan.changes.find((c) => c.key === 'needs-broken')?.dependsOn).toEqual(['Notifier/broken']);

    const events: ApplyEvent[] = [];
    const result = await applyPlan({ plan, desired, live, client, state, concurrency: 4, onChange: (e) => events.push(e) });
    expect(result).toMatchObject({ created: 2, failed: 1, skipped: 1, updated: 0, deleted: 0, adopted: 0 });
    expect(events.find((e) => e.key === 'broken')).toMatchObject({ outcome: 'failed', action: 'create' });
    expect(events.find((e) => e.key === 'broken')?.message).toContain('400');
    expect(events.find((e) => e.key === 'needs-broken')).toMatchObject({
      outcome: 'skipped',
      message: 'depends on Notifier/broken, which failed',
    });
    const after = await emulator.state();
    expect(named(after, 'monitors', 'needs-fine')?.notifierIds).toEqual([named(after, 'notifiers', 'fine')?.id]);
    expect(named(after, 'monitors', 'needs-broken')).toBeUndefined();
    expect(result.writes).toBe(3);
    expect((await readInventory(state.dir)).entries.map((e) => e.key).sort()).toEqual(['fine', 'needs-fine']);
  });

  it('refuses a plan with errors before any request; a refusal only holds its changes', async () => {
    const desired = desiredOf([email('a')]);
    const { plan, live } = await planFor(desired);
    await emulator.clearRequests();
    const withError = { ...plan, diagnostics: [{ severity: 'error' as const, code: 'unresolved-reference', message: 'no Notifier named "x"' }] };
    await expect(applyPlan({ plan: withError, desired, live, client, state, concurrency: 4 })).rejects.toThrow(/no Notifier named "x"/);
    await expect(applyPlan({ plan: withError, desired, live, client, state, concurrency: 4 })).rejects.toBeInstanceOf(ApplyRefusedError);
    expect(await emulator.requests()).toEqual([]);
    const held = {
      ...plan,
      refusals: ['Refusing to delete 20 objects: more than --max-deletes 10.'],
      changes: plan.changes.map((c) => ({ ...c, action: 'refused' as const })),
    };
    expect(await applyPlan({ plan: held, desired, live, client, state, concurrency: 4 })).toMatchObject({ created: 0, failed: 0, writes: 0 });
    expect(await emulator.writes()).toEqual([]);
  });

  it('never puts a secret into a message, even when the server echoes it', async () => {
    const secret = 'notify_secret-value-from-env-0042';
    // A live state (as a plan saw it) naming a notifier whose id the server does not know and that
    // happens to equal a secret value: the server's 400 echoes it back.
    const desired = desiredOf([monitor('echo', ['ghost'])], [secret]);
    const { plan } = await planFor(desiredOf([email('ghost'), monitor('echo', ['ghost'])]));
    const live: LiveState = {
      objects: { Notifier: [{ kind: 'Notifier', id: secret, raw: { id: secret, name: 'ghost', properties: {} } }], Monitor: [] },
      listedKinds: ['Notifier', 'Monitor'],
      listedDatasets: {},
      requests: 0,
    };
    const onlyMonitor = { ...plan, changes: plan.changes.filter((c) => c.kind === 'Monitor').map((c) => ({ ...c, dependsOn: [] })) };
    const events: ApplyEvent[] = [];
    const result = await applyPlan({ plan: onlyMonitor, desired, live, client, state, concurrency: 1, onChange: (e) => events.push(e) });
    expect(result.failed).toBe(1);
    expect(events[0]?.message).toContain('(sensitive)');
    expect(JSON.stringify(result)).not.toContain(secret);
    const log = await emulator.requests();
    expect(log.some((r) => r.method === 'POST' && r.status === 400)).toBe(true);
  });

  it('starts nothing once aborted, finishes what is in flight, and keeps the inventory in step', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `n${i}`);
    const desired = desiredOf(names.map((n) => email(n)));
    const { plan, live } = await planFor(desired);
    await emulator.faults({ latencyMs: [20, 20] });
    const controller = new AbortController();
    const events: ApplyEvent[] = [];
    const result = await applyPlan({
      plan,
      desired,
      live,
      client,
      state,
      concurrency: 3,
      signal: controller.signal,
      onChange: (event) => {
        events.push(event);
        if (events.length === 1) controller.abort();
      },
    });
    expect(result.aborted).toBe(true);
    // The first finished; the two others in flight with it finished too; nothing else started.
    expect(result.created).toBe(3);
    expect(result.skipped).toBe(9);
    expect(events.filter((e) => e.outcome === 'skipped').every((e) => e.message === 'not started: apply was stopped')).toBe(true);
    expect((await emulator.writes()).length).toBe(3);
    const inventory = await readInventory(state.dir);
    expect(inventory.entries.map((e) => e.id).sort()).toEqual(
      events.filter((e) => e.outcome === 'done').map((e) => e.id).sort(),
    );
  });

  it('keeps at most --concurrency writes in flight within a level', async () => {
    const desired = desiredOf(Array.from({ length: 10 }, (_, i) => email(`c${i}`)));
    const { plan, live } = await planFor(desired);
    await emulator.faults({ latencyMs: [15, 15] });
    let inFlight = 0;
    let peak = 0;
    const counting: ApiClient = {
      stats: client.stats,
      close: () => client.close(),
      async request(req) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        try {
          return await client.request(req);
        } finally {
          inFlight--;
        }
      },
    };
    const result = await applyPlan({ plan, desired, live, client: counting as ApiClient, state, concurrency: 2 });
    expect(result.created).toBe(10);
    expect(peak).toBe(2);
  });

  it('counts a delete of an object already gone as done, and forgets it', async () => {
    const desired = desiredOf([email('keep'), email('gone')]);
    const first = await planFor(desired);
    await applyPlan({ ...first, desired, client, state, concurrency: 2 });
    const goneId = state.inventory.entries.find((e) => e.key === 'gone')?.id ?? '';
    const next = desiredOf([email('keep')]);
    const live = await readLive(client, liveScope(next, state.inventory, DEFAULT_POLICY));
    const plan = planChanges(next, live, state.inventory, { ...DEFAULT_POLICY, prune: true, maxDeleteRatio: 1 });
    expect(plan.changes.find((c) => c.action === 'delete')?.id).toBe(goneId);
    // Someone deletes it by hand between plan and apply.
    await emulator.call('DELETE', `/v2/notifiers/${goneId}`);
    const events: ApplyEvent[] = [];
    const result = await applyPlan({ plan, desired: next, live, client, state, concurrency: 2, onChange: (e) => events.push(e) });
    expect(result.deleted).toBe(1);
    expect(events[0]).toMatchObject({ action: 'delete', outcome: 'done', message: 'already gone' });
    expect(state.inventory.entries.map((e) => e.key)).toEqual(['keep']);
  });

  it('drops inventory entries whose objects are gone from a kind that was read, and keeps the rest', async () => {
    const desired = desiredOf([email('live-one')]);
    await state.record({ kind: 'Notifier', key: 'deleted-by-hand', id: 'notify_00000000deadbeef' });
    await state.record({ kind: 'Org', key: 'not-read', id: 'org-not-read-000000' });
    const planned = await planFor(desired);
    const { plan } = planned;
    // As if Org had not been read this time (the daemon reads what its scope needs).
    const live: LiveState = { ...planned.live, listedKinds: planned.live.listedKinds.filter((k) => k !== 'Org'), objects: { ...planned.live.objects, Org: undefined } };
    expect(live.listedKinds).toContain('Notifier');
    const result = await applyPlan({ plan, desired, live, client, state, concurrency: 2 });
    expect(result.created).toBe(1);
    expect(state.inventory.entries.map((e) => `${e.kind}/${e.key}`)).toEqual(['Notifier/live-one', 'Org/not-read']);
    expect((await readInventory(state.dir)).entries.map((e) => e.key)).toEqual(['live-one', 'not-read']);
  });

  it('adopts what a POST created when its answer was lost, instead of creating it twice', async () => {
    const desired = desiredOf([email('lost-answer'), monitor('lost-too', ['lost-answer'])]);
    const { plan, live } = await planFor(desired);
    await emulator.faults({ dropAfterWriteRate: 1 });
    const events: ApplyEvent[] = [];
    const result = await applyPlan({ plan, desired, live, client, state, concurrency: 2, onChange: (e) => events.push(e) });
    expect(result).toMatchObject({ created: 2, failed: 0 });
    expect(events.map((e) => e.message)).toEqual([
      'the answer was lost; found it created by listing again',
      'the answer was lost; found it created by listing again',
    ]);
    const after = await emulator.state();
    expect(after.notifiers).toHaveLength(1);
    expect(after.monitors).toHaveLength(1);
    expect(named(after, 'monitors', 'lost-too')?.notifierIds).toEqual([named(after, 'notifiers', 'lost-answer')?.id]);
    expect((await emulator.writes()).filter((w) => w.method === 'POST')).toHaveLength(2);
  });

  it('deletes a token whose secret was lost with its answer, and never leaves one that looks in sync', async () => {
    const desired = desiredOf([{ kind: 'ApiToken', name: 'lost-secret', spec: { orgCapabilities: { annotations: ['create'] } } }]);
    const { plan, live } = await planFor(desired);
    await emulator.faults({ dropAfterWriteRate: 1 });
    const events: ApplyEvent[] = [];
    const result = await applyPlan({ plan, desired, live, client, state, concurrency: 1, onChange: (e) => events.push(e) });
    expect(result.failed).toBe(1);
    expect(events[0]?.message).toContain("the answer carrying the token's secret was lost 3 times");
    // Every token made without a secret we could save was deleted again; none is owned.
    const log = await emulator.writes();
    expect(log.filter((w) => w.method === 'POST')).toHaveLength(3);
    expect(new Set(log.filter((w) => w.method === 'DELETE').map((w) => w.path)).size).toBe(3);
    expect(((await emulator.state()).tokens ?? []).filter((t) => t.name === 'lost-secret')).toEqual([]);
    expect(state.inventory.entries).toEqual([]);

    // Once answers come back, the next run creates it and saves the secret.
    await emulator.faults({ dropAfterWriteRate: 0 });
    const again = await planFor(desired);
    expect(again.plan.changes[0]?.action).toBe('create');
    const second = await applyPlan({ ...again, desired, client, state, concurrency: 1 });
    expect(second.created).toBe(1);
    const token = named(await emulator.state(), 'tokens', 'lost-secret');
    expect((await readFile(join(state.dir, 'tokens', 'lost-secret'), 'utf8')).trim()).toBe(token?.token);
  });
});

describe('applyPlan: deferred references', () => {
  async function apply(...declared: { kind: KindName; name: string; spec: JsonObject }[]): Promise<{ events: ApplyEvent[]; failed: number }> {
    const desired = desiredOf(declared);
    const { plan, live } = await planFor(desired);
    const events: ApplyEvent[] = [];
    const result = await applyPlan({ plan, desired, live, client, state, concurrency: 2, onChange: (e) => events.push(e) });
    return { events, failed: result.failed };
  }

  it('writes a role again once the users it names were created in the same run', async () => {
    const { events, failed } = await apply(
      { kind: 'Role', name: 'sre', spec: { members: ['ann@example.com'], orgCapabilities: { monitors: ['read'] } } },
      { kind: 'User', name: 'ann@example.com', spec: { name: 'Ann', role: 'sre' } },
    );
    expect(failed).toBe(0);
    const followUp = events.filter((e) => e.kind === 'Role' && e.action === 'update');
    expect(followUp).toEqual([expect.objectContaining({ outcome: 'done', message: 'members set once their users existed' })]);
    expect(events.indexOf(followUp[0]!)).toBeGreaterThan(events.findIndex((e) => e.kind === 'User'));
    const workspace = await emulator.state();
    expect(named(workspace, 'roles', 'sre')?.members).toEqual([named(workspace, 'users', 'Ann')?.id]);
  });

  it('fails the second write, naming the members, when a user it waited for was not created', async () => {
    const { events, failed } = await apply(
      { kind: 'Role', name: 'sre', spec: { members: ['ann@example.com'], orgCapabilities: { monitors: ['read'] } } },
      // The server refuses this role (a capability it does not know), so Ann, who needs it, is skipped.
      { kind: 'Role', name: 'broken', spec: { orgCapabilities: { monitors: ['fly'] } } },
      { kind: 'User', name: 'ann@example.com', spec: { name: 'Ann', role: 'broken' } },
    );
    expect(events.find((e) => e.kind === 'User')).toMatchObject({ outcome: 'skipped' });
    expect(events.filter((e) => e.kind === 'Role' && e.action === 'update')).toEqual([
      expect.objectContaining({ outcome: 'failed', message: 'members not set: ann@example.com (not created in this run)' }),
    ]);
    expect(failed).toBe(2);
  });
});
