// npm run bench -- daemon-environments: one `wsync run --env staging --env prod` holding two
// workspaces of 10,000 resources each (two emulators, one tree), issue #25 item 10: an edit of a
// base file is reconciled in both, and each keeps the edit latency of one workspace alone
// (bench/daemon.mjs). Prints edit -> write confirmed per environment and the process's RSS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEBOUNCE_MS, editMonitor, memoryMb, startDaemon } from './daemon.mjs';
import { percentile } from './lib/measure.mjs';
import { generateWorkspace, writeWorkspace } from './lib/workspace.mjs';

const TOKEN = 'bench-admin-token';
const EDITS = Number(process.env.WSYNC_BENCH_EDITS ?? 30);
const ENVIRONMENTS = ['staging', 'prod'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function seeded(startEmulator, seed) {
  const emulator = await startEmulator({ port: 0, token: TOKEN });
  const res = await fetch(`${emulator.url}/_emulator/seed`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(seed),
  });
  if (res.status >= 300) throw new Error(`seed: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return emulator;
}

/** The time of the last confirmed write of `environment` since `mark`, once its reconcile of the edit is logged. */
async function confirmedAt(d, environment, mark, i) {
  const summary = await d.waitFor((l) => l.msg === 'reconcile' && l.trigger === 'change' && l.env === environment, mark);
  if (summary.result !== 'applied' || summary.updated < 1) throw new Error(`edit ${i} in ${environment}: ${JSON.stringify(summary)}`);
  const writes = d.lines.slice(mark).filter((l) => l.msg === 'change' && l.outcome === 'done' && l.env === environment);
  return Math.max(...writes.map((l) => Date.parse(l.time)));
}

export default async function bench({ root, dist }) {
  const { startEmulator } = await import(pathToFileURL(join(dist, 'emulator', 'index.js')).href);
  const workspace = generateWorkspace();
  const emulators = [];
  const work = mkdtempSync(join(tmpdir(), 'wsync-bench-environments-'));
  try {
    for (let i = 0; i < ENVIRONMENTS.length; i++) emulators.push(await seeded(startEmulator, workspace.seed));
    const dir = join(work, 'tree');
    const stateDir = join(work, 'state');
    for (const environment of ENVIRONMENTS) writeWorkspace(dir, join(stateDir, environment), workspace);
    writeFileSync(join(dir, 'wsync.yaml'), `environments:\n${ENVIRONMENTS.map((e) => `  ${e}:\n    vars: {}\n`).join('')}`);
    const env = Object.fromEntries(ENVIRONMENTS.flatMap((e, i) => [[`WSYNC_URL_${e.toUpperCase()}`, emulators[i].url], [`WSYNC_TOKEN_${e.toUpperCase()}`, TOKEN]]));
    const args = [dir, ...ENVIRONMENTS.flatMap((e) => ['--env', e]), '--state-dir', stateDir, '--resync', 'off', '--debounce', String(DEBOUNCE_MS)];
    const d = startDaemon(root, args, env);
    try {
      for (const environment of ENVIRONMENTS) {
        const first = await d.waitFor((l) => l.msg === 'reconcile' && l.env === environment, 0, 300_000);
        if (first.result !== 'applied') throw new Error(`first reconcile of ${environment}: ${JSON.stringify(first)}`);
      }
      const latencies = Object.fromEntries(ENVIRONMENTS.map((e) => [e, []]));
      for (let i = 0; i < EDITS; i++) {
        const mark = d.lines.length;
        const t0 = Date.now();
        editMonitor(workspace, dir, i);
        for (const environment of ENVIRONMENTS) latencies[environment].push((await confirmedAt(d, environment, mark, i)) - t0);
        await sleep(50);
      }
      await sleep(1000);
      const memory = memoryMb(d.child.pid);
      const at = `2 x ${workspace.count} resources`;
      return {
        rows: [
          ...ENVIRONMENTS.flatMap((e) => [
            // Compared with bench/daemon.mjs's one workspace at the same debounce (README, Performance).
            { name: `${e}: edit -> write confirmed, p50 (${EDITS} one-file edits, ${at}, debounce ${DEBOUNCE_MS} ms)`, value: percentile(latencies[e], 50), unit: 'ms' },
            { name: `${e}: edit -> write confirmed, p95`, value: percentile(latencies[e], 95), unit: 'ms' },
          ]),
          { name: `RSS with ${at}, after the edits`, value: memory.rss, unit: 'MB' },
          { name: `peak RSS with ${at}`, value: memory.peak, unit: 'MB' },
        ],
      };
    } finally {
      await d.stop();
    }
  } finally {
    for (const emulator of emulators) await emulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}
