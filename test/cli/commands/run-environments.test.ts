// Which environments `wsync run` syncs, and each one's own connection (#25 item 7).
import { describe, expect, it } from 'vitest';
import { checkSuffixes, environmentView, selectionOf, variableSuffix } from '../../../src/cli/commands/run/workspaces.js';
import { resolveSettings } from '../../../src/cli/settings.js';

describe('wsync run with several environments', () => {
  it('takes --env (repeatable) over WSYNC_ENV (names split by ","), and --all-environments or WSYNC_ALL_ENVIRONMENTS=1', () => {
    expect(selectionOf(['staging', 'prod', 'staging'], undefined, {})).toEqual({ requested: ['staging', 'prod'], all: false });
    expect(selectionOf(undefined, undefined, { WSYNC_ENV: 'staging, prod' })).toEqual({ requested: ['staging', 'prod'], all: false });
    expect(selectionOf(['qa'], undefined, { WSYNC_ENV: 'staging,prod' })).toEqual({ requested: ['qa'], all: false });
    expect(selectionOf(undefined, true, {})).toEqual({ requested: [], all: true });
    expect(selectionOf(undefined, undefined, { WSYNC_ALL_ENVIRONMENTS: '1', WSYNC_ENV: 'prod' })).toEqual({ requested: [], all: true });
    expect(() => selectionOf(['prod'], true, {})).toThrow('use either --env or --all-environments, not both');
  });

  it("gives each environment its own variables' connection before the flags and the shared variables", () => {
    const env = {
      WSYNC_URL: 'https://shared.example',
      WSYNC_TOKEN: 'shared-token',
      WSYNC_URL_PROD_EU: 'https://eu.example',
      WSYNC_TOKEN_FILE_PROD_EU: '/run/prod-eu/token',
      WSYNC_ORG_ID_STAGING: 'org-staging',
      WSYNC_STATE_DIR: '/var/lib/wsync',
    };
    const prod = environmentView('prod-eu', { url: 'https://flag.example', token: 'flag-token' }, env);
    expect(prod.flags).toEqual({ env: 'prod-eu' });
    expect(prod.env).toMatchObject({ WSYNC_ENV: 'prod-eu', WSYNC_URL: 'https://eu.example', WSYNC_TOKEN_FILE: '/run/prod-eu/token', WSYNC_STATE_DIR: '/var/lib/wsync' });
    // The shared token would win over a file in the token's order: it is dropped for this environment.
    expect(prod.env.WSYNC_TOKEN).toBeUndefined();
    const staging = environmentView('staging', { url: 'https://flag.example', stateDir: 'state' }, env);
    expect(staging.flags).toEqual({ env: 'staging', url: 'https://flag.example', stateDir: 'state' });
    // The environment's folder of a shared state directory is added where every command resolves its settings.
    expect(resolveSettings(undefined, staging.flags, staging.env).stateDir).toBe('state/staging');
    expect(staging.env).toMatchObject({ WSYNC_ORG_ID: 'org-staging', WSYNC_TOKEN: 'shared-token', WSYNC_URL: 'https://shared.example' });
  });

  it('refuses an environment with no connection variable of its own, and two names with one suffix', () => {
    expect(() => environmentView('prod', {}, { WSYNC_URL: 'https://shared.example', WSYNC_TOKEN: 't', WSYNC_URL_PROD: ' ' })).toThrow(
      'environment prod: no connection of its own; set WSYNC_URL_PROD, WSYNC_TOKEN_PROD, WSYNC_TOKEN_FILE_PROD, WSYNC_ORG_ID_PROD',
    );
    expect(variableSuffix('eu-west.1')).toBe('EU_WEST_1');
    expect(() => checkSuffixes(['eu-west', 'eu_west'])).toThrow('environments eu-west and eu_west would share the variables WSYNC_URL_EU_WEST');
    expect(() => checkSuffixes(['staging', 'prod'])).not.toThrow();
  });
});
