// Files must be UTF-8: a byte that is not would otherwise become U+FFFD and reach the API as part of
// a name ("caf\ufffd"), a different object from the one the author meant.

import { isUtf8 } from 'node:buffer';

const DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface InvalidAt {
  /** Bytes from the start of the file. */
  offset: number;
  line: number;
  column: number;
}

export type Decoded = { text: string } | { invalidAt: InvalidAt };

export function invalidUtf8Message(at: InvalidAt): string {
  return `not valid UTF-8: byte ${at.offset} (line ${at.line}) does not start a UTF-8 character; save the file as UTF-8`;
}

/** Decodes UTF-8 strictly; on failure, where the first invalid byte is (offset from 0, line and column from 1). */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  // isUtf8 checks as strictly as the fatal decoder, and the plain decode after it is the cheap one.
  if (isUtf8(bytes)) return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  try {
    return { text: DECODER.decode(bytes) };
  } catch {
    const found = invalidUtf8Offset(bytes);
    const offset = found < 0 ? bytes.length : found;
    let lineStart = 0;
    let line = 1;
    for (let i = 0; i < offset; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    // Everything before the offset is valid, so the line up to it decodes.
    const column = DECODER.decode(bytes.subarray(lineStart, offset)).length + 1;
    return { invalidAt: { offset, line, column } };
  }
}

/**
 * Offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF, no truncated sequence); -1 when there is none.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let continuation: number;
    let smallest: number;
    if (lead >= 0xc2 && lead <= 0xdf) [continuation, smallest] = [1, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [continuation, smallest] = [2, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [continuation, smallest] = [3, 0x10000];
    else return i;
    if (i + continuation >= bytes.length) return i;
    let codePoint = lead & (0x3f >> continuation);
    for (let k = 1; k <= continuation; k++) {
      const next = bytes[i + k] as number;
      if ((next & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < smallest || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return i;
    i += continuation + 1;
  }
  return -1;
}
