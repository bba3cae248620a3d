// Preloaded with `node --import` by tests about what a process loads: at exit, writes the files of
// the CommonJS modules it loaded (Node's require cache: the packages it required or imported, the
// validators compiled at build time), one a line, to the file WSYNC_TEST_LOADED_FILE names.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const out = process.env.WSYNC_TEST_LOADED_FILE;
const { cache } = createRequire(import.meta.url);
if (out) process.on('exit', () => writeFileSync(out, Object.keys(cache).join('\n')));
