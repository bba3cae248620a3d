// Each run keeps its own credentials: two runs in one process (the tests' in-process CLI, a daemon
// beside a command) never see each other's, and work outside any run is refused too much, never too
// little.
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { forgetOwnCredentials, registerOwnCredential, registeredOwnCredentials, withOwnCredentials } from '../../src/core/own-credentials.js';

const names = (): string[] => registeredOwnCredentials().map((c) => c.what).sort();

describe('own credentials, per run', () => {
  it('two runs at once each see only their own, through their async work, and nothing is left after them', async () => {
    const seen: Record<string, string[][]> = { a: [], b: [] };
    const run = (id: 'a' | 'b') =>
      withOwnCredentials(async () => {
        seen[id]?.push(names());
        registerOwnCredential({ what: `the API token of ${id}`, value: () => `${id}-token-0123456789` });
        await tick();
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen[id]?.push(names());
      });
    await Promise.all([run('a'), run('b')]);
    expect(seen).toEqual({ a: [[], ['the API token of a']], b: [[], ['the API token of b']] });
    expect(names()).toEqual([]);
  });

  it('outside any run, the credentials of every run in progress count (a lost context refuses more, not less)', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = withOwnCredentials(async () => {
      registerOwnCredential({ what: 'the control token', value: () => 'control-0123456789' });
      await held;
    });
    await tick();
    registerOwnCredential({ what: 'read outside', value: () => 'outside-0123456789' });
    expect(names()).toEqual(['read outside', 'the control token']);
    release();
    await running;
    forgetOwnCredentials();
    expect(names()).toEqual([]);
  });
});
