// Runs a command as a whole process and measures wall time and peak RSS.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'report-rss.mjs')).href;

/** `node --import report-rss bin/wsync.js ...args`; resolves with wall time, peak RSS and output. */
export function runWsync(root, args, env = {}) {
  return runNode(root, join(root, 'bin', 'wsync.js'), args, env);
}

/** `node --import report-rss SCRIPT ...args` as a whole process: wall time, CPU time, peak RSS and output. */
export function runNode(root, script, args, env = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'wsync-bench-rss-'));
  const rssFile = join(tmp, 'rss');
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', preload, script, ...args], {
      cwd: root,
      env: { ...process.env, ...env, WSYNC_BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      let maxRssBytes = NaN;
      let cpuMicros = NaN;
      try {
        [maxRssBytes, cpuMicros] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
      } catch {
        // the process died before its exit hook ran
      }
      rmSync(tmp, { recursive: true, force: true });
      resolve({ code, wallMs, cpuMs: cpuMicros / 1000, maxRssMb: maxRssBytes / (1024 * 1024), stdout, stderr });
    });
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
