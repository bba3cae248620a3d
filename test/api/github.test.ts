import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/api/errors.js';
import { createGitHubClient, GitHubError, parseRepository, type GitHubClient } from '../../src/api/github.js';
import { startGitHubStandIn, type GitHubStandIn } from '../support/github.js';

const repo = { owner: 'acme', name: 'workspace' };
const SHA = 'a'.repeat(40);

describe('the GitHub client against the stand-in', () => {
  let gh: GitHubStandIn;
  let client: GitHubClient;
  beforeAll(async () => {
    gh = await startGitHubStandIn();
    client = createGitHubClient({ url: gh.url, token: () => gh.token, backoff: { baseMs: 1, capMs: 2 } });
  });
  afterAll(async () => {
    await client.close();
    await gh.close();
  });
  afterEach(() => gh.reset());

  it('sets a commit status with the headers GitHub documents', async () => {
    await client.createCommitStatus(repo, SHA, { state: 'success', context: 'wsync', description: 'applied', targetUrl: 'https://ci.example/run/1' });
    expect(gh.statuses).toEqual([{ sha: SHA, state: 'success', context: 'wsync', description: 'applied', target_url: 'https://ci.example/run/1' }]);
    const [seen] = gh.requests;
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe(`/repos/acme/workspace/statuses/${SHA}`);
    expect(seen?.headers.accept).toBe('application/vnd.github+json');
    expect(seen?.headers['x-github-api-version']).toBe('2022-11-28');
    expect(seen?.headers.authorization).toBe(`Bearer ${gh.token}`);
    expect(seen?.headers['user-agent']).toMatch(/^wsync\//);
  });

  it('cuts a description to the 140 characters GitHub keeps', async () => {
    await client.createCommitStatus(repo, SHA, { state: 'pending', context: 'wsync', description: 'x'.repeat(300) });
    expect(gh.statuses[0]?.description).toHaveLength(140);
    expect(gh.requests[0]?.status).toBe(201);
  });

  it("quotes GitHub's validation message for a state it does not know, and does not retry it", async () => {
    const bad = client.createCommitStatus(repo, SHA, { state: 'done' as 'success', context: 'wsync' });
    await expect(bad).rejects.toThrow(GitHubError);
    await expect(client.createCommitStatus(repo, SHA, { state: 'done' as 'success', context: 'wsync' })).rejects.toThrow(
      `GitHub POST /repos/acme/workspace/statuses/${SHA}: 422: Validation Failed (state is not included in the list)`,
    );
    expect(gh.requests).toHaveLength(2);
  });

  it('never puts the token in an error, even when the server echoes it', async () => {
    gh.failNext({ status: 400, body: { message: `token ${gh.token} is not allowed here` } });
    const error = await client.createCommitStatus(repo, SHA, { state: 'success', context: 'wsync' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubError);
    expect(String((error as Error).message)).toContain('(sensitive)');
    expect(String((error as Error).message)).not.toContain(gh.token);

    const wrong = createGitHubClient({ url: gh.url, token: () => 'ghp_wrongTokenValue123456' });
    const refused = await wrong.createCommitStatus(repo, SHA, { state: 'success', context: 'wsync' }).catch((e: unknown) => e);
    await wrong.close();
    expect(String((refused as Error).message)).toBe(`GitHub POST /repos/acme/workspace/statuses/${SHA}: 401: Bad credentials`);
  });

  it('waits out a primary rate limit (403, remaining 0) and a secondary one (retry-after), then sends again', async () => {
    const resetNow = String(Math.floor(Date.now() / 1000));
    gh.failNext(
      { status: 403, body: { message: 'API rate limit exceeded' }, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetNow } },
      { status: 429, body: { message: 'You have exceeded a secondary rate limit' }, headers: { 'retry-after': '0' } },
    );
    await client.createCommitStatus(repo, SHA, { state: 'success', context: 'wsync' });
    expect(gh.requests.map((r) => r.status)).toEqual([403, 429, 201]);
    expect(gh.statuses).toHaveLength(1);
  });

  it('does not retry a 403 that is not a rate limit, nor a rate limit that resets after a minute', async () => {
    gh.failNext({ status: 403, body: { message: 'Resource not accessible by integration' } });
    await expect(client.createCommitStatus(repo, SHA, { state: 'success', context: 'wsync' })).rejects.toThrow('403: Resource not accessible by integration');
    const later = String(Math.floor(Date.now() / 1000) + 3600);
    gh.failNext({ status: 403, body: { message: 'API rate limit exceeded' }, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': later } });
    await expect(client.createCommitStatus(repo, SHA, { state: 'success', context: 'wsync' })).rejects.toThrow('403: API rate limit exceeded');
    expect(gh.requests).toHaveLength(2);
  });

  it('retries a GET after a 5xx but never a POST that may have been applied', async () => {
    gh.failNext({ status: 502 });
    expect(await client.findOpenPullRequest(repo, 'wsync/pull')).toBeUndefined();
    expect(gh.requests.map((r) => r.status)).toEqual([502, 200]);
    gh.reset();
    gh.failNext({ status: 502 });
    await expect(client.createPullRequest(repo, { title: 't', head: 'wsync/pull', base: 'main' })).rejects.toThrow('502');
    expect(gh.requests).toHaveLength(1);
  });

  it('finds, opens and updates a pull request for a head branch', async () => {
    const opened = await client.createPullRequest(repo, { title: 'UI changes', head: 'wsync/pull', base: 'main', body: 'monitor checkout: threshold' });
    expect(opened).toMatchObject({ number: 1, state: 'open', head: 'wsync/pull', base: 'main', title: 'UI changes' });
    const found = await client.findOpenPullRequest(repo, 'wsync/pull');
    expect(found?.number).toBe(1);
    expect(gh.requests[1]?.url).toBe('/repos/acme/workspace/pulls?head=acme%3Awsync%2Fpull&state=open');
    const updated = await client.updatePullRequest(repo, 1, { body: 'two changes' });
    expect(updated.number).toBe(1);
    expect(gh.pulls[0]?.body).toBe('two changes');
    await expect(client.createPullRequest(repo, { title: 'again', head: 'wsync/pull', base: 'main' })).rejects.toThrow(
      'A pull request already exists for acme:wsync/pull.',
    );
    await expect(client.updatePullRequest(repo, 9, { title: 'x' })).rejects.toThrow('404: Not Found');
  });
});

describe('a GitHub Enterprise Server (https://HOST/api/v3)', () => {
  it('sends under the base URL path', async () => {
    const gh = await startGitHubStandIn({ prefix: '/api/v3' });
    const client = createGitHubClient({ url: `${gh.url}/`, token: () => gh.token });
    try {
      await client.createCommitStatus(repo, SHA, { state: 'success', context: 'wsync' });
      expect(gh.requests[0]?.url).toBe(`/api/v3/repos/acme/workspace/statuses/${SHA}`);
    } finally {
      await client.close();
      await gh.close();
    }
  });

  it('refuses plain http to a host that is not loopback', () => {
    expect(() => createGitHubClient({ url: 'http://github.example/api/v3', token: () => 't' })).toThrow(ConfigError);
  });
});

describe('parseRepository', () => {
  it('reads owner/name and refuses anything else, naming the setting', () => {
    expect(parseRepository('acme/workspace.config', 'WSYNC_GITHUB_REPOSITORY')).toEqual({ owner: 'acme', name: 'workspace.config' });
    expect(() => parseRepository('acme', 'WSYNC_GITHUB_REPOSITORY')).toThrow('WSYNC_GITHUB_REPOSITORY: expected owner/name, got "acme"');
    expect(() => parseRepository('a/b/c', 'X')).toThrow(ConfigError);
    expect(() => parseRepository('acme/..', 'X')).toThrow(ConfigError);
  });
});
