// Loaded with `node --import` before bin/wsync.js (CliOptions.nodeArgs: FAST_RETRY) by tests that
// provoke many retries: the client's backoff drops from 200 ms doubling up to 10 s to 1 ms doubling
// up to 20 ms, so a run with dozens of retries takes milliseconds instead of seconds. Everything
// else is the real CLI. A missing export fails the import, so a rename cannot silently slow a test.
import { DEFAULT_BACKOFF } from '../../dist/api/retry.js';

DEFAULT_BACKOFF.baseMs = 1;
DEFAULT_BACKOFF.capMs = 20;
