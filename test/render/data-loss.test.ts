// A change that destroys data (a dataset delete) is said loudly in every plan format.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { datasetDeletePlan, mixedPlan } from './sample.js';

const warning = KINDS.Dataset.deletionWarning ?? '';

describe('data loss in every plan format', () => {
  const p = datasetDeletePlan();

  it('text: a banner before the changes, and the warning under the delete', () => {
    const text = renderText(p, { color: false });
    const banner = text.indexOf('Data loss (1): read this before you apply');
    const change = text.indexOf('  - delete  Dataset/old-logs (id old-logs)');
    expect(banner).toBeGreaterThanOrEqual(0);
    expect(text).toContain(`  !! delete Dataset/old-logs: ${warning}\n`);
    expect(change).toBeGreaterThan(banner);
    expect(text.slice(change)).toContain(`        !! ${warning}\n`);
  });

  it('markdown: a section before the deletes, and the warning under the delete', () => {
    const md = renderMarkdown(p);
    const section = md.indexOf('#### :rotating_light: Data loss (1)');
    expect(section).toBeGreaterThan(0);
    expect(md.indexOf('#### Deletes (1)')).toBeGreaterThan(section);
    expect(md).toContain(`- **delete** \`Dataset/old-logs\`: **${warning}**\n`);
    expect(md).toContain(`  - :rotating_light: **${warning}**\n`);
  });

  it('json: the delete carries the warning', () => {
    const json = JSON.parse(renderJson(p)) as { changes: { kind: string; action: string; warning?: string }[] };
    expect(json.changes.filter((c) => c.warning !== undefined)).toEqual([expect.objectContaining({ kind: 'Dataset', action: 'delete', warning })]);
  });

  it('says nothing of data loss when no change destroys data', () => {
    expect(renderText(mixedPlan(), { color: false })).not.toContain('Data loss');
    expect(renderMarkdown(mixedPlan())).not.toContain('Data loss');
  });
});
