// The worker thread of a parallel read (share.ts): reads and processes the files the main thread
// has not claimed, from the last one back, and sends each result as soon as it is made.
import { parentPort } from 'node:worker_threads';
import { createSecretSources } from '../interpolate/interpolate.js';
import { processText } from '../process-file.js';
import { readText } from '../read/files.js';
import { CLAIMED_BY_MAIN, CLAIMED_BY_WORKER, UNCLAIMED, type ShareMessage, type WorkerMessage } from './claims.js';
import { textHash } from './text-hash.js';
import { toWire } from './wire.js';

// Files holding `${` are left to the main thread: nothing is interpolated here, no secret read.
const sources = createSecretSources({}, undefined, { asWritten: true });
/**
 * A larger file is left to the main thread too: parsed, it could take the worker past its heap,
 * and a heap near its limit collects garbage for seconds before it gives up.
 */
const MAX_FILE_BYTES = 1024 * 1024;

function processShare(share: ShareMessage): void {
  const flags = new Int32Array(share.flags);
  for (let index = share.files.length - 1; index >= 0; index--) {
    const was = Atomics.compareExchange(flags, index, UNCLAIMED, CLAIMED_BY_WORKER);
    if (was === CLAIMED_BY_MAIN) {
      // Claimed from the front: every file before it is the main thread's too.
      if (share.dynamic) break;
      continue;
    }
    const file = share.files[index] as (typeof share.files)[number];
    const content = readText(file);
    const message: WorkerMessage = { index };
    if ('text' in content && content.bytes <= MAX_FILE_BYTES && !content.text.includes('${')) {
      message.done = { hash: textHash(content.text), wire: toWire(processText(file.path, content.text, sources), content.text, file.path) };
    }
    parentPort?.postMessage(message);
  }
}

parentPort?.once('message', processShare);
