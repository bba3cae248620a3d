// End to end: a server whose TLS certificate names another host. The CLI trusts the certificate's
// issuer (NODE_EXTRA_CA_CERTS, which Node reads when a process starts: the CLI runs as one), so
// what fails is the name: one attempt per request, no retries, and a message that says nothing was
// sent (#17.10).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../support/cli.js';
import { ROOT } from '../support/paths.js';
import { useScratch } from '../support/tree.js';

const TLS = join(ROOT, 'test', 'api', 'tls');
const server = createServer({ key: readFileSync(join(TLS, 'server.key')), cert: readFileSync(join(TLS, 'server.pem')) }, (_req, res) => res.end('[]'));
let connections = 0;
server.on('connection', () => connections++);
const scratch = useScratch('wsync-tls-');
let tree: string;

beforeAll(async () => {
  tree = scratch.tree({ 'org.yaml': 'apiVersion: wsync/v1\nkind: Org\nmetadata:\n  name: acme\n' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => {
  server.close();
});

describe('a TLS certificate for another name', () => {
  it('is reported as such after one attempt, never retried', async () => {
    const { port } = server.address() as AddressInfo;
    const result = await spawnCli(['plan', tree], {
      env: { WSYNC_URL: `https://127.0.0.1:${port}`, WSYNC_TOKEN: 'tls-test-token', NODE_EXTRA_CA_CERTS: join(TLS, 'ca.pem') },
    }).done;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/plan: GET \/v2\/orgs: the server's TLS certificate was not accepted \(ERR_TLS_CERT_ALTNAME_INVALID: .*\): nothing was sent\n/);
    // One list request, one connection: the name does not change between attempts.
    expect(connections).toBe(1);
  });
});
