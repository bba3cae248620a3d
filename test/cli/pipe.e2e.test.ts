// A reader that stops early (`wsync plan --help | head`) closes the pipe: wsync stops writing
// quietly, with no stack trace of an unhandled EPIPE.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/paths.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-pipe-');

describe('wsync writing into a closed pipe', () => {
  it('stops quietly when the reader has gone', () => {
    const dir = scratch.tree({ 'stderr.txt': '' });
    const errFile = join(dir, 'stderr.txt');
    const out = execFileSync('sh', ['-c', `"${process.execPath}" "${BIN}" run --help 2>"${errFile}" | head -c 5`], { encoding: 'utf8' });
    expect(out).toBe('Usage');
    expect(readFileSync(errFile, 'utf8')).toBe('');
  });
});
