#!/usr/bin/env node
// The CLI's bundle, made by `npm run build` (scripts/bundle.mjs) from tsc's dist/cli/main.js.
import { mainOfProcess } from '../dist/bundle/wsync.js';

// A reader that stopped early (`wsync plan --help | head`) closed the pipe: stop as a Unix tool
// does, without a stack trace of the unhandled write error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

mainOfProcess(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`wsync: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
