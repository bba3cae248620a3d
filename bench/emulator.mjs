// Emulator benchmark: a list of 10,000 monitors (target < 100 ms) and simple requests per second
// over keep-alive (target >= 2,000/s). The emulator runs in its own process (one core, as in use);
// this process only generates load.
//
//   node bench/emulator.mjs            (after npm run build)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool, request } from 'undici';

const TOKEN = 'bench-admin-token';
const MONITORS = 10_000;
const LIST_RUNS = 15;
const LOAD_SECONDS = 3;
const IN_FLIGHT = 32;

function startEmulatorProcess(dist) {
  const entry = pathToFileURL(path.join(dist, 'emulator/index.js')).href;
  const script =
    `const { startEmulator } = await import(${JSON.stringify(entry)});` +
    `const emulator = await startEmulator({ port: 0, token: ${JSON.stringify(TOKEN)} });` +
    `console.log(emulator.url);` +
    `process.on('SIGTERM', () => emulator.close().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  return { child, url };
}

async function json(url, method = 'GET', body) {
  const response = await request(url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function measureList(base) {
  const times = [];
  let count = 0;
  for (let run = 0; run < LIST_RUNS + 2; run += 1) {
    const started = performance.now();
    const response = await request(`${base}/v2/monitors`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await response.body.text();
    const elapsed = performance.now() - started;
    count = JSON.parse(text).length;
    if (run >= 2) times.push(elapsed); // the first two warm the caches and the JIT
  }
  return { ms: median(times), count };
}

async function measureThroughput(base, path) {
  const pool = new Pool(base, { connections: IN_FLIGHT, pipelining: 1 });
  const deadline = performance.now() + LOAD_SECONDS * 1000;
  let completed = 0;
  let failed = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const response = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } });
      await response.body.dump();
      if (response.statusCode === 200) completed += 1;
      else failed += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { perSecond: completed / seconds, failed };
}

export default async function bench({ dist }) {
  const { child, url } = startEmulatorProcess(dist);
  try {
    const base = await url;
    const monitors = Array.from({ length: MONITORS }, (_, index) => ({
      name: `bench-monitor-${index}`,
      type: 'Threshold',
      aplQuery: `['http-logs'] | where status >= 500 and path == "/api/${index}" | summarize count() by bin_auto(_time)`,
      operator: 'Above',
      threshold: index % 100,
      intervalMinutes: 5,
      rangeMinutes: 10,
      description: 'seeded by bench/emulator.mjs',
    }));
    await json(`${base}/_emulator/seed`, 'POST', { monitors });
    const list = await measureList(base);
    if (list.count !== MONITORS) throw new Error(`expected ${MONITORS} monitors, the list had ${list.count}`);
    const [first] = await json(`${base}/v2/monitors`);
    const throughput = await measureThroughput(base, `/v2/monitors/${first.id}`);
    return {
      rows: [
        {
          name: 'emulator: GET /v2/monitors with 10,000 monitors (median)',
          value: Number(list.ms.toFixed(1)),
          unit: 'ms',
          target: '< 100',
          ok: list.ms < 100,
        },
        {
          name: `emulator: GET /v2/monitors/{id} over keep-alive (${IN_FLIGHT} in flight, ${LOAD_SECONDS} s)`,
          value: Math.round(throughput.perSecond),
          unit: 'requests/s',
          target: '>= 2000',
          ok: throughput.perSecond >= 2000 && throughput.failed === 0,
        },
      ],
    };
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
  const { rows } = await bench({ dist });
  for (const row of rows) console.log(`${row.ok ? 'ok  ' : 'FAIL'} ${row.name}: ${row.value} ${row.unit} (target ${row.target})`);
  process.exitCode = rows.every((row) => row.ok) ? 0 : 1;
}
