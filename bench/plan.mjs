// npm run bench -- plan: a no-op `wsync plan` of 10,000 objects as a whole process, against the
// per-object refresh a Terraform-style tool does (one GET per object, 10 at a time).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { median, runWsync } from './lib/measure.mjs';
import { generateWorkspace, writeWorkspace } from './lib/workspace.mjs';

const TOKEN = 'bench-admin-token';

async function api(url, method, path, body) {
  const res = await request(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

async function perObjectRefresh(url, paths, concurrency) {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const started = performance.now();
  let next = 0;
  async function worker() {
    while (next < paths.length) {
      const path = paths[next++];
      const res = await request(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` }, dispatcher: agent });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode}`);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - started;
  await agent.close();
  return ms;
}

export default async function bench({ root, dist }) {
  const { startEmulator } = await import(pathToFileURL(join(dist, 'emulator', 'index.js')).href);
  const emulator = await startEmulator({ port: 0, token: TOKEN });
  const work = mkdtempSync(join(tmpdir(), 'wsync-bench-plan-'));
  try {
    const workspace = generateWorkspace();
    await api(emulator.url, 'POST', '/_emulator/seed', workspace.seed);
    const dir = join(work, 'workspace');
    const stateDir = join(work, 'state');
    writeWorkspace(dir, stateDir, workspace);

    const env = { WSYNC_URL: emulator.url, WSYNC_TOKEN: TOKEN };
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const run = await runWsync(root, ['plan', dir, '--state-dir', stateDir, '--stats', '--detailed-exitcode'], env);
      if (run.code !== 0) throw new Error(`plan exited ${run.code}: ${run.stderr.slice(0, 2000)} ${run.stdout.slice(0, 2000)}`);
      runs.push(run);
    }
    const requests = Number(/stats: (\d+) API requests/.exec(runs[0].stderr)?.[1] ?? NaN);
    const wallMs = median(runs.map((r) => r.wallMs));
    const rssMb = Math.max(...runs.map((r) => r.maxRssMb));

    const paths = [
      ...workspace.seed.notifiers.map((o) => `/v2/notifiers/${o.id}`),
      ...workspace.seed.monitors.map((o) => `/v2/monitors/${o.id}`),
      ...workspace.seed.users.map((o) => `/v2/users/${o.id}`),
      ...workspace.seed.starredQueries.map((o) => `/v2/apl-starred-queries/${o.id}`),
      ...workspace.seed.vfields.map((o) => `/v2/vfields/${o.id}`),
    ];
    const refreshMs = await perObjectRefresh(emulator.url, paths, 10);

    // Loopback answers in microseconds; a remote API does not. The same comparison with 20 ms of
    // server latency per request shows what the request count means in practice.
    await api(emulator.url, 'POST', '/_emulator/faults', { latencyMs: [20, 20] });
    const remotePlan = await runWsync(root, ['plan', dir, '--state-dir', stateDir, '--detailed-exitcode'], env);
    if (remotePlan.code !== 0) throw new Error(`plan with latency exited ${remotePlan.code}: ${remotePlan.stderr.slice(0, 500)}`);
    const remoteRefreshMs = await perObjectRefresh(emulator.url, paths, 10);
    await api(emulator.url, 'POST', '/_emulator/faults', { latencyMs: [0, 0] });

    return {
      rows: [
        { name: 'objects', value: workspace.count, unit: '', target: '10000', ok: workspace.count === 10000 },
        { name: 'no-op plan wall time (median of 3)', value: wallMs, unit: 'ms', target: '< 3000', ok: wallMs < 3000 },
        { name: 'no-op plan API requests', value: requests, unit: 'requests', target: '~ list pages (<= 20)', ok: requests <= 20 },
        { name: 'no-op plan peak RSS', value: rssMb, unit: 'MB', target: '< 300', ok: rssMb < 300 },
        { name: 'per-object refresh (GET each, 10 at a time)', value: refreshMs, unit: 'ms', target: '', ok: undefined },
        { name: 'per-object refresh requests', value: paths.length, unit: 'requests', target: '', ok: undefined },
        { name: 'refresh time / plan time (loopback)', value: refreshMs / wallMs, unit: 'x', target: '', ok: undefined },
        { name: 'no-op plan wall time, 20 ms server latency', value: remotePlan.wallMs, unit: 'ms', target: '', ok: undefined },
        { name: 'per-object refresh, 20 ms server latency', value: remoteRefreshMs, unit: 'ms', target: '', ok: undefined },
        { name: 'refresh time / plan time (20 ms latency)', value: remoteRefreshMs / remotePlan.wallMs, unit: 'x', target: '> 1', ok: remoteRefreshMs > remotePlan.wallMs },
      ],
    };
  } finally {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}
