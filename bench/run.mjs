// `npm run bench [-- NAME...]`: runs bench/NAME.mjs (all when none named), prints a table and JSON.
// Each bench module exports `default async function ({ root, dist }) -> { rows: [{ name, value, unit, target, ok }] }`.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const dist = join(root, 'dist');
const available = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .map((f) => f.replace(/\.mjs$/, ''))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const name of wanted) {
  if (!available.includes(name)) {
    console.error(`unknown benchmark "${name}"; available: ${available.join(', ')}`);
    process.exit(1);
  }
}
const names = wanted.length > 0 ? wanted : available;

const results = [];
let failed = false;
for (const name of names) {
  const started = Date.now();
  process.stderr.write(`bench ${name} ...\n`);
  try {
    const mod = await import(pathToFileURL(join(here, `${name}.mjs`)).href);
    const { rows } = await mod.default({ root, dist });
    for (const row of rows) results.push({ bench: name, ...row });
  } catch (err) {
    failed = true;
    results.push({ bench: name, name: 'error', value: String(err?.message ?? err), unit: '', target: '', ok: false });
  }
  process.stderr.write(`bench ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const header = ['bench', 'metric', 'value', 'unit', 'target', 'ok'];
const table = results.map((r) => [
  r.bench,
  r.name,
  typeof r.value === 'number' ? String(Math.round(r.value * 100) / 100) : String(r.value),
  r.unit ?? '',
  r.target ?? '',
  r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table) console.log(line(row));
console.log();
console.log(JSON.stringify({ machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, results }, null, 2));
process.exit(failed ? 1 : 0);
