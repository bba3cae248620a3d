// The fingerprint of a plan's held changes (#27 item 4), with plain values: what moves it, what does
// not, and an approval that lets exactly the held changes through.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/plan/index.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import type { LiveObject, Plan } from '../../src/core/types.js';
import { changeOf, desiredOf, HASH_KEY, inventoryOf, liveOf, owns, policyOf, resource, wire } from './builders.js';

const SLACK = 'https://hooks.slack.com/services/T000/B000/s3cr3t-hook-value';
const hook = (url: string): LiveObject => wire.notifier('ntf_hook', 'hook', { slack: { slackUrl: url } });
const mail = (name: string, emails = ['oncall@example.com']): LiveObject => wire.notifier(`ntf_${name}`, name, { email: { emails } });
const keep = resource('Notifier', 'keep', { properties: { email: { emails: ['oncall@example.com'] } } });
// Every delete held: --max-deletes 0.
const held = policyOf({ prune: true, maxDeletes: 0 });

function planOf(live: LiveObject[], approve?: string, hashKey = HASH_KEY): Plan {
  const inventory = inventoryOf([owns(mail('keep'), 'keep'), ...live.map((o) => owns(o, String(o.raw.name)))], hashKey);
  return planChanges(desiredOf(keep), liveOf([mail('keep'), ...live]), inventory, held, approve === undefined ? {} : { approve });
}

function fingerprint(p: Plan): string {
  if (!p.held) throw new Error('nothing held');
  return p.held.fingerprint;
}

describe('the fingerprint of held changes', () => {
  it('names the held set and is the same for the same inputs', () => {
    const p = planOf([mail('old')]);
    expect(p.held).toEqual({ fingerprint: expect.stringMatching(/^held-[0-9a-f]{12}-[0-9a-f]{12}$/), count: 1, changes: ['Notifier/old'], objects: { 'Notifier/old': expect.stringMatching(/^[0-9a-f]{12}$/) } });
    expect(fingerprint(planOf([mail('old')]))).toBe(fingerprint(p));
    expect(changeOf(p, 'Notifier', 'old')).toMatchObject({ action: 'refused', heldFrom: { action: 'delete', reason: 'owned by wsync and no longer declared' } });
  });

  it('moves its first part with the held set, its second with a held object changed live', () => {
    const [, set, objects] = /^held-(\w+)-(\w+)$/.exec(fingerprint(planOf([mail('old')]))) ?? [];
    const [, set2, objects2] = /^held-(\w+)-(\w+)$/.exec(fingerprint(planOf([mail('old'), mail('older')]))) ?? [];
    expect(set2).not.toBe(set);
    expect(objects2).not.toBe(objects);
    const [, set3, objects3] = /^held-(\w+)-(\w+)$/.exec(fingerprint(planOf([mail('old', ['someone@example.com'])]))) ?? [];
    expect(set3).toBe(set);
    expect(objects3).not.toBe(objects);
  });

  it('holds a secret of a held object only as a keyed hash: never in clear, and a rotated one moves it', () => {
    const p = planOf([hook(SLACK)]);
    const outputs = [JSON.stringify(p), renderJson(p), renderText(p, { color: false }), renderMarkdown(p)];
    for (const out of outputs) expect(out).not.toContain('s3cr3t-hook-value');
    expect(fingerprint(planOf([hook(`${SLACK}-rotated`)]))).not.toBe(fingerprint(p));
    // Another state directory's key gives another fingerprint: the hash is keyed.
    expect(fingerprint(planOf([hook(SLACK)], undefined, 'another-key'))).not.toBe(fingerprint(p));
  });

  it('an approval of it lets exactly the held changes through, with their action and reason', () => {
    const approved = fingerprint(planOf([mail('old')]));
    const p = planOf([mail('old')], approved);
    expect(changeOf(p, 'Notifier', 'old')).toMatchObject({ action: 'delete', reason: `owned by wsync and no longer declared; approved (${approved})` });
    expect(p).toMatchObject({ approval: { fingerprint: approved, released: true }, refusals: [], summary: { delete: 1, refused: 0 } });
    expect(p.held).toBeUndefined();
    expect(renderText(p, { color: false })).toContain(`Approved: ${approved} lets the held changes through.`);
  });

  it('an approval of other held changes is void, says why, and holds them still', () => {
    const approved = fingerprint(planOf([mail('old')]));
    const changed = planOf([mail('old', ['someone@example.com'])], approved);
    expect(changed.approval).toMatchObject({ released: false, why: expect.stringContaining('a held object changed since the approved plan read it') });
    expect(changeOf(changed, 'Notifier', 'old').action).toBe('refused');
    const other = planOf([mail('old'), mail('older')], approved);
    expect(other.approval?.why).toContain('the changes held now are not the ones approved (2 held: Notifier/old, Notifier/older;');
    expect(renderText(other, { color: false })).toContain(`Approval ${approved} is void: the changes held now are not the ones approved`);
    expect(planOf([], approved).approval?.why).toBe('nothing is held now: the plan differs from the one approved');
  });

  it('names what moved when it knows the held changes approved: no longer held, held now too, changed live', () => {
    const known = planOf([mail('old'), mail('older')]).held;
    const approved = known?.fingerprint ?? '';
    const moved = planChanges(desiredOf(keep), liveOf([mail('keep'), mail('old', ['someone@example.com']), mail('oldest')]), inventoryOf([owns(mail('keep'), 'keep'), owns(mail('old'), 'old'), owns(mail('oldest'), 'oldest')]), held, { approve: approved, ...(known ? { approvedHeld: known } : {}) });
    expect(moved.approval?.why).toContain('(no longer held: Notifier/older; held now too: Notifier/oldest; changed live since: Notifier/old; 2 held: Notifier/old, Notifier/oldest;');
    expect(Object.keys(known?.objects ?? {})).toEqual(['Notifier/old', 'Notifier/older']);
  });

  it('covers a held retention cut: approved, it is the update it would have been', () => {
    const logs = wire.dataset('logs', { useRetentionPeriod: true, retentionDays: 30 });
    const make = (approve?: string): Plan =>
      planChanges(desiredOf(resource('Dataset', 'logs', { useRetentionPeriod: true, retentionDays: 7 })), liveOf([logs]), inventoryOf([owns(logs, 'logs')]), policyOf(), approve === undefined ? {} : { approve });
    const first = make();
    expect(first.held?.changes).toEqual(['Dataset/logs']);
    expect(changeOf(make(fingerprint(first)), 'Dataset', 'logs')).toMatchObject({ action: 'update', warning: expect.stringContaining('LOWERS RETENTION') });
  });
});
