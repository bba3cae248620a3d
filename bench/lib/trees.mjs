// The two tree shapes of issue #12, at any size: resource files, the emulator seed that holds the
// same objects live (wire shapes, fixed ids), and the inventory that says wsync owns them, so that
// `wsync plan` of the tree is a true no-op.
//
// - threshold: Threshold Monitors written compactly, 20 documents per file;
// - example: the README's example monitor (comments, an annotation) copied, 20 per file: more text
//   per resource, the heavier shape.
// Both reference notifiers declared in notifiers.yaml, so validate has nothing to warn about.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SHAPES = ['threshold', 'example'];
const PER_FILE = 20;
const NOTIFIERS = 10;

const hex = (n, width = 16) => n.toString(16).padStart(width, '0');
const notifierName = (n) => `oncall-${n}`;
const notifierId = (n) => `notify_${hex(n)}`;

const QUERY = "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)";

/** One monitor of a shape: its text (one YAML document) and its wire shape for the seed. */
function monitor(shape, i) {
  const notifier = i % NOTIFIERS;
  if (shape === 'example') {
    const name = `checkout-error-rate-${i}`;
    const text = [
      '# yaml-language-server: $schema=../schemas/monitor.json',
      'apiVersion: wsync/v1',
      'kind: Monitor',
      'metadata:',
      `  name: ${name}          # the natural key`,
      '  annotations:',
      '    wsync/prune: disabled            # optional per-object policy',
      'spec:',
      '  type: Threshold',
      `  aplQuery: "${QUERY}"`,
      '  operator: Above',
      '  threshold: 25',
      '  intervalMinutes: 5',
      '  rangeMinutes: 10',
      `  notifiers: [${notifierName(notifier)}]          # names of Notifiers, resolved to ids`,
      '',
    ].join('\n');
    const live = { name, type: 'Threshold', aplQuery: QUERY, operator: 'Above', threshold: 25, intervalMinutes: 5, rangeMinutes: 10 };
    return { name, text, live: { ...live, notifierIds: [notifierId(notifier)] } };
  }
  const name = `monitor-${i}`;
  const aplQuery = `['ds-${i % 10}'] | where status >= 500 | summarize count() by bin_auto(_time)`;
  const text = [
    'apiVersion: wsync/v1',
    'kind: Monitor',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  type: Threshold',
    `  description: Errors of service ${i}`,
    `  aplQuery: "${aplQuery}"`,
    '  operator: Above',
    `  threshold: ${i % 100}`,
    '  intervalMinutes: 5',
    '  rangeMinutes: 10',
    `  notifiers: [${notifierName(notifier)}]`,
    '',
  ].join('\n');
  const live = { name, type: 'Threshold', description: `Errors of service ${i}`, aplQuery, operator: 'Above', threshold: i % 100, intervalMinutes: 5, rangeMinutes: 10 };
  return { name, text, live: { ...live, notifierIds: [notifierId(notifier)] } };
}

/**
 * Writes `count` monitors of `shape` under `dir` (plus notifiers.yaml) and the inventory under
 * `stateDir`; returns the emulator seed and the number of resources.
 */
export function writeTree(shape, count, dir, stateDir) {
  if (!SHAPES.includes(shape)) throw new Error(`unknown tree shape ${shape}`);
  const seed = { datasets: [], notifiers: [], monitors: [] };
  const inventory = [];
  for (let d = 0; d < 10; d++) seed.datasets.push({ name: `ds-${d}`, fields: [{ name: 'status', type: 'integer' }] });
  seed.datasets.push({ name: 'checkout', fields: [{ name: 'status', type: 'integer' }] });
  const notifierDocs = [];
  for (let n = 0; n < NOTIFIERS; n++) {
    const properties = { email: { emails: [`team${n}@example.com`] } };
    seed.notifiers.push({ id: notifierId(n), name: notifierName(n), properties });
    inventory.push({ kind: 'Notifier', key: notifierName(n), id: notifierId(n) });
    notifierDocs.push(
      `apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: ${notifierName(n)}\nspec:\n  properties:\n    email:\n      emails: [team${n}@example.com]\n`,
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'notifiers.yaml'), notifierDocs.join('---\n'));
  for (let f = 0; f * PER_FILE < count; f++) {
    const docs = [];
    for (let i = f * PER_FILE; i < Math.min(count, (f + 1) * PER_FILE); i++) {
      const m = monitor(shape, i);
      docs.push(m.text);
      const id = `mon_${hex(i)}`;
      seed.monitors.push({ id, ...m.live });
      inventory.push({ kind: 'Monitor', key: m.name, id });
    }
    const folder = join(dir, `team-${f % 25}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `monitors-${String(f).padStart(4, '0')}.yaml`), docs.join('---\n'));
  }
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, 'inventory.json'), JSON.stringify({ version: 1, entries: inventory }, null, 1));
  return { seed, resources: count + NOTIFIERS };
}
