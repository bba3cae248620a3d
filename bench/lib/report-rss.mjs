// Preloaded with `node --import` into a measured process: writes its peak RSS (bytes) to a file at exit.
import { writeFileSync } from 'node:fs';

const out = process.env.WSYNC_BENCH_RSS_FILE;
if (out) {
  process.on('exit', () => {
    writeFileSync(out, String(process.resourceUsage().maxRSS * 1024));
  });
}
