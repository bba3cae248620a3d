// A dashboard's diffs as a reviewer reads them: the document's own fields, then one group per chart
// (added with its fields, removed, or which of its fields changed), then the layout in a few lines.
// Built from the field diffs only (keyed by chart id, see KindModule.keyedArrays), so it shows no
// value the diffs do not carry and nothing of a sensitive diff.
import type { DiffGroup, FieldDiff, JsonValue } from '../core/types.js';

const DOCUMENT = 'dashboard.';
const CHARTS = 'dashboard.charts[';
const LAYOUT = 'dashboard.layout[';
const CELL_FIELDS = ['x', 'y', 'w', 'h'];

interface ItemDiff {
  key: string;
  /** The path inside the item, '' for the item as a whole. */
  rest: string;
  diff: FieldDiff;
}

/** `[errors].query.apl` -> errors and `query.apl`; `["a.b"]` -> a.b. Undefined when not an item path. */
function splitItem(afterBracket: string): { key: string; rest: string } | undefined {
  let key: string;
  let end: number;
  if (afterBracket.startsWith('"')) {
    const close = afterBracket.search(/(?<!\\)"\]/);
    if (close < 0) return undefined;
    try {
      key = JSON.parse(afterBracket.slice(0, close + 1)) as string;
    } catch {
      return undefined;
    }
    end = close + 2;
  } else {
    const close = afterBracket.indexOf(']');
    if (close < 0) return undefined;
    key = afterBracket.slice(0, close);
    end = close + 1;
  }
  const rest = afterBracket.slice(end);
  if (rest !== '' && !rest.startsWith('.') && !rest.startsWith('[')) return undefined;
  return { key, rest: rest.startsWith('.') ? rest.slice(1) : rest };
}

function itemDiff(diff: FieldDiff, prefix: string): ItemDiff | undefined {
  if (!diff.path.startsWith(prefix)) return undefined;
  const split = splitItem(diff.path.slice(prefix.length));
  return split ? { ...split, diff } : undefined;
}

function relative(diff: FieldDiff, path: string): FieldDiff {
  return { ...diff, path };
}

/** The value a field of an item had (`before`) or gets (`after`), when its diff shows it. */
function valueOf(items: readonly ItemDiff[], field: string, side: 'before' | 'after'): JsonValue | undefined {
  const found = items.find((item) => item.rest === field && !item.diff.sensitive);
  return found?.diff[side];
}

/**
 * Added or removed as a whole: the diffs of an item are walked field by field, and the field that
 * names it (`id`, `i`) appears or disappears only with the item itself.
 */
function wholeStatus(items: readonly ItemDiff[], keyField: string): 'added' | 'removed' | 'changed' {
  const key = items.find((item) => item.rest === keyField && !item.diff.sensitive)?.diff;
  if (key?.before === undefined && key?.after !== undefined) return 'added';
  if (key?.after === undefined && key?.before !== undefined) return 'removed';
  return 'changed';
}

function typeText(value: JsonValue | undefined): string {
  return typeof value === 'string' ? ` (${value})` : '';
}

function groupByKey(items: readonly ItemDiff[]): Map<string, ItemDiff[]> {
  const out = new Map<string, ItemDiff[]>();
  for (const item of items) out.set(item.key, [...(out.get(item.key) ?? []), item]);
  return out;
}

function chartGroup(key: string, items: readonly ItemDiff[]): DiffGroup {
  const status = wholeStatus(items, 'id');
  const fields = items.filter((item) => item.rest !== 'id' || status === 'changed').map((item) => relative(item.diff, item.rest));
  if (status === 'added') return { title: `chart ${key}${typeText(valueOf(items, 'type', 'after'))}`, status, diffs: fields };
  if (status === 'removed') return { title: `chart ${key}${typeText(valueOf(items, 'type', 'before'))}`, status, diffs: [] };
  return { title: `chart ${key}`, status, diffs: fields };
}

function valueText(value: JsonValue | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

/** One line per layout cell: placed (where, how large), removed, or which of its numbers moved. */
function layoutNotes(items: readonly ItemDiff[]): string[] {
  const notes: string[] = [];
  for (const [key, cellItems] of groupByKey(items)) {
    const status = wholeStatus(cellItems, 'i');
    const at = (field: string): string => valueText(valueOf(cellItems, field, 'after'));
    if (cellItems.some((item) => item.diff.sensitive)) notes.push(`${key}: (sensitive value changed)`);
    else if (status === 'added') notes.push(`${key}: placed at x ${at('x')}, y ${at('y')}, ${at('w')}×${at('h')}`);
    else if (status === 'removed') notes.push(`${key}: removed`);
    else {
      const ordered = [...cellItems].sort((a, b) => rank(a.rest) - rank(b.rest));
      notes.push(`${key}: ${ordered.map(({ rest, diff }) => `${rest} ${valueText(diff.before)} -> ${valueText(diff.after)}`).join(', ')}`);
    }
  }
  return notes;
}

/** x, y, w, h first, in that order; then the rest. */
function rank(field: string): number {
  const i = CELL_FIELDS.indexOf(field);
  return i < 0 ? CELL_FIELDS.length : i;
}

export function outlineDashboard(diffs: readonly FieldDiff[]): DiffGroup[] {
  const documentDiffs: FieldDiff[] = [];
  const charts: ItemDiff[] = [];
  const cells: ItemDiff[] = [];
  for (const diff of diffs) {
    const chart = itemDiff(diff, CHARTS);
    const cell = chart ? undefined : itemDiff(diff, LAYOUT);
    if (chart) charts.push(chart);
    else if (cell) cells.push(cell);
    else documentDiffs.push(relative(diff, diff.path.startsWith(DOCUMENT) ? diff.path.slice(DOCUMENT.length) : diff.path));
  }
  const groups: DiffGroup[] = [];
  if (documentDiffs.length > 0) groups.push({ title: 'dashboard', status: 'changed', diffs: documentDiffs });
  for (const [key, items] of groupByKey(charts)) groups.push(chartGroup(key, items));
  if (cells.length > 0) groups.push({ title: 'layout', status: 'changed', diffs: [], notes: layoutNotes(cells) });
  return groups;
}
