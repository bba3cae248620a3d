import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/core/types.js';
import { readDesired } from '../../../src/source/index.js';
import { createSecretSources, interpolate } from '../../../src/source/interpolate/interpolate.js';
import { useScratch, type Files } from '../../support/tree.js';
import { doc, webhookNotifierYaml } from '../../support/yaml.js';
import { errorsOf, readOne } from '../helpers.js';

const scratch = useScratch('wsync-secrets-');
const secretsDir = (files: Files): string => scratch.tree(files);

const slack = (url: string): string =>
  doc('kind: Notifier', 'metadata:', '  name: oncall', 'spec:', '  properties:', '    slack:', `      slackUrl: ${url}`);
const webhook = (header: string): string => webhookNotifierYaml('hook', header);

describe('${env:NAME}', () => {
  it('replaces the placeholder, records the pointer and the value as secret', () => {
    const desired = readOne(webhook('"Bearer ${env:TOKEN}"'), { env: { TOKEN: 's3cr3t-token' } });
    expect(desired.diagnostics).toEqual([]);
    const [r] = desired.resources;
    expect(r?.spec).toMatchObject({ properties: { customWebhook: { secretHeaders: { Authorization: 'Bearer s3cr3t-token' } } } });
    expect(r?.interpolated).toEqual(['/spec/properties/customWebhook/secretHeaders/Authorization']);
    expect(desired.secretValues).toEqual(['s3cr3t-token']);
  });

  it('works in any string, anywhere in the document, several times in one string', () => {
    const text = doc('kind: Org', 'metadata:', '  name: ${env:A}-${env:B}');
    const desired = readOne(text, { env: { A: 'acme', B: 'prod' } });
    expect(desired.resources[0]?.name).toBe('acme-prod');
    expect(desired.resources[0]?.interpolated).toEqual(['/metadata/name']);
  });

  it('a missing variable is an error at the string, naming the variable but no value', () => {
    const desired = readOne(slack('${env:SLACK_URL}'), { env: {} });
    expect(errorsOf(desired)).toEqual([slackUrlError('environment variable SLACK_URL is not set (${env:SLACK_URL})')]);
    expect(desired.resources).toEqual([]);
  });

  it('an empty variable (what an undefined CI secret gives) is named as empty, not blamed on the file', () => {
    const desired = readOne(slack('${env:SLACK_URL}'), { env: { SLACK_URL: '' } });
    expect(errorsOf(desired)).toEqual([
      slackUrlError("environment variable SLACK_URL is set but empty (${env:SLACK_URL}): a CI secret that is not defined (e.g. GitHub's ${{ secrets.NAME }}) reads as empty"),
    ]);
    expect(desired.resources).toEqual([]);
  });

  it('$${ is a literal ${; unknown and unterminated forms are errors', () => {
    const ok = readOne(doc('kind: Org', 'metadata:', '  name: "cost $${region} in $$ and $x"'));
    expect(ok.diagnostics).toEqual([]);
    expect(ok.resources[0]?.name).toBe('cost ${region} in $$ and $x');
    expect(ok.resources[0]?.interpolated).toEqual([]);

    for (const [text, message] of [
      ['${vault:db}', /unknown placeholder \$\{vault:db\}/],
      ['${HOME}', /unknown placeholder \$\{HOME\}/],
      ['${env:}', /not a valid environment variable name/],
      ['${env:A-B}', /not a valid environment variable name/],
      ['${file:}', /missing a path/],
      ['${env:A', /unterminated/],
    ] as const) {
      const errors = errorsOf(readOne(doc('kind: Org', 'metadata:', `  name: "x ${text}"`), { env: { A: 'a' } }));
      expect(errors, text).toMatchObject([{ code: 'interpolation', line: 4, field: 'metadata.name' }]);
      expect(errors[0]?.message).toMatch(message);
    }
  });

  it("never copies wsync's own credentials into an object, and never says their value", () => {
    const env = { WSYNC_TOKEN: 'xaat-workspace-token', WSYNC_CONTROL_TOKEN: 'control-token-0123456789', WSYNC_NOTIFY_WEBHOOK_SECRET: 'hmac-key', WSYNC_NOTIFY_SLACK_URL: 'https://hooks.slack.com/services/T/B/x' };
    for (const name of Object.keys(env) as (keyof typeof env)[]) {
      const desired = readOne(webhook(`"Bearer \${env:${name}}"`), { env });
      const errors = errorsOf(desired);
      expect(errors, name).toMatchObject([{ code: 'interpolation', line: 11, field: 'spec.properties.customWebhook.secretHeaders.Authorization' }]);
      expect(errors[0]?.message).toContain(`${name} is wsync's own credential`);
      expect(JSON.stringify(desired)).not.toContain(env[name]);
    }
  });

  it('keys are not interpolated', () => {
    const desired = readOne(doc('kind: Org', 'metadata:', '  name: x', '  annotations:', '    ${env:A}: v'), { env: { A: 'a' } });
    expect(desired.resources[0]?.annotations).toEqual({ '${env:A}': 'v' });
  });

  it('happens before schema validation, and a failed one is not reported again by the schema', () => {
    const valid = readOne(slack('${env:URL}'), { env: { URL: 'https://hooks.slack.com/x' } });
    expect(valid.diagnostics).toEqual([]);
    const invalid = readOne(slack('${env:URL}'), { env: { URL: 'not a url' } });
    expect(errorsOf(invalid)).toMatchObject([{ code: 'schema', field: 'spec.properties.slack.slackUrl' }]);
    const missing = readOne(slack('${env:URL}'), { env: {} });
    expect(errorsOf(missing).map((d) => d.code)).toEqual(['interpolation']);
  });
});

