// `npm run bench -- scale`: issue #12's table. For both tree shapes (bench/lib/trees.mjs) at 1k, 10k
// and 50k resources: the floor (a node process parsing the same files with js-yaml 4 `loadAll`),
// `wsync validate` and a no-op `wsync plan` against the emulator, each a whole process: wall time
// (median of 7 by default, interleaved so that noise falls on all alike), peak RSS (max of them) and
// the ratio to the floor measured in the same run. Targets apply at 10k. The CPU time ratios
// (user + system of the measured process) say the same with less noise on a shared machine.
// WSYNC_BENCH_SIZES=1000,10000 picks sizes; WSYNC_BENCH_SHAPES=example picks shapes;
// WSYNC_BENCH_RUNS=3 runs each fewer times (the median of 3 moved by 30 % between two runs on 2 shared cores).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { median, runNode, runWsync } from './lib/measure.mjs';
import { SHAPES, writeTree } from './lib/trees.mjs';

const RUNS = Number(process.env.WSYNC_BENCH_RUNS ?? 7);
const TOKEN = 'bench-admin-token';
const SIZES = (process.env.WSYNC_BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const SHAPES_RUN = (process.env.WSYNC_BENCH_SHAPES ?? SHAPES.join(',')).split(',');
const TARGET_SIZE = 10_000;
// Issue #28's goals at 10,000 resources, and the plan's memory at 50,000.
const TARGETS = { validateRatio: 1.5, validateMb: 120, planRatio: 3, planMb: 160, bigPlanMb: 250 };
const BIG_SIZE = 50_000;
const FLOOR = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'floor.mjs');

/** Seeds in parts: the emulator takes at most 10 MiB per request, and a seed adds to what is there. */
async function seedEmulator(url, seed) {
  const { monitors = [], ...rest } = seed;
  await seedOnce(url, rest);
  for (let i = 0; i < monitors.length; i += 10_000) await seedOnce(url, { monitors: monitors.slice(i, i + 10_000) });
}

async function seedOnce(url, seed) {
  const res = await request(`${url}/_emulator/seed`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(seed),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`seed: ${res.statusCode} ${text.slice(0, 300)}`);
}

function checked(run, what) {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}: ${run.stdout.slice(-800)} ${run.stderr.slice(-800)}`);
  return run;
}

/** Floor, validate and no-op plan of one tree, RUNS times each, interleaved. */
async function measureTree(root, dist, shape, size) {
  const { startEmulator } = await import(pathToFileURL(join(dist, 'emulator', 'index.js')).href);
  const work = mkdtempSync(join(tmpdir(), `wsync-bench-scale-${shape}-`));
  const emulator = await startEmulator({ port: 0, token: TOKEN });
  try {
    const dir = join(work, 'tree');
    const stateDir = join(work, 'state');
    const { seed, resources } = writeTree(shape, size, dir, stateDir);
    await seedEmulator(emulator.url, seed);
    // 50k resources are past the default tree limits (15,000 resources, 8 MiB): raised for all sizes alike.
    const limits = { WSYNC_MAX_RESOURCES: '200000', WSYNC_MAX_INPUT_BYTES: '256MiB' };
    const env = { WSYNC_URL: emulator.url, WSYNC_TOKEN: TOKEN, ...limits };
    // The first read of a fresh tree measures the disk, not the parse.
    checked(await runNode(root, FLOOR, [dir]), 'floor');
    const runs = { floor: [], validate: [], plan: [] };
    for (let i = 0; i < RUNS; i++) {
      runs.floor.push(checked(await runNode(root, FLOOR, [dir]), 'floor'));
      runs.validate.push(checked(await runWsync(root, ['validate', dir], limits), 'validate'));
      runs.plan.push(checked(await runWsync(root, ['plan', dir, '--state-dir', stateDir, '--detailed-exitcode'], env), 'plan (not a no-op?)'));
    }
    const of = (list) => ({
      ms: median(list.map((r) => r.wallMs)),
      cpuMs: median(list.map((r) => r.cpuMs)),
      mb: Math.max(...list.map((r) => r.maxRssMb)),
    });
    return { shape, size, resources, floor: of(runs.floor), validate: of(runs.validate), plan: of(runs.plan) };
  } finally {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function planMemoryTarget(m) {
  if (m.size === TARGET_SIZE) return { target: `< ${TARGETS.planMb}`, ok: m.plan.mb < TARGETS.planMb };
  if (m.size === BIG_SIZE) return { target: `< ${TARGETS.bigPlanMb}`, ok: m.plan.mb < TARGETS.bigPlanMb };
  return {};
}

function rowsOf(m) {
  const label = `${m.shape} ${m.size}`;
  const at = m.size === TARGET_SIZE;
  const target = (text, ok) => (at ? { target: text, ok } : {});
  const validateRatio = m.validate.ms / m.floor.ms;
  const planRatio = m.plan.ms / m.floor.ms;
  return [
    { name: `${label}: floor (js-yaml loadAll) wall`, value: Math.round(m.floor.ms), unit: 'ms' },
    { name: `${label}: floor peak RSS`, value: Math.round(m.floor.mb), unit: 'MB' },
    { name: `${label}: floor CPU (user + system)`, value: Math.round(m.floor.cpuMs), unit: 'ms' },
    { name: `${label}: validate wall`, value: Math.round(m.validate.ms), unit: 'ms' },
    { name: `${label}: validate / floor`, value: validateRatio, unit: 'x', ...target(`< ${TARGETS.validateRatio}`, validateRatio < TARGETS.validateRatio) },
    { name: `${label}: validate CPU / floor CPU`, value: m.validate.cpuMs / m.floor.cpuMs, unit: 'x' },
    { name: `${label}: validate peak RSS`, value: Math.round(m.validate.mb), unit: 'MB', ...target(`< ${TARGETS.validateMb}`, m.validate.mb < TARGETS.validateMb) },
    { name: `${label}: no-op plan wall`, value: Math.round(m.plan.ms), unit: 'ms' },
    { name: `${label}: no-op plan / floor`, value: planRatio, unit: 'x', ...target(`< ${TARGETS.planRatio}`, planRatio < TARGETS.planRatio) },
    { name: `${label}: no-op plan CPU / floor CPU (wsync's process only)`, value: m.plan.cpuMs / m.floor.cpuMs, unit: 'x' },
    { name: `${label}: no-op plan peak RSS`, value: Math.round(m.plan.mb), unit: 'MB', ...planMemoryTarget(m) },
  ];
}

export default async function bench({ root, dist }) {
  const load = loadavg()[0];
  const rows = [];
  for (const shape of SHAPES_RUN) {
    for (const size of SIZES) {
      process.stderr.write(`  scale: ${shape} ${size} ...\n`);
      rows.push(...rowsOf(await measureTree(root, dist, shape, size)));
    }
  }
  rows.push({ name: 'load average (1 min) when the runs started', value: Math.round(load * 100) / 100, unit: '' });
  return { rows };
}

// `node bench/scale.mjs` runs it alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const result = await bench({ root, dist: join(root, 'dist') });
  for (const row of result.rows) {
    const value = typeof row.value === 'number' ? Math.round(row.value * 100) / 100 : row.value;
    console.log(`${row.ok === false ? 'FAIL' : 'ok  '} ${row.name}: ${value} ${row.unit}${row.target ? ` (target ${row.target})` : ''}`);
  }
}
