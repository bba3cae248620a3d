import { describe, expect, it } from 'vitest';
import { hashSecret, TRUST_ON_FIRST_USE } from '../../src/core/secret-hash.js';
import type { JsonObject, LiveObject } from '../../src/core/types.js';
import { KINDS } from '../../src/kinds/index.js';
import { secretHashes } from '../../src/plan/index.js';
import { changeOf, desiredOf, HASH_KEY, inventoryOf, liveOf, obj, owns, plan, resource, wire } from './builders.js';

const slack = (url: string): JsonObject => ({ properties: { slack: { slackUrl: url } } });
const pagerduty = (routingKey: string, token?: string): JsonObject => ({
  properties: { pagerduty: token === undefined ? { routingKey } : { routingKey, token } },
});
const recorded = (spec: JsonObject, key = HASH_KEY) => secretHashes(KINDS.Notifier, spec, key);

function planOne(spec: JsonObject, live: LiveObject, hashes?: Record<string, string>, hashKey = HASH_KEY) {
  const entry = hashes === undefined ? [] : [owns(live, 'n', { secretHashes: hashes })];
  return changeOf(plan(desiredOf(resource('Notifier', 'n', spec)), liveOf([live]), inventoryOf(entry, hashKey)), 'Notifier', 'n');
}

describe('secret fields', () => {
  it('secretHashes keys the keyed hash by JSON Pointer into the spec', () => {
    expect(recorded(slack('https://hooks.example.com/A'))).toEqual({
      '/properties/slack/slackUrl': hashSecret(HASH_KEY, 'https://hooks.example.com/A'),
    });
  });

  it('recorded hash equal -> noop, even when the service masks the live value', () => {
    const masked = wire.notifier('n_1', 'n', { slack: { slackUrl: '********' } });
    expect(planOne(slack('https://hooks.example.com/A'), masked, recorded(slack('https://hooks.example.com/A')))).toMatchObject({ action: 'noop', diffs: [] });
  });

  it('recorded hash differs (rotated secret) -> update with a sensitive diff that carries no value', () => {
    const live = wire.notifier('n_1', 'n', { slack: { slackUrl: 'https://hooks.example.com/OLD' } });
    const change = planOne(slack('https://hooks.example.com/NEW'), live, recorded(slack('https://hooks.example.com/OLD')));
    expect(change.action).toBe('update');
    expect(change.diffs).toEqual([{ path: 'properties.slack.slackUrl', sensitive: true }]);
  });

  it('no recorded hash: the live value is compared in memory', () => {
    const live = wire.notifier('n_1', 'n', { slack: { slackUrl: 'https://hooks.example.com/A' } });
    expect(planOne(slack('https://hooks.example.com/A'), live)).toMatchObject({ action: 'adopt', diffs: [] });
    expect(planOne(slack('https://hooks.example.com/A'), live, {})).toMatchObject({ action: 'noop', diffs: [] });
    expect(planOne(slack('https://hooks.example.com/B'), live, {})).toMatchObject({
      action: 'update',
      diffs: [{ path: 'properties.slack.slackUrl', sensitive: true }],
    });
  });

  it('a secret export --adopt marked as trusted is not written while the marker stands', () => {
    const live = wire.notifier('n_1', 'n', { pagerduty: { routingKey: '' } });
    const trusted = { '/properties/pagerduty/routingKey': TRUST_ON_FIRST_USE };
    expect(planOne(pagerduty('rk-in-use'), live, trusted)).toMatchObject({ action: 'noop', diffs: [] });
    // A secret the marker does not cover is still compared.
    expect(planOne(pagerduty('rk-in-use', 'tk'), live, trusted)).toMatchObject({
      action: 'update',
      diffs: [{ path: 'properties.pagerduty.token', sensitive: true }],
    });
  });

  it('PagerDuty blanks its secrets on read: without a hash they are written, with one they are compared', () => {
    const live = wire.notifier('n_1', 'n', { pagerduty: { routingKey: 'rk', token: 'tk' } });
    const spec = pagerduty('rk-1', 'tk-1');
    const unknown = planOne(spec, live, {});
    expect(unknown.action).toBe('update');
    expect(unknown.reason).toBe('sensitive value not known; will be written');
    expect(unknown.diffs).toEqual([
      { path: 'properties.pagerduty.routingKey', sensitive: true },
      { path: 'properties.pagerduty.token', sensitive: true },
    ]);
    expect(planOne(spec, live, recorded(spec))).toMatchObject({ action: 'noop' });
    const rotated = planOne(pagerduty('rk-2', 'tk-1'), live, recorded(spec));
    expect(rotated.diffs).toEqual([{ path: 'properties.pagerduty.routingKey', sensitive: true }]);
    expect(rotated.reason).toBeUndefined();
  });

  it('with no state yet (hash key ""), recorded hashes are not used: the live-value rule applies', () => {
    const live = wire.notifier('n_1', 'n', { pagerduty: { routingKey: 'rk' } });
    const change = planOne(pagerduty('rk-1'), live, recorded(pagerduty('rk-1'), ''), '');
    expect(change).toMatchObject({ action: 'update', reason: 'sensitive value not known; will be written' });
  });

  it('a secret the live object lacks entirely is written even when the recorded hash matches', () => {
    const live = wire.notifier('n_1', 'n', { pagerduty: { routingKey: 'rk' } });
    const spec = pagerduty('rk-1', 'tk-1');
    expect(planOne(spec, live, recorded(spec)).diffs).toEqual([{ path: 'properties.pagerduty.token', sensitive: true }]);
  });

  it('a secret header removed from the file, or added to it, is a sensitive diff', () => {
    const live = obj('Notifier', {
      id: 'n_1',
      name: 'n',
      properties: { customWebhook: { url: 'https://h.example.com', body: '{}', secretHeaders: { Authorization: 'Bearer A', 'X-Old': 'old' } } },
    });
    const spec = { properties: { customWebhook: { url: 'https://h.example.com', body: '{}', secretHeaders: { Authorization: 'Bearer A', 'X-New': 'new' } } } };
    expect(planOne(spec, live, {}).diffs).toEqual([
      { path: 'properties.customWebhook.secretHeaders.X-New', sensitive: true },
      { path: 'properties.customWebhook.secretHeaders.X-Old', sensitive: true },
    ]);
  });

  it('a create lists each secret as sensitive, next to the plain fields', () => {
    const p = plan(
      desiredOf(resource('Notifier', 'n', { properties: { customWebhook: { url: 'https://h.example.com', body: '{}', secretHeaders: { Authorization: 'Bearer A' } } } })),
      liveOf([]),
    );
    expect(changeOf(p, 'Notifier', 'n').diffs).toEqual([
      { path: 'properties.customWebhook.body', after: '{}' },
      { path: 'properties.customWebhook.secretHeaders.Authorization', sensitive: true },
      { path: 'properties.customWebhook.url', sensitive: true },
    ]);
  });

  it('switching channel shows the plain fields and the secrets without values', () => {
    const live = wire.notifier('n_1', 'n', { slack: { slackUrl: 'https://hooks.example.com/A' } });
    const change = planOne({ properties: { opsgenie: { apiKey: 'og-key', isEU: true } } }, live, {});
    expect(change.diffs).toEqual([
      { path: 'properties.opsgenie.apiKey', sensitive: true },
      { path: 'properties.opsgenie.isEU', after: true },
      { path: 'properties.slack.slackUrl', sensitive: true },
    ]);
    expect(JSON.stringify(change)).not.toContain('og-key');
    expect(JSON.stringify(change)).not.toContain('hooks.example.com/A');
  });
});
