import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/api/errors.js';
import { resolveSettings } from '../../src/cli/settings.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-settings-');
const dirWith = (config?: string): string => scratch.tree(config === undefined ? {} : { 'wsync.yaml': config });

describe('settings: flags, then environment, then wsync.yaml', () => {
  it('takes the file when nothing else says and the tree is trusted', () => {
    const dir = dirWith('url: http://127.0.0.1:9/\norgId: from-file\nstateDir: state\ntimeoutMs: 1234\n');
    const s = resolveSettings(dir, { trustConfig: true }, { WSYNC_TOKEN: 't' });
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
    expect(resolveSettings(dir, {}, { WSYNC_TRUST_CONFIG: '1' }).connection.token()).toBe('file-token');
  });

  it('takes paths inside the tree and the timeout from an untrusted file: they do not decide where the token goes', () => {
    const dir = dirWith('stateDir: state\nsecretsDir: secrets\ntimeoutMs: 1234\ninsecure: false\n');
    const s = resolveSettings(dir, {}, { WSYNC_TOKEN: 't', WSYNC_URL: 'http://127.0.0.1:10/' });
    expect(s.connection.timeoutMs).toBe(1234);
    expect(s).toMatchObject({ stateDir: join(dir, 'state'), secretsDir: join(dir, 'secrets') });
    // A secrets directory outside the tree needs the operator's word.
    const outside = dirWith('secretsDir: ../elsewhere\n');
    const env = { WSYNC_TOKEN: 't', WSYNC_URL: 'http://127.0.0.1:10/' };
    expect(() => resolveSettings(outside, {}, env)).toThrow(/^wsync\.yaml:1:1: secretsDir: a secrets directory outside the tree/);
    expect(resolveSettings(outside, { secretsDir: '/s' }, env).secretsDir).toBe('/s');
    expect(resolveSettings(outside, { trustConfig: true }, env).secretsDir).toBe(join(outside, '..', 'elsewhere'));
  });

  it('refuses the url, orgId, tokenFile and insecure only the file names, each at its line', () => {
    const dir = dirWith('timeoutMs: 5\nurl: http://198.51.100.7/\norgId: other-org\ntokenFile: /etc/hostname\ninsecure: true\n');
    let message = '';
    try {
      resolveSettings(dir, {}, {});
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^wsync\.yaml:2:1: url: the API URL is named only by wsync\.yaml, .*set --url or WSYNC_URL/);
    expect(lines[1]).toMatch(/^wsync\.yaml:3:1: orgId: .*--org-id or WSYNC_ORG_ID/);
    expect(lines[2]).toMatch(/^wsync\.yaml:4:1: tokenFile: .*no token is read from it/);
    expect(lines[3]).toMatch(/^wsync\.yaml:5:1: insecure: .*--insecure or set WSYNC_INSECURE=1/);
    expect(message).toContain('--trust-config');
  });

  it('lets a flag or the environment settle each of them instead: theirs win, the file is not used', () => {
    const dir = dirWith('url: http://198.51.100.7/\norgId: other-org\ntokenFile: /etc/hostname\ninsecure: true\n');
    const env = { WSYNC_URL: 'http://127.0.0.1:10/', WSYNC_TOKEN: 'env-token', WSYNC_ORG_ID: 'env-org', WSYNC_INSECURE: '0' };
    const s = resolveSettings(dir, {}, env);
    expect(s.connection).toMatchObject({ url: 'http://127.0.0.1:10/', orgId: 'env-org' });
    expect(s.connection.insecure).toBeUndefined();
    expect(s.connection.token()).toBe('env-token');
    const flagged = resolveSettings(dir, { url: 'http://127.0.0.1:11/', tokenFile: join(dir, 'wsync.yaml'), orgId: 'o', insecure: true }, {});
    expect(flagged.connection.url).toBe('http://127.0.0.1:11/');
    // A URL named by the environment alone still refuses the file's orgId.
    expect(() => resolveSettings(dir, {}, { WSYNC_URL: 'http://127.0.0.1:10/', WSYNC_TOKEN: 't', WSYNC_INSECURE: '0' })).toThrow(/wsync\.yaml:2:1: orgId:/);
  });

  it('turns a bad config into a ConfigError naming the file and line', () => {
    const dir = dirWith('url: http://127.0.0.1:9/\nprune: true\n');
    expect(() => resolveSettings(dir, {}, { WSYNC_TOKEN: 't' })).toThrow(ConfigError);
    expect(() => resolveSettings(dir, {}, { WSYNC_TOKEN: 't' })).toThrow(/wsync\.yaml:2:1: unknown setting "prune"/);
  });
});
