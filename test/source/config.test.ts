import { describe, expect, it } from 'vitest';
import { configAsEnv, readWorkspaceConfig } from '../../src/source/config.js';
import { useScratch, type Files } from '../support/tree.js';

const scratch = useScratch('wsync-config-');
const tree = (files: Files): string => scratch.tree(files);

describe('wsync.yaml', () => {
  it('is optional', () => {
    expect(readWorkspaceConfig(tree({}))).toEqual({ config: {}, diagnostics: [], positions: {} });
  });

  it('reads connection settings and makes paths absolute against the directory', () => {
    const dir = tree({
      'wsync.yaml': 'url: https://api.example.com\norgId: acme\ntokenFile: ../secrets/token\nsecretsDir: ../secrets\nstateDir: /var/lib/wsync\ninsecure: false\ntimeoutMs: 5000\n',
    });
    const { config, diagnostics } = readWorkspaceConfig(dir);
    expect(diagnostics).toEqual([]);
    expect(config.url).toBe('https://api.example.com');
    expect(config.tokenFile).toBe(`${dir.replace(/\/[^/]+$/, '')}/secrets/token`);
    expect(config.stateDir).toBe('/var/lib/wsync');
    expect(configAsEnv(config)).toMatchObject({ WSYNC_URL: 'https://api.example.com', WSYNC_ORG_ID: 'acme', WSYNC_INSECURE: undefined });
  });

  it('names the line of an unknown or wrong setting', () => {
    const { diagnostics } = readWorkspaceConfig(tree({ 'wsync.yaml': 'url: https://api.example.com\norgid: acme\ntimeoutMs: -1\n' }));
    expect(diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`)).toEqual([
      'wsync.yaml:2: unknown setting "orgid"',
      'wsync.yaml:3: timeoutMs: must be >= 1',
    ]);
  });

  it('reads notification targets, paths against the directory; a Slack URL in the file is refused at its line', () => {
    const dir = tree({
      'wsync.yaml': [
        'notifications:',
        '  timeoutMs: 2000',
        '  targets:',
        '    - {name: ops, type: webhook, url: "https://hooks.example.com/w", secretFile: ../secrets/hmac, events: [reconcile.failed]}',
        '    - {type: slack, urlEnv: SLACK_URL}',
        '',
      ].join('\n'),
    });
    const { config, diagnostics } = readWorkspaceConfig(dir);
    expect(diagnostics).toEqual([]);
    expect(config.notifications?.targets?.[0]?.secretFile).toBe(`${dir.replace(/\/[^/]+$/, '')}/secrets/hmac`);
    expect(config.notifications?.targets?.[1]).toEqual({ type: 'slack', urlEnv: 'SLACK_URL' });

    const bad = readWorkspaceConfig(
      tree({ 'wsync.yaml': 'notifications:\n  targets:\n    - type: webhook\n      url: https://h.example.com\n    - type: slack\n      url: https://hooks.slack.com/services/T/B/x\n      colour: red\n' }),
    );
    expect(bad.diagnostics.map((d) => `${d.file}:${d.line}: ${d.field}: ${d.message}`)).toEqual([
      'wsync.yaml:5: notifications.targets.1: notifications.targets.1: a slack target takes its URL from urlFile or urlEnv (the URL is a secret), and no secretFile or secretEnv',
      'wsync.yaml:7: notifications.targets.1.colour: unknown setting "notifications.targets.1.colour"',
    ]);
  });

  it('refuses a token in the file, without repeating it', () => {
    const { diagnostics } = readWorkspaceConfig(tree({ 'wsync.yaml': 'url: https://api.example.com\ntoken: xaat-very-secret\n' }));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.line).toBe(2);
    expect(diagnostics[0]?.message).toMatch(/never belongs in a file/);
    expect(JSON.stringify(diagnostics)).not.toContain('xaat-very-secret');
  });

  it('reports broken YAML with its place', () => {
    const { diagnostics } = readWorkspaceConfig(tree({ 'wsync.yaml': 'url: [unclosed\n' }));
    expect(diagnostics[0]).toMatchObject({ file: 'wsync.yaml', code: 'config' });
  });
});
