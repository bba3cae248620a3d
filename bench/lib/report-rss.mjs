// Preloaded with `node --import` into a measured process: writes its peak RSS (bytes) and the CPU
// time it used (user + system, microseconds) to a file at exit.
import { writeFileSync } from 'node:fs';

const out = process.env.WSYNC_BENCH_RSS_FILE;
if (out) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(out, `${usage.maxRSS * 1024} ${usage.userCPUTime + usage.systemCPUTime}`);
  });
}