/** The error at the slack URL of `slack(...)`, with its whole message. */
function slackUrlError(message: string): Diagnostic {
  return {
    severity: 'error',
    code: 'interpolation',
    file: 'r.yaml',
    line: 8,
    column: 17,
    kind: 'Notifier',
    name: 'oncall',
    field: 'spec.properties.slack.slackUrl',
    message: `spec.properties.slack.slackUrl: ${message}`,
  };
}

describe('${file:PATH}', () => {
  it('reads a file in the secrets directory, without one trailing newline', () => {
    const dir = secretsDir({ 'slack/url': 'https://hooks.slack.com/T/B/x\n', 'two-newlines': 'abc\n\n', crlf: 'xyz\r\n' });
    const desired = readOne(slack('${file:slack/url}'), { secretsDir: dir });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources[0]?.spec).toEqual({ properties: { slack: { slackUrl: 'https://hooks.slack.com/T/B/x' } } });
    expect(desired.resources[0]?.interpolated).toEqual(['/spec/properties/slack/slackUrl']);
    expect(desired.secretValues).toEqual(['https://hooks.slack.com/T/B/x']);
    const more = readOne(doc('kind: Role', 'metadata:', '  name: r', 'spec:', '  description: "${file:two-newlines}|${file:crlf}"'), {
      secretsDir: dir,
    });
    expect(more.resources[0]?.spec.description).toBe('abc\n|xyz');
  });

  it('an empty file (or one holding only its newline) is an error naming the file as empty', () => {
    const dir = secretsDir({ empty: '', newline: '\n' });
    for (const name of ['empty', 'newline']) {
      const errors = errorsOf(readOne(slack(`\${file:${name}}`), { secretsDir: dir }));
      expect(errors.map((d) => d.message)).toEqual([`spec.properties.slack.slackUrl: \${file:${name}}: the file is empty`]);
    }
  });

  it('takes the directory from WSYNC_SECRETS_DIR when no option is given', () => {
    const dir = secretsDir({ url: 'https://hooks.slack.com/x' });
    const desired = readOne(slack('${file:url}'), { env: { WSYNC_SECRETS_DIR: dir } });
    expect(desired.diagnostics).toEqual([]);
  });

  it('without a secrets directory it is an error saying how to configure one', () => {
    const errors = errorsOf(readOne(slack('${file:url}')));
    expect(errors).toMatchObject([{ code: 'interpolation', line: 8 }]);
    expect(errors[0]?.message).toContain('--secrets-dir');
    expect(errors[0]?.message).toContain('WSYNC_SECRETS_DIR');
  });

  it('refuses .., absolute paths outside the directory and links that lead out of it', () => {
    const outside = secretsDir({ 'stolen.txt': 'do-not-read-me' });
    const dir = secretsDir({ 'ok.txt': 'https://hooks.slack.com/x' });
    symlinkSync(join(outside, 'stolen.txt'), join(dir, 'link.txt'));
    mkdirSync(join(dir, 'sub'));
    for (const [path, message] of [
      ['../stolen.txt', /stay inside the secrets directory/],
      ['sub/../../stolen.txt', /stay inside the secrets directory/],
      [join(outside, 'stolen.txt'), /absolute path must point inside/],
      ['link.txt', /leads outside the secrets directory/],
      ['missing.txt', /no such file/],
      ['sub', /not a regular file/],
    ] as const) {
      const desired = readOne(slack(`\${file:${path}}`), { secretsDir: dir });
      const errors = errorsOf(desired);
      expect(errors, path).toMatchObject([{ code: 'interpolation', line: 8 }]);
      expect(errors[0]?.message, path).toMatch(message);
      expect(JSON.stringify(desired)).not.toContain('do-not-read-me');
    }
    // An absolute path inside the directory is fine.
    expect(readOne(slack(`\${file:${join(dir, 'ok.txt')}}`), { secretsDir: dir }).diagnostics).toEqual([]);
  });

  it('a secrets directory that does not exist is an error', () => {
    const errors = errorsOf(readOne(slack('${file:url}'), { secretsDir: '/nonexistent/wsync-secrets' }));
    expect(errors[0]?.message).toMatch(/secrets directory .* does not exist/);
  });

  it('serves a file used by several documents in several files', async () => {
    const secrets = secretsDir({ url: 'https://hooks.slack.com/x' });
    const dir = scratch.tree({ 'a.yaml': slack('${file:url}'), 'b.yaml': slack('${file:url}').replace('oncall', 'other') });
    const desired = await readDesired(dir, { secretsDir: secrets, env: {} });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources).toHaveLength(2);
    expect(desired.secretValues).toEqual(['https://hooks.slack.com/x']);
  });
});

