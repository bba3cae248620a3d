import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonBody, type JsonBody } from '../../src/api/json-body.js';

/** The bytes of `text` in pieces cut at `cuts` (byte offsets, a multi-byte character may be cut in two). */
function chunked(bytes: Buffer, cuts: number[]): AsyncIterable<Buffer> {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) pieces.push(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return (async function* () {
    for (const piece of pieces) yield piece;
  })();
}

/** What the client made of a text read whole (before): the value, or that it is not JSON. */
function wholeReading(bytes: Buffer): { value: unknown } | 'not JSON' {
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = bytes.toString('utf8', bom ? 3 : 0);
  if (text.trim() === '') return { value: null };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return 'not JSON';
  }
}

function streamedReading(body: JsonBody): { value: unknown } | 'not JSON' {
  if ('value' in body) return { value: body.value };
  if ('notJson' in body) return 'not JSON';
  if (body.text.trim() === '') return { value: null };
  try {
    return { value: JSON.parse(body.text) as unknown };
  } catch {
    return 'not JSON';
  }
}

const space = fc.constantFrom('', ' ', '\n', '\r\n', '\t', '  ');
/** JSON text with whitespace around its punctuation (inside strings too: a raw line break there is not JSON), maybe a byte order mark. */
const jsonText = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.array(space, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.boolean())
  .map(([value, spaces, asArray, bom]) => {
    let i = 0;
    const text = JSON.stringify(asArray && !Array.isArray(value) ? [value, { a: value }, 'x,]"\\'] : value).replace(/[,:[\]{}]/g, (c) => `${spaces[i++ % spaces.length] ?? ''}${c}${spaces[i++ % spaces.length] ?? ''}`);
    return `${bom ? '\ufeff' : ''}${spaces[0] ?? ''}${text}${spaces[1] ?? ''}`;
  });
const cuts = fc.array(fc.nat(), { maxLength: 12 });

/** Each text of `texts`, read in chunks cut at random places, reads as JSON.parse reads it whole. */
async function readsAsWhole(texts: fc.Arbitrary<string>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(texts, cuts, async (text, at) => {
      const bytes = Buffer.from(text);
      expect(streamedReading(await readJsonBody(chunked(bytes, at)))).toEqual(wholeReading(bytes));
    }),
    { numRuns },
  );
}

