// The opt-in of the marks of an applied revision (#26.3), as the commands resolve it: from flags and
// the process's environment only, refused at start when incomplete, the token an own credential.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/api/errors.js';
import { resolveRevisionMarks } from '../../src/cli/revision-marks.js';
import { forgetOwnCredentials, registeredOwnCredentials } from '../../src/core/own-credentials.js';
import { runCli } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-marks-settings-');
const emulator = useTestEmulator();
const GH = { WSYNC_GITHUB_REPOSITORY: 'acme/workspace', WSYNC_GITHUB_TOKEN: 'ghp_settingsTestToken99' };

describe('resolveRevisionMarks', () => {
  it('is off unless a flag or the environment turns a mark on', () => {
    expect(resolveRevisionMarks({}, GH, false)).toBeUndefined();
    expect(resolveRevisionMarks({}, { WSYNC_ANNOTATE: '1' }, false)?.marks).toEqual({ annotate: {} });
    expect(resolveRevisionMarks({ annotate: true, annotateUrlTemplate: 'https://git.example/c/{revision}' }, {}, false)?.marks).toEqual({
      annotate: { urlTemplate: 'https://git.example/c/{revision}' },
    });
  });

  it("links the commit's page: github.com for api.github.com, the server for an Enterprise one", async () => {
    const cloud = resolveRevisionMarks({ annotate: true, commitStatus: true }, GH, false);
    const enterprise = resolveRevisionMarks({ annotate: true }, { ...GH, WSYNC_COMMIT_STATUS: 'yes', WSYNC_GITHUB_API_URL: 'https://git.corp.example/api/v3' }, false);
    try {
      expect(cloud?.marks.annotate).toEqual({ urlTemplate: 'https://github.com/acme/workspace/commit/{revision}' });
      expect(cloud?.marks.commitStatus).toMatchObject({ repository: { owner: 'acme', name: 'workspace' }, context: 'wsync' });
      expect(enterprise?.marks.annotate).toEqual({ urlTemplate: 'https://git.corp.example/acme/workspace/commit/{revision}' });
      expect(cloud?.secrets()).toEqual([GH.WSYNC_GITHUB_TOKEN]);
    } finally {
      await cloud?.close();
      await enterprise?.close();
    }
  });

  it('records the GitHub token as an own credential, from the variable or its file', async () => {
    forgetOwnCredentials();
    const dir = scratch.tree({ github: 'ghp_fromAFile12345\n' });
    const setup = resolveRevisionMarks({ commitStatus: true }, { WSYNC_GITHUB_REPOSITORY: 'acme/w', WSYNC_GITHUB_TOKEN_FILE: join(dir, 'github') }, false);
    await setup?.close();
    expect(registeredOwnCredentials().map((c) => [c.what, c.value()])).toEqual([['the GitHub token', 'ghp_fromAFile12345']]);
    forgetOwnCredentials();
  });

  it('refuses an incomplete or unsafe opt-in, naming what to set', () => {
    const refused = (flags: Parameters<typeof resolveRevisionMarks>[0], env: Record<string, string>): string => {
      try {
        resolveRevisionMarks(flags, env, false);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ commitStatus: true }, { WSYNC_GITHUB_TOKEN: 'ghp_x12345678' })).toBe('--commit-status needs the repository: set WSYNC_GITHUB_REPOSITORY=owner/name');
    expect(refused({ commitStatus: true }, { WSYNC_GITHUB_REPOSITORY: 'acme/w' })).toBe('--commit-status needs a GitHub token: set WSYNC_GITHUB_TOKEN or WSYNC_GITHUB_TOKEN_FILE');
    expect(refused({ commitStatus: true }, { WSYNC_GITHUB_REPOSITORY: 'acme' , WSYNC_GITHUB_TOKEN: 'ghp_x12345678' })).toBe('WSYNC_GITHUB_REPOSITORY: expected owner/name, got "acme"');
    expect(refused({ commitStatus: true }, { ...GH, WSYNC_GITHUB_API_URL: 'http://github.corp.example/api/v3' })).toMatch(/^refusing plain http to github\.corp\.example/);
    expect(refused({ annotate: true, annotateUrlTemplate: 'https://git.example/commit/' }, {})).toBe(
      '--annotate-url-template: "https://git.example/commit/" has no {revision} to put the commit in',
    );
  });
});

describe('wsync run --commit-status', () => {
  it('refuses to start without the repository, before reading or writing anything', async () => {
    const dir = scratch.tree({ 'notifiers.yaml': '' });
    await emulator.clearRequests();
    const run = await runCli(['run', dir, '--commit-status', '--listen', '127.0.0.1:0'], { env: { ...emulator.env, WSYNC_GITHUB_TOKEN: 'ghp_x12345678' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('run: --commit-status needs the repository: set WSYNC_GITHUB_REPOSITORY=owner/name\n');
    expect(await emulator.requests()).toEqual([]);
  });
});