describe('as written (a run without the secrets)', () => {
  const sources = () => createSecretSources({ SET: 'a-value-that-must-not-be-read' }, undefined, { asWritten: true });

  it('leaves ${env:} and ${file:} as written, reads nothing and remembers no secret', () => {
    const from = sources();
    expect(interpolate('Bearer ${env:MISSING}', from)).toEqual({ value: 'Bearer ${env:MISSING}', secret: true, errors: [] });
    expect(interpolate('${env:SET}', from)).toEqual({ value: '${env:SET}', secret: true, errors: [] });
    expect(interpolate('${file:slack/url}', from)).toEqual({ value: '${file:slack/url}', secret: true, errors: [] });
    expect(interpolate('$${env:X} stays literal', from).value).toBe('${env:X} stays literal');
    expect([...from.secretValues]).toEqual([]);
    expect(from.fileCache.size).toBe(0);
  });

  it('still reports references that could never work', () => {
    const from = sources();
    expect(interpolate('${env:not a name}', from).errors).toEqual([expect.stringContaining('not a valid environment variable name')]);
    expect(interpolate('${file:}', from).errors).toEqual([expect.stringContaining('missing a path')]);
    expect(interpolate('${vault:x}', from).errors).toEqual([expect.stringContaining('unknown placeholder')]);
    expect(interpolate('${env:OPEN', from).errors).toEqual([expect.stringContaining('unterminated')]);
  });
});