describe('readJsonBody', () => {
  it('reads what JSON.parse reads of the whole text, however the bytes arrive', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), space, cuts, async (value, gap, at) => {
        const bytes = Buffer.from(`${gap}${JSON.stringify(value, null, gap === '' ? undefined : 1)}${gap}`);
        expect(streamedReading(await readJsonBody(chunked(bytes, at)))).toEqual(wholeReading(bytes));
      }),
      { numRuns: 400 },
    );
  });

  it('reads arrays with whitespace anywhere and a byte order mark as the whole text reads', async () => {
    await readsAsWhole(jsonText, 400);
  });

  it('refuses exactly what JSON.parse refuses, arrays broken anywhere included', async () => {
    const broken = fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat(), fc.constantFrom('', ',', ']', '}', '[', '"', '\\', ',,', 'x', ' ', '\u00e9')).map(([value, at, insert]) => {
      const text = JSON.stringify([value, value]);
      const i = at % (text.length + 1);
      return `${text.slice(0, i)}${insert}${text.slice(i)}`;
    });
    await readsAsWhole(broken, 1000);
  });

  it('reads lists of objects as the whole text reads, `},{` inside strings and nested lists of objects included', async () => {
    // A chunk is first cut at its last `},{` on a guess that JSON.parse checks: these put that
    // sequence where it is no top-level comma (in a string, between nested objects), broken or not.
    const tricky = fc.constantFrom('},{', '"},{"', '\\"},{', '}],[{', 'x');
    const item = fc.record({
      id: fc.string(),
      note: fc.tuple(fc.string(), tricky, fc.string()).map((parts) => parts.join('')),
      rows: fc.array(fc.record({ a: fc.jsonValue({ maxDepth: 2 }), b: tricky }), { maxLength: 4 }),
    });
    const list = fc.tuple(fc.array(item, { maxLength: 12 }), fc.constantFrom('', ',', ']', '}', '{', '"', 'x'), fc.nat(), fc.boolean()).map(([items, insert, at, broken]) => {
      const text = JSON.stringify(items);
      const i = at % (text.length + 1);
      return broken ? `${text.slice(0, i)}${insert}${text.slice(i)}` : text;
    });
    await readsAsWhole(list, 1000);
  });

  it('reads lists whose objects repeat their texts (equal texts are shared) as the whole text reads, a field named __proto__ included', async () => {
    const text = fc.constantFrom('usr_emulatoradmin00000', '2026-11-28T09:39:45.688Z', 'notify_0000000000000001', 'short', '', 'x'.repeat(11), '\u00e9t\u00e9 \u00e9t\u00e9 \u00e9t\u00e9');
    const key = fc.constantFrom('createdBy', 'createdAt', 'notifierIds', '__proto__', 'toString', 'n');
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.integer(), fc.constant(null), fc.record({ inner: text }));
    const items = fc.array(fc.array(fc.tuple(key, value), { maxLength: 6 }), { maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(items, cuts, async (list, at) => {
        // Built as JSON text: an object literal would take `__proto__` for its prototype.
        const json = `[${list.map((fields) => `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`).join(',')}]`;
        const bytes = Buffer.from(json);
        const read = streamedReading(await readJsonBody(chunked(bytes, at)));
        expect(read).toEqual(wholeReading(bytes));
        expect(JSON.stringify(read)).toBe(JSON.stringify(wholeReading(bytes)));
        const values = typeof read === 'object' && Array.isArray(read.value) ? (read.value as object[]) : [];
        for (const item of values) expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
      }),
      { numRuns: 300 },
    );
  });

  it.each(['[]', '[ ]', '[1,]', '[,1]', '[1,,2]', '[1}', '{"a":1]', '[1]]', '[1] x', '[1', '["a\\"]', '["a\\\\"]', '[[1],[2,[3]]]', '  [\n1 ,\t2\r\n] \n'])(
    'reads %j as JSON.parse does',
    async (text) => {
      for (let cut = 0; cut <= text.length; cut++) {
        const bytes = Buffer.from(text);
        expect(streamedReading(await readJsonBody(chunked(bytes, [cut])))).toEqual(wholeReading(bytes));
      }
    },
  );

  it('keeps of a long array that is not JSON only a start that quotes as the whole does', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: `mon_${i}`, name: `monitor ${i}` }));
    const text = `${JSON.stringify(items).slice(0, -1)},oops]`;
    const body = await readJsonBody(chunked(Buffer.from(text), Array.from({ length: 50 }, (_, i) => i * 16_384)));
    expect('notJson' in body).toBe(true);
    const start = 'notJson' in body ? body.notJson : '';
    expect(text.startsWith(start)).toBe(true);
    expect(start.length).toBeLessThan(text.length / 10);
    expect(start.replace(/\s+/g, ' ').trim().length).toBeGreaterThan(1025);
  });

  it('keeps the start of a text that is mostly whitespace until enough of it is not', async () => {
    const text = `[${' '.repeat(100_000)}${'x'.repeat(3000)}]`;
    const body = await readJsonBody(chunked(Buffer.from(text), Array.from({ length: 40 }, (_, i) => i * 4096)));
    const start = 'notJson' in body ? body.notJson : '';
    expect(text.startsWith(start)).toBe(true);
    expect(start.replace(/\s+/g, ' ').trim().length).toBeGreaterThan(1025);
  });

  it('gives the text of an answer that is not an array to be read whole', async () => {
    expect(await readJsonBody(chunked(Buffer.from(' {"a": [1, 2]}'), [1, 3]))).toEqual({ text: ' {"a": [1, 2]}' });
    expect(await readJsonBody(chunked(Buffer.from(''), []))).toEqual({ text: '' });
    expect(await readJsonBody(chunked(Buffer.from('\ufeff  '), [1, 2]))).toEqual({ text: '  ' });
  });
});
