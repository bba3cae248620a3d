// `node bench/environments.mjs`: `wsync validate DIR` of the validate bench's tree (10,000
// resources in 500 files) with no environments, one, and two (#25 item 10: two within 2x of one).
// Every monitor's threshold is a ${var:}, and prod has an overlay of one monitor per team folder.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, runWsync } from './lib/measure.mjs';
import { generateTree } from './validate.mjs';

const RUNS = 3;
const SECRET_ENV = { BENCH_SLACK_URL: 'https://hooks.slack.example/services/T000/B000/XXXX', BENCH_PD_KEY: 'pd-routing-key-0000' };

async function useVariables(dir) {
  for (const team of await readdir(dir)) {
    if (!team.startsWith('team-')) continue;
    for (const file of await readdir(join(dir, team))) {
      const path = join(dir, team, file);
      await writeFile(path, (await readFile(path, 'utf8')).replace(/\n {2}threshold: \d+\n/g, '\n  threshold: ${var:threshold}\n'));
    }
  }
}

async function overlays(dir) {
  await mkdir(join(dir, 'environments', 'prod'), { recursive: true });
  const docs = Array.from({ length: 25 }, (_, i) => `apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: monitor-${i}\nspec:\n  rangeMinutes: 30\n`);
  await writeFile(join(dir, 'environments', 'prod', 'monitors.yaml'), docs.join('---\n'));
}

async function timed(root, dir, config) {
  if (config === undefined) await rm(join(dir, 'wsync.yaml'), { force: true });
  else await writeFile(join(dir, 'wsync.yaml'), config);
  const once = async () => {
    const run = await runWsync(root, ['validate', dir], SECRET_ENV);
    if (run.code !== 0) throw new Error(`wsync validate exited ${run.code}: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}`);
    return run;
  };
  await once();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  return { ms: median(runs.map((r) => r.wallMs)), rss: Math.max(...runs.map((r) => r.maxRssMb)), summary: runs[0].stdout.trim().split('\n').pop() };
}

export default async function bench({ root }) {
  const dir = await mkdtemp(join(tmpdir(), 'wsync-bench-environments-'));
  try {
    await generateTree(dir);
    const load = loadavg()[0];
    const none = await timed(root, dir, undefined);
    await useVariables(dir);
    await overlays(dir);
    const one = await timed(root, dir, 'environments:\n  prod:\n    vars: { threshold: 2 }\n');
    const two = await timed(root, dir, 'environments:\n  staging:\n    vars: { threshold: 5 }\n  prod:\n    vars: { threshold: 2 }\n');
    const ratio = two.ms / one.ms;
    return {
      rows: [
        { name: 'validate, no environments: wall time, median', value: Math.round(none.ms), unit: 'ms' },
        { name: 'validate, one environment: wall time, median', value: Math.round(one.ms), unit: 'ms' },
        { name: 'validate, two environments: wall time, median', value: Math.round(two.ms), unit: 'ms' },
        { name: 'two environments / one', value: Math.round(ratio * 100) / 100, unit: 'x', target: '< 2', ok: ratio < 2 },
        { name: 'validate, two environments: peak RSS', value: Math.round(two.rss), unit: 'MB' },
        { name: 'load average (1 min) when the runs started', value: Math.round(load * 100) / 100, unit: '' },
      ],
      summary: `${none.summary}\n${one.summary}\n${two.summary}`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const result = await bench({ root, dist: join(root, 'dist') });
  for (const row of result.rows) console.log(`${row.ok === false ? 'FAIL' : 'ok  '} ${row.name}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target})` : ''}`);
  console.log(result.summary);
}
