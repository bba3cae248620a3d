import { describe, expect, it } from 'vitest';
import type { SourceLocation } from '../../../src/core/types.js';
import { locationsOnDemand } from '../../../src/source/parse/lazy-locations.js';
import { readOne } from '../helpers.js';

const at = (line: number, column: number): SourceLocation => ({ file: 'r.yaml', line, column });

describe('locations on demand', () => {
  it('are computed once, on first use, and then read like any record', () => {
    let computed = 0;
    const source = {
      locationsAt: (offset: number, start: SourceLocation) => {
        computed++;
        return { '': start, '/spec': at(offset, 1) };
      },
    };
    const locations = locationsOnDemand(source, 5, at(1, 1));
    expect(computed).toBe(0);
    expect(locations['/spec']).toEqual(at(5, 1));
    expect(Object.keys(locations)).toEqual(['', '/spec']);
    expect('/spec' in locations).toBe(true);
    expect({ ...locations }).toEqual({ '': at(1, 1), '/spec': at(5, 1) });
    expect(JSON.parse(JSON.stringify(locations))).toEqual({ '': at(1, 1), '/spec': at(5, 1) });
    expect(locations).toEqual({ '': at(1, 1), '/spec': at(5, 1) });
    expect(computed).toBe(1);
  });

  it('give a resource read on the fast path the positions the yaml path finds', () => {
    const text = ['apiVersion: wsync/v1', 'kind: Org', 'metadata:', '  name: acme', ''].join('\n');
    const [resource] = readOne(text).resources;
    expect(resource?.locations).toEqual({
      '': at(1, 1),
      '/apiVersion': at(1, 1),
      '/kind': at(2, 1),
      '/metadata': at(3, 1),
      '/metadata/name': at(4, 3),
    });
  });
});
