// A large generated workspace: the seed for the emulator (wire shapes with fixed ids), the matching
// resource files, and the inventory that says wsync owns it all — so a plan of it is a true no-op.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

const hex = (n, width = 16) => n.toString(16).padStart(width, '0');

export function generateWorkspace({ notifiers = 2000, monitors = 6000, users = 500, queries = 1000, datasets = 10, vfieldsPerDataset = 50 } = {}) {
  const seed = { datasets: [], users: [], notifiers: [], monitors: [], vfields: [], starredQueries: [] };
  const files = new Map();
  const inventory = [];
  const push = (file, doc) => files.set(file, [...(files.get(file) ?? []), doc]);

  for (let d = 0; d < datasets; d++) seed.datasets.push({ name: `ds-${d}`, fields: [{ name: 'status', type: 'integer' }] });
  for (let u = 0; u < users; u++) {
    const email = `user${u}@example.com`;
    const id = `usr_${hex(u)}`;
    seed.users.push({ id, email, name: `User ${u}`, role: { id: 'user', name: 'User' } });
    push(`users/users-${Math.floor(u / 50)}.yaml`, { kind: 'User', metadata: { name: email }, spec: { name: `User ${u}`, role: 'user' } });
    inventory.push({ kind: 'User', key: email, id });
  }
  for (let n = 0; n < notifiers; n++) {
    const id = `notify_${hex(n)}`;
    const name = `notifier-${n}`;
    const properties = { email: { emails: [`team${n % 40}@example.com`] } };
    seed.notifiers.push({ id, name, properties });
    push(`notifiers/notifiers-${Math.floor(n / 100)}.yaml`, { kind: 'Notifier', metadata: { name }, spec: { properties } });
    inventory.push({ kind: 'Notifier', key: name, id });
  }
  for (let m = 0; m < monitors; m++) {
    const id = `mon_${hex(m)}`;
    const name = `monitor-${m}`;
    const a = m % notifiers;
    const b = (m * 7 + 3) % notifiers;
    const notifierNames = a === b ? [`notifier-${a}`] : [`notifier-${a}`, `notifier-${b}`];
    const spec = {
      type: 'Threshold',
      description: `Errors of service ${m}`,
      aplQuery: `['ds-${m % datasets}'] | where status >= 500 | summarize count() by bin_auto(_time)`,
      operator: 'Above',
      threshold: m % 100,
      intervalMinutes: 5,
      rangeMinutes: 10,
    };
    seed.monitors.push({ id, name, ...spec, notifierIds: notifierNames.map((x) => `notify_${hex(Number(x.split('-')[1]))}`) });
    push(`monitors/monitors-${Math.floor(m / 200)}.yaml`, { kind: 'Monitor', metadata: { name }, spec: { ...spec, notifiers: notifierNames } });
    inventory.push({ kind: 'Monitor', key: name, id });
  }
  for (let q = 0; q < queries; q++) {
    const id = `sq_${hex(q)}`;
    const name = `query-${q}`;
    const owner = q % users;
    const query = { apl: `['ds-${q % datasets}'] | take ${q + 1}` };
    seed.starredQueries.push({ id, name, kind: 'apl', who: `usr_${hex(owner)}`, dataset: `ds-${q % datasets}`, metadata: {}, query });
    push(`queries/queries-${Math.floor(q / 100)}.yaml`, {
      kind: 'StarredQuery',
      metadata: { name },
      spec: { owner: `user${owner}@example.com`, dataset: `ds-${q % datasets}`, query },
    });
    inventory.push({ kind: 'StarredQuery', key: `user${owner}@example.com/${name}`, id });
  }
  for (let d = 0; d < datasets; d++) {
    for (let v = 0; v < vfieldsPerDataset; v++) {
      const n = d * vfieldsPerDataset + v;
      const id = `vfld_${hex(n)}`;
      const name = `vf_${v}`;
      const spec = { dataset: `ds-${d}`, expression: `status * ${v}`, description: `virtual ${v}` };
      seed.vfields.push({ id, name, ...spec, type: '', unit: '' });
      push(`vfields/ds-${d}.yaml`, { kind: 'VirtualField', metadata: { name }, spec });
      inventory.push({ kind: 'VirtualField', key: `ds-${d}/${name}`, id });
    }
  }
  const count = inventory.length;
  return { seed, files, inventory, count };
}

/** Writes the files (block YAML, as people write it) and the inventory of a generated workspace. */
export function writeWorkspace(dir, stateDir, workspace) {
  for (const [file, docs] of workspace.files) {
    const path = join(dir, file);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, docs.map((doc) => stringify({ apiVersion: 'wsync/v1', ...doc }, { lineWidth: 0 })).join('---\n'));
  }
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, 'inventory.json'), JSON.stringify({ version: 1, entries: workspace.inventory }, null, 1));
}
