// npm run bench -- daemon: `wsync run` as a real process against the emulator.
// - edit-to-write latency over 50 single-file edits (the file written -> the last API write confirmed),
//   default debounce (200 ms) included;
// - CPU time used while idle for 60 s (WSYNC_BENCH_IDLE_SECONDS to shorten), watching 10,000 resources;
// - RSS with 10,000 resources loaded (after the first reconcile, and the peak).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile } from './lib/measure.mjs';
import { generateWorkspace, writeWorkspace } from './lib/workspace.mjs';

const TOKEN = 'bench-admin-token';
const EDITS = 50;
const IDLE_SECONDS = Number(process.env.WSYNC_BENCH_IDLE_SECONDS ?? 60);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A spawned `wsync run` whose JSON log lines are collected. */
function startDaemon(root, args, env) {
  const child = spawn(process.execPath, [join(root, 'bin', 'wsync.js'), 'run', ...args, '--listen', '127.0.0.1:0', '--log-format', 'json'], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  let stderr = '';
  let buffer = '';
  let exited = null;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        lines.push(JSON.parse(text));
      } catch {
        lines.push({ msg: text });
      }
    }
  });
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise((resolve) => child.on('exit', (code) => resolve((exited = code))));
  return {
    child,
    lines,
    async waitFor(pred, from = 0, timeoutMs = 120_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.slice(from).find(pred);
        if (found) return found;
        if (exited !== null) throw new Error(`daemon exited ${exited}: ${stderr.slice(0, 2000)}`);
        if (Date.now() > end) throw new Error(`timed out; last lines: ${lines.slice(-5).map((l) => JSON.stringify(l)).join('\n')}`);
        await sleep(5);
      }
    },
    async stop() {
      child.kill('SIGTERM');
      const code = await Promise.race([done, sleep(15_000).then(() => 'timeout')]);
      if (code === 'timeout') child.kill('SIGKILL');
      return code;
    },
  };
}

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process in seconds, from /proc (Linux). */
function cpuSeconds(pid, ticks) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

function memoryMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function monitorDoc(name, threshold) {
  return JSON.stringify({
    apiVersion: 'wsync/v1',
    kind: 'Monitor',
    metadata: { name },
    spec: {
      type: 'Threshold',
      aplQuery: "['app'] | where status >= 500 | summarize count() by bin_auto(_time)",
      operator: 'Above',
      threshold,
      intervalMinutes: 5,
      rangeMinutes: 10,
      notifiers: ['bench-email'],
    },
  });
}

async function editLatency(root, url, work) {
  const dir = join(work, 'small');
  mkdirSync(dir, { recursive: true });
  const notifier = { apiVersion: 'wsync/v1', kind: 'Notifier', metadata: { name: 'bench-email' }, spec: { properties: { email: { emails: ['a@example.com'] } } } };
  writeFileSync(join(dir, 'notifiers.yaml'), JSON.stringify(notifier) + '\n');
  // Twenty files of five monitors each; every edit changes one monitor in one file.
  for (let f = 0; f < 20; f++) {
    const docs = Array.from({ length: 5 }, (_, i) => monitorDoc(`m-${f}-${i}`, 1));
    writeFileSync(join(dir, `monitors-${f}.yaml`), docs.join('\n---\n') + '\n');
  }
  const d = startDaemon(root, [dir, '--resync', 'off'], { WSYNC_URL: url, WSYNC_TOKEN: TOKEN });
  try {
    await d.waitFor((l) => l.msg === 'reconcile' && l.result === 'applied');
    const latencies = [];
    for (let i = 0; i < EDITS; i++) {
      const f = i % 20;
      const docs = Array.from({ length: 5 }, (_, k) => monitorDoc(`m-${f}-${k}`, k === i % 5 ? 100 + i : 1));
      const mark = d.lines.length;
      const t0 = Date.now();
      writeFileSync(join(dir, `monitors-${f}.yaml`), docs.join('\n---\n') + '\n');
      const summary = await d.waitFor((l) => l.msg === 'reconcile' && l.trigger === 'change', mark);
      if (summary.result !== 'applied' || summary.updated < 1) throw new Error(`edit ${i}: ${JSON.stringify(summary)}`);
      const writes = d.lines.slice(mark).filter((l) => l.msg === 'change' && l.outcome === 'done');
      const last = Math.max(...writes.map((l) => Date.parse(l.time)));
      latencies.push(last - t0);
      // Let the edits be separate events, not one coalesced burst.
      await sleep(50);
    }
    return latencies;
  } finally {
    await d.stop();
  }
}

async function loaded(root, url, work, api) {
  const workspace = generateWorkspace();
  await api('POST', '/_emulator/seed', workspace.seed);
  const dir = join(work, 'large');
  const stateDir = join(work, 'large-state');
  writeWorkspace(dir, stateDir, workspace);
  const d = startDaemon(root, [dir, '--state-dir', stateDir, '--resync', 'off'], { WSYNC_URL: url, WSYNC_TOKEN: TOKEN });
  try {
    const first = await d.waitFor((l) => l.msg === 'reconcile', 0, 300_000);
    if (first.result !== 'applied') throw new Error(`first reconcile of ${workspace.count}: ${JSON.stringify(first)}`);
    await sleep(1000);
    const pid = d.child.pid;
    const afterFirst = memoryMb(pid);
    const ticks = clockTicks();
    const cpu0 = cpuSeconds(pid, ticks);
    const t0 = performance.now();
    await sleep(IDLE_SECONDS * 1000);
    const cpu1 = cpuSeconds(pid, ticks);
    const wall = (performance.now() - t0) / 1000;
    const afterIdle = memoryMb(pid);
    return { count: workspace.count, firstMs: first.duration_ms, afterFirst, afterIdle, idleCpuPercent: ((cpu1 - cpu0) / wall) * 100, wall };
  } finally {
    await d.stop();
  }
}

export default async function bench({ root, dist }) {
  const { startEmulator } = await import(pathToFileURL(join(dist, 'emulator', 'index.js')).href);
  const emulator = await startEmulator({ port: 0, token: TOKEN });
  const work = mkdtempSync(join(tmpdir(), 'wsync-bench-daemon-'));
  const api = async (method, path, body) => {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  };
  try {
    const latencies = await editLatency(root, emulator.url, work);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const big = await loaded(root, emulator.url, work, api);
    return {
      rows: [
        { name: `edit -> last write applied, p50 (${EDITS} edits, debounce 200 ms)`, value: p50, unit: 'ms', target: '< 500', ok: p50 < 500 },
        { name: `edit -> last write applied, p95 (${EDITS} edits)`, value: p95, unit: 'ms', target: '< 1000', ok: p95 < 1000 },
        { name: `first reconcile of ${big.count} resources (no-op)`, value: big.firstMs, unit: 'ms', target: '', ok: true },
        {
          name: `CPU while idle ${Math.round(big.wall)} s, ${big.count} resources watched`,
          value: big.idleCpuPercent,
          unit: '% of a core',
          target: '< 1',
          ok: big.idleCpuPercent < 1,
        },
        { name: `RSS with ${big.count} resources loaded`, value: big.afterIdle.rss, unit: 'MB', target: '< 300', ok: big.afterIdle.rss < 300 },
        { name: `peak RSS with ${big.count} resources (first reconcile)`, value: big.afterIdle.peak, unit: 'MB', target: '< 300', ok: big.afterIdle.peak < 300 },
      ],
    };
  } finally {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}
