// The daemon issues API token secrets as apply does (#13.4, #17.1): at the most verbose log level,
// through a create and a rotation, no secret the workspace issued reaches its log lines, stderr,
// status page, readiness detail or metrics. The secrets come from the emulator's own dump, so the
// test knows every value that must not appear.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { liveObjects } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

const env = useDaemonSuite();
const NAME = 'daemon-ingest';

const token = (description: string): string => resource('ApiToken', NAME, { description, orgCapabilities: { annotations: ['create'] } });

async function issuedSecrets(): Promise<string[]> {
  return liveObjects(await env.emulator.state(), 'tokens')
    .filter((t) => t.name === NAME)
    .map((t) => String(t.token));
}

/** Everything a person or a scraper can read from the daemon. */
async function everythingShown(url: string, logs: unknown[], stderr: string): Promise<string> {
  const pages = await Promise.all(['/status', '/readyz', '/healthz', '/metrics'].map(async (path) => (await fetch(`${url}${path}`)).text()));
  return [...logs.map((line) => JSON.stringify(line)), stderr, ...pages].join('\n');
}

describe('the daemon and API token secrets', () => {
  it('keeps every issued secret out of its logs, status, readiness and metrics, through a create and a rotation', async () => {
    const dir = join(env.tmp, 'tree');
    const tokens = join(env.tmp, 'tokens');
    await mkdir(dir);
    await writeFile(join(dir, 'token.yaml'), token('first'));
    const daemon = env.start([dir, '--state-dir', join(env.tmp, 'state'), '--token-output-dir', tokens, '--log-level', 'trace']);
    const { url } = await daemon.ready({ result: 'applied' });
    const first = (await readFile(join(tokens, NAME), 'utf8')).trim();
    expect(first.length).toBeGreaterThan(8);

    // A changed token is regenerated: a second secret is issued while the first stays valid.
    const mark = daemon.mark;
    await writeFile(join(dir, 'token.yaml'), token('second'));
    await daemon.waitFor((l) => l.msg === 'reconcile' && l.trigger !== 'start' && l.result === 'applied', { from: mark, what: 'the rotation' });
    const second = (await readFile(join(tokens, NAME), 'utf8')).trim();
    expect(second).not.toBe(first);

    const secrets = await issuedSecrets();
    expect(secrets).toEqual(expect.arrayContaining([first, second]));
    expect(daemon.lines.some((l) => l.msg === 'change' && l.action === 'replace')).toBe(true);
    const shown = await everythingShown(url, daemon.lines, daemon.stderr);
    // What is shown does speak of the token (by name), only never of its secret.
    expect(shown).toContain(`ApiToken`);
    expect(shown).toContain(NAME);
    for (const secret of secrets) expect(shown).not.toContain(secret);
    expect(await daemon.signal('SIGTERM')).toBe(0);
  });
});
