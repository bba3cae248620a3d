// npm run bench -- apply: 1,000 creates as one `wsync apply` process against the emulator limited
// as the service is, per minute (docs' api-limits page): 600 requests in each window of a minute
// aligned to epoch minutes. The run starts one second into a minute, so its ~1,010 requests need
// two windows and cannot end before the second one opens: that is the floor (59 s). The result is
// the wall time against that floor, the most requests any window saw and how many drew a 429.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runWsync } from './lib/measure.mjs';

const TOKEN = 'bench-admin-token';
const CREATES = 1000;
const RATE_PER_MINUTE = 600;
const WINDOW_MS = 60_000;

/** Waits until `offsetMs` into the next minute, so every run meets the windows alike. */
async function startOfMinute(offsetMs) {
  const now = Date.now();
  const at = Math.ceil(now / WINDOW_MS) * WINDOW_MS + offsetMs;
  await new Promise((resolve) => setTimeout(resolve, at - now));
}

async function hook(url, method, path) {
  const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** 800 notifiers and 200 monitors (each naming a notifier created in the same run). */
function writeTree(dir) {
  const notifiers = [];
  const monitors = [];
  for (let i = 0; i < 800; i++) {
    notifiers.push({
      apiVersion: 'wsync/v1',
      kind: 'Notifier',
      metadata: { name: `bench-notifier-${i}` },
      spec: { properties: { email: { emails: [`team-${i % 50}@example.com`] } } },
    });
  }
  for (let i = 0; i < CREATES - 800; i++) {
    monitors.push({
      apiVersion: 'wsync/v1',
      kind: 'Monitor',
      metadata: { name: `bench-monitor-${i}` },
      spec: {
        type: 'Threshold',
        aplQuery: "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)",
        operator: 'Above',
        threshold: i,
        intervalMinutes: 5,
        rangeMinutes: 10,
        notifiers: [`bench-notifier-${i}`],
      },
    });
  }
  const write = (file, docs) => {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), docs.map((d) => JSON.stringify(d)).join('\n---\n') + '\n');
  };
  for (let f = 0; f < 8; f++) write(`notifiers/n-${f}.yaml`, notifiers.slice(f * 100, (f + 1) * 100));
  for (let f = 0; f < 2; f++) write(`monitors/m-${f}.yaml`, monitors.slice(f * 100, (f + 1) * 100));
}

export default async function bench({ root, dist }) {
  const { startEmulator } = await import(pathToFileURL(join(dist, 'emulator', 'index.js')).href);
  const emulator = await startEmulator({ port: 0, token: TOKEN, rateLimit: RATE_PER_MINUTE, rateWindowSeconds: WINDOW_MS / 1000, seedFile: join(root, 'scripts', 'demo-seed.json') });
  const work = mkdtempSync(join(tmpdir(), 'wsync-bench-apply-'));
  try {
    const dir = join(work, 'tree');
    writeTree(dir);
    await hook(emulator.url, 'DELETE', '/_emulator/requests');
    const env = { WSYNC_URL: emulator.url, WSYNC_TOKEN: TOKEN, NO_COLOR: '1' };
    await startOfMinute(1000);
    const startedAt = Date.now();
    const run = await runWsync(root, ['apply', dir, '--state-dir', join(work, 'state')], env);
    if (run.code !== 0) throw new Error(`apply exited ${run.code}: ${run.stderr.slice(0, 2000)} ${run.stdout.slice(-2000)}`);
    const summary = /Apply complete: (\d+) created/.exec(run.stdout);
    const created = Number(summary?.[1] ?? NaN);

    const log = (await hook(emulator.url, 'GET', '/_emulator/requests')).filter((r) => r.path.startsWith('/v2/'));
    const writes = log.filter((r) => r.method !== 'GET');
    const limited = log.filter((r) => r.status === 429).length;
    const first = Date.parse(writes[0]?.at ?? '');
    const last = Date.parse(writes[writes.length - 1]?.at ?? '');
    const writeSpanMs = last - first;
    const writesPerSecond = (writes.length / run.wallMs) * 1000;
    // The limit alone puts the last request in window k after the first one's (k = ceil(counted / limit) - 1).
    const counted = log.filter((r) => r.status !== 429).length;
    const firstWindow = Math.floor(Date.parse(log[0]?.at ?? '') / WINDOW_MS) * WINDOW_MS;
    const windowsAfter = Math.ceil(counted / RATE_PER_MINUTE) - 1;
    const floorMs = firstWindow + windowsAfter * WINDOW_MS - startedAt;
    const ratio = run.wallMs / floorMs;
    const perWindow = new Map();
    for (const r of log) {
      const w = Math.floor(Date.parse(r.at) / WINDOW_MS);
      if (r.status !== 429) perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
    }
    const busiest = Math.max(...perWindow.values());

    return {
      rows: [
        { name: 'objects created', value: created, unit: '', target: String(CREATES), ok: created === CREATES },
        { name: 'apply wall time (whole process)', value: run.wallMs / 1000, unit: 's', target: `<= ${((floorMs * 1.15) / 1000).toFixed(1)} (floor ${floorMs / 1000} s + 15%)`, ok: ratio <= 1.15 },
        { name: 'wall time / floor', value: ratio, unit: 'x', target: '<= 1.15', ok: ratio <= 1.15 },
        { name: 'rate floor (limit alone: start to the window the last request needs)', value: floorMs / 1000, unit: 's', target: '', ok: undefined },
        { name: 'requests counted in the busiest window', value: busiest, unit: 'requests', target: `<= ${RATE_PER_MINUTE} per minute`, ok: busiest <= RATE_PER_MINUTE },
        { name: 'windows used', value: perWindow.size, unit: '', target: String(windowsAfter + 1), ok: perWindow.size === windowsAfter + 1 },
        { name: 'writes per second (over the wall time)', value: writesPerSecond, unit: 'req/s', target: '', ok: undefined },
        { name: 'writes per second (first to last write)', value: ((writes.length - 1) / writeSpanMs) * 1000, unit: 'req/s', target: '', ok: undefined },
        { name: 'requests (all, incl. list calls and retries)', value: log.length, unit: 'requests', target: '', ok: undefined },
        { name: '429 responses', value: limited, unit: 'responses', target: '~ 0 (< 1% of requests)', ok: limited <= log.length * 0.01 },
        { name: 'apply peak RSS', value: run.maxRssMb, unit: 'MB', target: '', ok: undefined },
      ],
    };
  } finally {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}
