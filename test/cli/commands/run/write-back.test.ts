// `wsync run --write-back` as the command resolves it (#26.2): from flags and the process's
// environment only, refused at start when incomplete or unsafe (no remote, the base branch as the
// write-back branch, a checkout inside DIR, a kind that does not exist, a token without the
// repository), the GitHub token an own credential and the remote URL's credentials scrubbed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/api/errors.js';
import { resolveWriteBack } from '../../../../src/cli/commands/run/write-back.js';
import { forgetOwnCredentials, registeredOwnCredentials } from '../../../../src/core/own-credentials.js';
import { runCli } from '../../../support/cli.js';
import { useTestEmulator } from '../../../support/emulator.js';
import { useScratch } from '../../../support/tree.js';

const scratch = useScratch('wsync-write-back-settings-');
const emulator = useTestEmulator();
const PATHS = { dir: '/srv/tree', stateDir: '/srv/.wsync', cwd: '/srv' };
const REMOTE = 'https://wsync-bot:s3cretPushPass@git.example.com/acme/workspace.git';

describe('resolveWriteBack', () => {
  it('is off unless --write-back or WSYNC_WRITE_BACK names kinds', () => {
    expect(resolveWriteBack({ writeBackRemote: REMOTE }, {}, PATHS, false)).toBeUndefined();
    const setup = resolveWriteBack({}, { WSYNC_WRITE_BACK: 'Dashboard, Monitor', WSYNC_WRITE_BACK_REMOTE: REMOTE }, PATHS, false);
    expect(setup).toMatchObject({
      kinds: ['Dashboard', 'Monitor'],
      hold: 'all',
      remote: REMOTE,
      branch: 'wsync/write-back',
      base: 'main',
      path: '',
      checkoutDir: join('/srv/.wsync', 'write-back'),
      author: { name: 'wsync', email: 'wsync@localhost' },
    });
    expect(setup?.github).toBeUndefined();
    // The URL's user and password go to the redactor.
    expect(setup?.secrets()).toEqual(expect.arrayContaining(['s3cretPushPass', 'wsync-bot']));
  });

  it('takes the flags over the environment, and none of it from wsync.yaml', () => {
    const setup = resolveWriteBack(
      { writeBack: 'all', writeBackRemote: '/git/remote.git', writeBackBranch: 'ui-edits', writeBackBase: 'production', writeBackPath: 'workspace/', writeBackDir: 'wb', writeBackHold: 'none' },
      { WSYNC_WRITE_BACK_BRANCH: 'other', WSYNC_WRITE_BACK_AUTHOR: 'Bot <bot@example.com>' },
      PATHS,
      false,
    );
    expect(setup).toMatchObject({ kinds: 'all', hold: [], branch: 'ui-edits', base: 'production', path: 'workspace', checkoutDir: '/srv/wb', author: { name: 'Bot', email: 'bot@example.com' } });
  });

  it('refuses what is incomplete or unsafe, naming what to set', () => {
    const refusal = (flags: Parameters<typeof resolveWriteBack>[0], env: Record<string, string> = {}): string => {
      try {
        resolveWriteBack(flags, env, PATHS, false);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ writeBack: 'all' })).toBe('--write-back needs the git remote to push to: set --write-back-remote or WSYNC_WRITE_BACK_REMOTE');
    expect(refusal({ writeBack: 'Dashbord', writeBackRemote: REMOTE })).toMatch(/^--write-back: "Dashbord" is not a kind \(Dataset, .*Dashboard\), nor "all"$/);
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE, writeBackBranch: 'main' })).toBe(
      '--write-back-branch main is the branch the daemon syncs from (--write-back-base): write-back pushes there only with --write-back-to-base (WSYNC_WRITE_BACK_TO_BASE=1)',
    );
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE, writeBackBranch: 'main', writeBackToBase: true })).toBe('accepted');
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE, writeBackDir: 'tree/checkout' })).toBe(
      '--write-back-dir /srv/tree/checkout is inside DIR /srv/tree: the checkout must be a directory of its own, never the tree the daemon reads',
    );
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE, writeBackPath: '../elsewhere' })).toBe('--write-back-path: "../elsewhere" must be a folder inside the repository (relative, no ..)');
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE, writeBackBranch: 'a..b' })).toBe('--write-back-branch: "a..b" is not a branch name');
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE, writeBackHold: 'Nope' })).toMatch(/^--write-back-hold: "Nope" is not a kind .*, nor "all" or "none"$/);
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE }, { WSYNC_GITHUB_TOKEN: 'ghp_writeBackToken01' })).toBe(
      '--write-back with a GitHub token opens a pull request: set WSYNC_GITHUB_REPOSITORY=owner/name (or unset the token to commit and push only)',
    );
    expect(refusal({ writeBack: 'all', writeBackRemote: REMOTE }, { WSYNC_WRITE_BACK_AUTHOR: 'nobody' })).toBe('WSYNC_WRITE_BACK_AUTHOR: expected "Name <email>", got "nobody"');
  });

  it('opens pull requests with a token and the repository; the token is an own credential, scrubbed', async () => {
    forgetOwnCredentials();
    const setup = resolveWriteBack({ writeBack: 'all', writeBackRemote: '/git/remote.git' }, { WSYNC_GITHUB_REPOSITORY: 'acme/workspace', WSYNC_GITHUB_TOKEN: 'ghp_writeBackToken01' }, PATHS, false);
    expect(setup?.github?.repository).toEqual({ owner: 'acme', name: 'workspace' });
    expect(setup?.secrets()).toEqual(['ghp_writeBackToken01']);
    expect(registeredOwnCredentials().map((c) => c.what)).toEqual(['the GitHub token']);
    await setup?.close();
    forgetOwnCredentials();
  });
});

describe('wsync run --write-back', () => {
  it('refuses to start without a remote, before reading or writing anything', async () => {
    const dir = scratch.tree({ 'notifiers.yaml': '' });
    await emulator.clearRequests();
    const run = await runCli(['run', dir, '--write-back', 'all', '--listen', '127.0.0.1:0'], { env: emulator.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('run: --write-back needs the git remote to push to: set --write-back-remote or WSYNC_WRITE_BACK_REMOTE\n');
    expect(await emulator.requests()).toEqual([]);
  });
});
