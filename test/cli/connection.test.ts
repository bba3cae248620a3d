import { Command } from 'commander';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/api/errors.js';
import { addConnectionOptions, resolveConnection } from '../../src/cli/connection.js';
import { useScratch } from '../support/tree.js';

const URL = 'https://api.axiom.co';

describe('resolveConnection', () => {
  it('takes flags before the environment', () => {
    const config = resolveConnection(
      { url: 'https://flag.example.com', token: 'flag-token', orgId: 'org-flag' },
      { WSYNC_URL: 'https://env.example.com', WSYNC_TOKEN: 'env-token', WSYNC_ORG_ID: 'org-env' },
    );
    expect(config.url).toBe('https://flag.example.com');
    expect(config.token()).toBe('flag-token');
    expect(config.orgId).toBe('org-flag');
  });

  it('falls back to the environment', () => {
    const config = resolveConnection({}, { WSYNC_URL: URL, WSYNC_TOKEN: ' env-token\n', WSYNC_ORG_ID: 'org-env' });
    expect(config).toMatchObject({ url: URL, orgId: 'org-env' });
    expect(config.token()).toBe('env-token');
    expect(config.insecure).toBeUndefined();
  });

  it('says what to set when the URL or the token is missing', () => {
    expect(() => resolveConnection({}, { WSYNC_TOKEN: 't' })).toThrow(new ConfigError('no API URL: set --url or WSYNC_URL'));
    expect(() => resolveConnection({ url: URL }, {})).toThrow(
      new ConfigError('no API token: set --token, --token-file, WSYNC_TOKEN or WSYNC_TOKEN_FILE'),
    );
    expect(() => resolveConnection({ url: ' ' }, { WSYNC_URL: '' , WSYNC_TOKEN: 't' })).toThrow(/no API URL/);
    expect(() => resolveConnection({ url: URL }, { WSYNC_TOKEN: '' })).toThrow(
      new ConfigError(
        "no API token (WSYNC_TOKEN is set but empty: a CI secret that is not defined (e.g. GitHub's ${{ secrets.NAME }}) reads as empty): set --token, --token-file, WSYNC_TOKEN or WSYNC_TOKEN_FILE",
      ),
    );
  });

  it('refuses plain http to a remote host, with the reason, unless insecure', () => {
    expect(() => resolveConnection({ url: 'http://api.example.com', token: 't' }, {})).toThrow(ConfigError);
    expect(() => resolveConnection({ url: 'http://api.example.com', token: 't' }, {})).toThrow(
      /refusing plain http to api\.example\.com: the API token would cross the network unencrypted.*--insecure/,
    );
    expect(resolveConnection({ url: 'http://api.example.com', token: 't', insecure: true }, {}).insecure).toBe(true);
    expect(resolveConnection({ url: 'http://api.example.com', token: 't' }, { WSYNC_INSECURE: '1' }).insecure).toBe(true);
  });

  it('accepts plain http to loopback', () => {
    for (const url of ['http://127.0.0.1:8080', 'http://127.1.2.3', 'http://localhost:9000', 'http://[::1]:8080']) {
      expect(resolveConnection({ url, token: 't' }, {}).url).toBe(url);
    }
  });

  it('rejects URLs that are not http(s) or carry credentials', () => {
    expect(() => resolveConnection({ url: 'ftp://x', token: 't' }, {})).toThrow(/only http/);
    expect(() => resolveConnection({ url: 'not a url', token: 't' }, {})).toThrow(/not a valid URL/);
    // A URL that does not parse is quoted without what may be a credential in it.
    for (const url of ['https://bot:ghp_secret12345@[api.example.com', 'ftp://bot:ghp_secret12345@host', 'not a url?token=ghp_secret12345']) {
      let message = '';
      try {
        resolveConnection({ url, token: 't' }, {});
      } catch (err) {
        message = String((err as Error).message);
      }
      expect(message).toMatch(/not a valid URL|only http/);
      expect(message).not.toContain('ghp_secret');
    }
    expect(() => resolveConnection({ url: 'https://user:pw@api.axiom.co', token: 't' }, {})).toThrow(/credentials/);
  });

  it('sets the timeout and rejects a bad one', () => {
    expect(resolveConnection({ url: URL, token: 't', timeout: 5000 }, {}).timeoutMs).toBe(5000);
    expect(() => resolveConnection({ url: URL, token: 't', timeout: Number('abc') }, {})).toThrow(ConfigError);
    expect(() => resolveConnection({ url: URL, token: 't', timeout: 0 }, {})).toThrow(/positive/);
  });

  it('refuses both --token and --token-file', () => {
    expect(() => resolveConnection({ url: URL, token: 't', tokenFile: '/x' }, {})).toThrow(/either --token or --token-file/);
  });
});

describe('token file', () => {
  const scratch = useScratch('wsync-token-');
  let dir: string;
  beforeEach(async () => {
    dir = await scratch.dir();
  });

  it('reads the token trimmed and again when the file changes', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'first-token\n');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const config = resolveConnection({ url: URL, tokenFile: file }, { WSYNC_TOKEN: 'ignored-env' });
    expect(config.token()).toBe('first-token');
    writeFileSync(file, '  rotated-tok\n');
    utimesSync(file, 1_700_000_100, 1_700_000_100);
    expect(config.token()).toBe('rotated-tok');
  });

  it('comes from WSYNC_TOKEN_FILE too, after WSYNC_TOKEN', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'file-token');
    expect(resolveConnection({ url: URL }, { WSYNC_TOKEN_FILE: file }).token()).toBe('file-token');
    expect(resolveConnection({ url: URL }, { WSYNC_TOKEN_FILE: file, WSYNC_TOKEN: 'env' }).token()).toBe('env');
  });

  it('keeps the last good token while the file is missing or empty mid-rotation', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'good-token');
    const config = resolveConnection({ url: URL, tokenFile: file }, {});
    rmSync(file);
    expect(config.token()).toBe('good-token');
    writeFileSync(file, '   ');
    expect(config.token()).toBe('good-token');
  });

  it('fails at start on a missing or empty file, naming it', () => {
    const missing = join(dir, 'nope');
    expect(() => resolveConnection({ url: URL, tokenFile: missing }, {})).toThrow(
      new ConfigError(`token file ${missing} (--token-file): no such file`),
    );
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(() => resolveConnection({ url: URL }, { WSYNC_TOKEN_FILE: empty })).toThrow(/WSYNC_TOKEN_FILE\) is empty/);
  });
});

describe('addConnectionOptions', () => {
  it('adds the shared flags to a command', () => {
    let seen: Record<string, unknown> = {};
    const cmd = addConnectionOptions(new Command('plan').exitOverride()).action((options: Record<string, unknown>) => {
      seen = options;
    });
    cmd.parse(
      ['--url', URL, '--token', 't', '--token-file', '/f', '--org-id', 'o', '--insecure', '--timeout', '2500'],
      { from: 'user' },
    );
    expect(seen).toEqual({ url: URL, token: 't', tokenFile: '/f', orgId: 'o', insecure: true, timeout: 2500 });
  });

  it('rejects a timeout that is not a positive number', () => {
    const cmd = addConnectionOptions(new Command('plan').exitOverride().configureOutput({ writeErr: () => undefined }));
    expect(() => cmd.parse(['--timeout', 'soon'], { from: 'user' })).toThrow(/--timeout/);
  });
});
