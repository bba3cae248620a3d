// readText reads a small file without a stat and a larger one after it: both must give the same
// text, the same UTF-8 error (line and column) and the same answer at the tree's byte budget.
import { describe, expect, it } from 'vitest';
import { readText, stampOf } from '../../../src/source/read/files.js';
import { useScratch } from '../../support/tree.js';

const scratch = useScratch('wsync-read-text-');

/** A file of `bytes` bytes: lines of `x`, an invalid byte on line 3 when asked. */
function fileOf(bytes: number, invalid = false): { path: string; absolute: string; content: Buffer } {
  const parts = invalid ? [Buffer.from('a: 1\nb: 2\nc: caf'), Buffer.from([0xe9, 0x0a])] : [Buffer.from('a: 1\nb: 2\nc: cafe\n')];
  const used = parts.reduce((n, p) => n + p.length, 0);
  const rest = Buffer.from(`# ${'x'.repeat(77)}\n`.repeat(Math.ceil((bytes - used) / 80))).subarray(0, bytes - used);
  const content = Buffer.concat([...parts, rest]);
  const dir = scratch.tree({ 'f.yaml': content });
  return { path: 'f.yaml', absolute: `${dir}/f.yaml`, content };
}

describe('readText', () => {
  for (const size of [100, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 300 * 1024]) {
    it(`reads a file of ${size} bytes whole, and refuses it past the budget`, () => {
      const file = fileOf(size);
      expect(readText(file)).toEqual({ text: file.content.toString('utf8'), bytes: size });
      expect(readText(file, size)).toEqual({ text: file.content.toString('utf8'), bytes: size });
      expect(readText(file, size - 1)).toEqual({ overLimit: size });
    });

    it(`stamps a file of ${size} bytes as stampOf does, from the handle it reads`, () => {
      const file = fileOf(size);
      const stamp = stampOf(file)?.stamp;
      expect(stamp).toEqual(expect.any(String));
      expect(readText(file, Number.POSITIVE_INFINITY, true)).toEqual({ text: file.content.toString('utf8'), bytes: size, stamp });
    });

    it(`names the line and column of an invalid byte in a file of ${size} bytes`, () => {
      const file = fileOf(size, true);
      expect(readText(file)).toEqual({
        error: 'not valid UTF-8: byte 16 (line 3) does not start a UTF-8 character; save the file as UTF-8',
        line: 3,
        column: 7,
      });
    });
  }

  it('keeps a byte order mark, as the strict decoder did', () => {
    const dir = scratch.tree({ 'bom.yaml': '\ufeffa: 1\n' });
    expect(readText({ path: 'bom.yaml', absolute: `${dir}/bom.yaml` })).toEqual({ text: '\ufeffa: 1\n', bytes: 8 });
  });

  it('says why a file cannot be read', () => {
    const dir = scratch.tree({});
    expect(readText({ path: 'gone.yaml', absolute: `${dir}/gone.yaml` })).toEqual({ error: 'cannot be read (ENOENT)' });
  });
});
