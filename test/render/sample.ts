// Plans to render, made by the real planner from plain values.
import type { Plan } from '../../src/core/types.js';
import { desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from '../plan/builders.js';

const monitorSpec = { type: 'Threshold', aplQuery: "['http'] | count", operator: 'Above', threshold: 30 };

/** One change of each action but refused, plus an error and a warning. */
export function mixedPlan(): Plan {
  const updated = wire.monitor('mon_1', 'm', { ...monitorSpec, threshold: 25 });
  const same = wire.monitor('mon_2', 'same', monitorSpec);
  const slack = wire.notifier('notify_1', 'slack', { slack: { slackUrl: 'https://hooks.example.com/OLD' } });
  const token = wire.token('tok_1', 'ci', { description: 'CI' });
  const old = wire.notifier('notify_old', 'old', { webhook: { url: 'https://old.example.com' } });
  const adopted = wire.role('role_1', 'sre', { description: 'by hand' });
  const observed = wire.vfield('vfld_1', 'dur', { dataset: 'http', expression: 'd' });
  const twins = [wire.user('usr_1', 'twin@example.com', 'T1'), wire.user('usr_2', 'twin@example.com', 'T2')];
  const fillers = Array.from({ length: 6 }, (_, i) => wire.notifier(`notify_f${i}`, `filler-${i}`, { webhook: { url: 'https://f.example.com' } }));
  return plan(
    desiredOf(
      resource('Monitor', 'new', { ...monitorSpec, notifiers: ['slack'] }, { file: 'monitors/new.yaml', line: 1 }),
      resource('Monitor', 'm', monitorSpec, { file: 'monitors/m.yaml', line: 5 }),
      resource('Monitor', 'same', monitorSpec),
      resource('Monitor', 'broken', { ...monitorSpec, notifiers: ['missing'] }, { file: 'monitors/broken.yaml', line: 12 }),
      resource('Notifier', 'slack', { properties: { slack: { slackUrl: 'https://hooks.example.com/NEW' } } }),
      resource('ApiToken', 'ci', { description: 'CI v2' }),
      resource('Role', 'sre', { description: 'Site reliability' }),
      resource('VirtualField', 'dur', { dataset: 'http', expression: 'd / 1000' }, { annotations: { 'wsync/mode': 'observe' } }),
      resource('User', 'twin@example.com', { name: 'T', role: 'user' }),
    ),
    liveOf([updated, same, slack, token, old, adopted, observed, ...twins, ...fillers]),
    inventoryOf([owns(updated, 'm'), owns(same, 'same'), owns(slack, 'slack'), owns(token, 'ci'), owns(old, 'old')]),
    policyOf({ prune: true }),
  );
}

/** Deletes over the budget: refused, with refusal sentences. */
export function refusedPlan(): Plan {
  const live = Array.from({ length: 3 }, (_, i) => wire.monitor(`mon_${i}`, `m${i}`, monitorSpec));
  return plan(desiredOf(resource('Monitor', 'm0', monitorSpec)), liveOf(live), inventoryOf(live.map((m, i) => owns(m, `m${i}`))), policyOf({ prune: true }));
}

export function emptyPlan(): Plan {
  const live = wire.monitor('mon_1', 'm', monitorSpec);
  return plan(desiredOf(resource('Monitor', 'm', monitorSpec)), liveOf([live]), inventoryOf([owns(live, 'm')]));
}

/** Datasets pruned with --allow-delete Dataset: one deleted, loudly; the other datasets stay. */
export function datasetDeletePlan(): Plan {
  const old = wire.dataset('old-logs');
  const live = [old, ...['a', 'b', 'c', 'd'].map((name) => wire.dataset(name))];
  return plan(desiredOf(), liveOf(live), inventoryOf([owns(old, 'old-logs')]), policyOf({ prune: true, allowEmpty: true, allowDeletion: ['Dataset'] }));
}
