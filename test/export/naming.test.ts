import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envPart, fileBaseNames, slugify } from '../../src/export/naming.js';
import { variableNames } from '../../src/export/secrets.js';
import { escapeInterpolation } from '../../src/export/workspace.js';
import { createSecretSources, interpolate } from '../../src/source/interpolate/interpolate.js';

describe('slugify', () => {
  it('keeps lower-case ASCII letters and digits, folds accents, joins the rest with single hyphens', () => {
    expect(slugify('checkout-errors')).toBe('checkout-errors');
    expect(slugify('Checkout Errors / 5xx')).toBe('checkout-errors-5xx');
    expect(slugify('Zoë’s Ünïcode')).toBe('zoe-s-unicode');
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    expect(slugify('日本語')).toBe('unnamed');
    expect(slugify('')).toBe('unnamed');
    expect(slugify('a'.repeat(200))).toHaveLength(64);
  });

  it('names environment variable parts in upper case', () => {
    expect(envPart('incident-webhook')).toBe('INCIDENT_WEBHOOK');
    expect(envPart('Teams — Plätform')).toBe('TEAMS_PLATFORM');
    expect(envPart('secretHeaders_X-Api-Key')).toBe('SECRETHEADERS_X_API_KEY');
    expect(envPart('🚀')).toBe('UNNAMED');
  });
});

describe('fileBaseNames', () => {
  const request = (key: string) => ({ identity: `Monitor\u0000${key}`, key });

  it('uses the bare slug for a key that is its own slug, a hashed slug otherwise', () => {
    const [plain, spaced, reserved] = fileBaseNames([request('payments'), request('Payments EU'), request('con')]);
    expect(plain).toBe('payments');
    expect(spaced).toMatch(/^payments-eu-[0-9a-f]{6}$/);
    expect(reserved).toMatch(/^con-[0-9a-f]{6}$/);
  });

  it('gives distinct names that do not depend on the order of the requests', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.string(), fc.constantFrom('a', 'A', 'a b', 'a-b', 'con', '', 'x/y')), { maxLength: 30 }), (keys) => {
        const names = fileBaseNames(keys.map(request));
        expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(keys.length);
        for (const name of names) expect(name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
        const reversed = fileBaseNames([...keys].reverse().map(request)).reverse();
        expect(reversed).toEqual(names);
      }),
    );
  });

  it('keeps a clash from renaming unrelated files', () => {
    const alone = fileBaseNames([request('Foo')]);
    const clashing = fileBaseNames([request('Foo'), request(`foo-${(alone[0] ?? '').slice(4)}`), request('bar')]);
    expect(clashing[2]).toBe('bar');
    expect(new Set(clashing).size).toBe(3);
  });
});

describe('variableNames', () => {
  it('gives distinct valid names, whatever the keys', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 20 }), (keys) => {
        const names = variableNames(
          keys.map((key) => ({ kind: 'Notifier', key, fieldPart: 'SLACKURL', identity: `Notifier\u0000${key}` })),
        );
        expect(new Set(names).size).toBe(keys.length);
        for (const name of names) expect(name).toMatch(/^WSYNC_NOTIFIER_[A-Z0-9_]+_SLACKURL(_[0-9A-F]+)?$/);
      }),
    );
  });
});

describe('escapeInterpolation', () => {
  it('is undone exactly by the source reader, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('$', '{', '}', 'e', 'n', 'v', ':', 'x', ' ') }), (text) => {
        const escaped = escapeInterpolation(text) as string;
        const read = interpolate(escaped, createSecretSources({ x: 'SECRET' }, undefined));
        expect(read.errors).toEqual([]);
        expect(read.secret).toBe(false);
        expect(read.value).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
