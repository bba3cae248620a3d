// A lowered retention deletes a dataset's older events for good: every plan carries the warning,
// and the update is refused unless --allow-data-loss Dataset names it. Raising it is an update.
// A dataset's region (edgeDeployment) is chosen at creation: a change is reported, never sent.
import { describe, expect, it } from 'vitest';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { COMMENT_LIMIT, reportMarkdown } from '../../src/render/pr-comment.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

const live = wire.dataset('logs', { useRetentionPeriod: true, retentionDays: 30, edgeDeployment: 'cloud.us-east-1.aws' });
const owned = inventoryOf([owns(live, 'logs')]);
const planWith = (spec: Parameters<typeof resource>[2], allowDataLoss: 'Dataset'[] = [], annotations: Record<string, string> = {}) =>
  plan(desiredOf(resource('Dataset', 'logs', spec, { annotations })), liveOf([live]), owned, policyOf({ allowDataLoss }));
const CUT = 'LOWERS RETENTION from 30 days to 7 days: the service deletes the events older than that, and they cannot be recovered';

describe('a retention cut', () => {
  it('is refused without the opt-in, with the warning, and refuses the plan', () => {
    const p = planWith({ useRetentionPeriod: true, retentionDays: 7 });
    expect(changeOf(p, 'Dataset', 'logs')).toMatchObject({
      action: 'refused',
      warning: CUT,
      reason: 'lowering a retention deletes data for good; re-run with --allow-data-loss Dataset to apply it',
      diffs: [{ path: 'retentionDays', before: 30, after: 7 }],
    });
    expect(p.summary.refused).toBe(1);
  });

  it('is an update carrying the warning with --allow-data-loss Dataset', () => {
    const p = planWith({ useRetentionPeriod: true, retentionDays: 7 }, ['Dataset']);
    expect(changeOf(p, 'Dataset', 'logs')).toMatchObject({ action: 'update', warning: CUT });
  });

  it('counts turning the period on over a dataset that kept everything', () => {
    const forever = wire.dataset('logs', { useRetentionPeriod: false, retentionDays: 0 });
    const p = plan(desiredOf(resource('Dataset', 'logs', { useRetentionPeriod: true, retentionDays: 90 })), liveOf([forever]), inventoryOf([owns(forever, 'logs')]), policyOf({}));
    expect(changeOf(p, 'Dataset', 'logs')).toMatchObject({ action: 'refused', warning: expect.stringContaining('from all data (useRetentionPeriod off) to 90 days') });
  });

  it('is no loss when raised, turned off, or ignored by the file (wsync/ignore-fields)', () => {
    expect(changeOf(planWith({ useRetentionPeriod: true, retentionDays: 90 }), 'Dataset', 'logs')).toMatchObject({ action: 'update' });
    expect(changeOf(planWith({ useRetentionPeriod: true, retentionDays: 90 }), 'Dataset', 'logs').warning).toBeUndefined();
    expect(changeOf(planWith({ useRetentionPeriod: false, retentionDays: 30 }), 'Dataset', 'logs')).toMatchObject({ action: 'update' });
    const ignored = planWith({ useRetentionPeriod: true, retentionDays: 7, description: 'x' }, [], { 'wsync/ignore-fields': 'retentionDays' });
    expect(changeOf(ignored, 'Dataset', 'logs')).toMatchObject({ action: 'update', diffs: [{ path: 'description', after: 'x' }] });
    expect(changeOf(ignored, 'Dataset', 'logs').warning).toBeUndefined();
  });

  it('shows under "Data loss" in text, markdown and JSON', () => {
    const p = planWith({ useRetentionPeriod: true, retentionDays: 7 });
    expect(renderText(p, { color: false })).toContain(`Data loss (1): read this before you apply\n  !! refused Dataset/logs: ${CUT}\n`);
    expect(renderMarkdown(p)).toContain(`#### :rotating_light: Data loss (1)`);
    expect(renderMarkdown(p)).toContain(`- **refused** \`Dataset/logs\`: **${CUT}**`);
    const json = JSON.parse(renderJson(p)) as { changes: { kind: string; action: string; warning?: string }[] };
    expect(json.changes).toEqual([expect.objectContaining({ kind: 'Dataset', action: 'refused', warning: CUT })]);
  });

  it('shows under "Data loss" in the pull request comment, refused (plan exits 1) or opted in', () => {
    const validate = { ok: true, output: '' };
    const refused = reportMarkdown(
      { commit: 'abc1234', validate, plan: { status: 'failed', output: renderText(planWith({ useRetentionPeriod: true, retentionDays: 7 }), { color: false }) } },
      { limit: COMMENT_LIMIT },
    );
    expect(refused).toContain(`!! refused Dataset/logs: ${CUT}`);
    const output = renderMarkdown(planWith({ useRetentionPeriod: true, retentionDays: 7 }, ['Dataset']));
    const allowed = reportMarkdown({ commit: 'abc1234', validate, plan: { status: 'planned', changes: true, format: 'markdown', output } }, { limit: COMMENT_LIMIT });
    expect(allowed).toContain('#### :rotating_light: Data loss (1)');
    expect(allowed).toContain(`- **update** \`Dataset/logs\`: **${CUT}**`);
  });
});

describe('a dataset region', () => {
  it('left out of the file is no drift, whatever region the dataset is in', () => {
    expect(changeOf(planWith({ useRetentionPeriod: true, retentionDays: 30 }), 'Dataset', 'logs')).toMatchObject({ action: 'noop' });
  });

  it('changed in the file is reported as needing a new dataset, never sent', () => {
    const p = planWith({ useRetentionPeriod: true, retentionDays: 30, edgeDeployment: 'cloud.eu-central-1.aws' });
    expect(changeOf(p, 'Dataset', 'logs')).toMatchObject({
      action: 'skipped',
      diffs: [{ path: 'edgeDeployment', before: 'cloud.us-east-1.aws', after: 'cloud.eu-central-1.aws' }],
      reason: expect.stringContaining('edgeDeployment changes are not applied through the API: a dataset\'s kind and edge deployment are chosen at its creation: changing one takes a new dataset'),
    });
  });

  it('is sent when the dataset is created', () => {
    const p = plan(desiredOf(resource('Dataset', 'eu-logs', { edgeDeployment: 'cloud.eu-central-1.aws' })), liveOf([live]), owned, policyOf({}));
    expect(changeOf(p, 'Dataset', 'eu-logs')).toMatchObject({ action: 'create', diffs: [{ path: 'edgeDeployment', after: 'cloud.eu-central-1.aws' }] });
  });
});
