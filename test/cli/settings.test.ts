import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/api/errors.js';
import { resolveSettings } from '../../src/cli/settings.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-settings-');
const dirWith = (config?: string): string => scratch.tree(config === undefined ? {} : { 'wsync.yaml': config });

describe('settings: flags, then environment, then wsync.yaml', () => {
  it('takes the file when nothing else says', () => {
    const dir = dirWith('url: http://127.0.0.1:9/\norgId: from-file\nstateDir: state\ntimeoutMs: 1234\n');
    const s = resolveSettings(dir, {}, { WSYNC_TOKEN: 't' });
    expect(s.connection.url).toBe('http://127.0.0.1:9/');
    expect(s.connection.orgId).toBe('from-file');
    expect(s.connection.timeoutMs).toBe(1234);
    expect(s.stateDir).toBe(join(dir, 'state'));
  });

  it('lets the environment win over the file, and flags over both', () => {
    const dir = dirWith('url: http://127.0.0.1:9/\norgId: from-file\n');
    const env = { WSYNC_TOKEN: 't', WSYNC_ORG_ID: 'from-env', WSYNC_URL: 'http://127.0.0.1:10/' };
    expect(resolveSettings(dir, {}, env).connection.orgId).toBe('from-env');
    const flagged = resolveSettings(dir, { orgId: 'from-flag', url: 'http://127.0.0.1:11/', stateDir: '/s' }, env);
    expect(flagged.connection).toMatchObject({ orgId: 'from-flag', url: 'http://127.0.0.1:11/' });
    expect(flagged.stateDir).toBe('/s');
  });

  it('reads the token from the tokenFile the config names', () => {
    const dir = dirWith('url: http://127.0.0.1:9/\ntokenFile: token.txt\n');
    writeFileSync(join(dir, 'token.txt'), 'file-token\n');
    expect(resolveSettings(dir, {}, {}).connection.token()).toBe('file-token');
  });

  it('turns a bad config into a ConfigError naming the file and line', () => {
    const dir = dirWith('url: http://127.0.0.1:9/\nprune: true\n');
    expect(() => resolveSettings(dir, {}, { WSYNC_TOKEN: 't' })).toThrow(ConfigError);
    expect(() => resolveSettings(dir, {}, { WSYNC_TOKEN: 't' })).toThrow(/wsync\.yaml:2:1: unknown setting "prune"/);
  });
});
