// The credentials of the write-back remote's URL, which the daemon's redactor scrubs from every
// line it logs: each form git may echo, and never an exception (the redactor runs for every line).
import { describe, expect, it } from 'vitest';
import { resolveWriteBack } from '../../src/cli/commands/run/write-back.js';
import { remoteCredentials } from '../../src/state/git-checkout.js';

describe('remoteCredentials', () => {
  it('a password with a % that is no escape is scrubbed as written, without throwing', () => {
    expect(remoteCredentials('https://bot:tok%zzen-secret@git.example.com/o/r.git')).toContain('tok%zzen-secret');
  });

  it('a token given as the user name (https://TOKEN@host) is scrubbed as written and decoded', () => {
    const found = remoteCredentials('https://ghp%2Ftoken-secret@git.example.com/o/r.git');
    expect(found).toContain('ghp%2Ftoken-secret');
    expect(found).toContain('ghp/token-secret');
  });

  it("the daemon's redactor input: the write-back's secrets never throw", () => {
    const setup = resolveWriteBack({ writeBack: 'all', writeBackRemote: 'https://bot:50%off-secret@git.example.com/o/r.git' }, {}, { dir: '/srv/tree', stateDir: '/srv/state', cwd: '/' }, false);
    expect(setup?.secrets()).toContain('50%off-secret');
  });
});
