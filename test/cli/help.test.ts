// The CLI's help and usage errors (issue #29): every command's --help ends with examples and lists
// the WSYNC_* variables it reads; a mistyped option is a short error; --kinds is --kind.
import { describe, expect, it } from 'vitest';
import { expandKindLists } from '../../src/cli/selection.js';
import { createProgram } from '../../src/cli/main.js';
import { helpOf, runCli } from '../support/cli.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-help-');

const commands = (await createProgram()).commands;

describe('every command\'s --help', () => {
  it('covers every command', () => {
    expect(commands.map((c) => c.name())).toEqual(['init', 'validate', 'plan', 'apply', 'diff', 'run', 'ctl', 'export', 'pull', 'emulator', 'schema', 'completion']);
  });

  it.each(commands.map((c) => [c.name(), c] as const))('%s ends with an Examples: section of real uses of the command', (name, cmd) => {
    const help = helpOf(cmd);
    const examples = help.slice(help.lastIndexOf('\nExamples:\n') + '\nExamples:\n'.length).trimEnd().split('\n');
    expect(help.lastIndexOf('\nExamples:\n')).toBeGreaterThan(0);
    // Pairs of "# what it does" and the command line, nothing after them.
    expect(examples.length % 2).toBe(0);
    for (let i = 0; i < examples.length; i += 2) {
      expect(examples[i]).toMatch(/^ {2}# \S/);
      expect(examples[i + 1]).toContain(`wsync ${name}`);
    }
  });

  it.each(commands.map((c) => [c.name(), c] as const))('%s lists every WSYNC_* variable its options name, in its Environment section', (_name, cmd) => {
    const help = helpOf(cmd);
    const named = new Set(cmd.options.flatMap((o) => o.description.match(/WSYNC_[A-Z_]+/g) ?? []));
    const environment = help.includes('\nEnvironment') ? help.slice(help.indexOf('\nEnvironment'), help.lastIndexOf('\nExamples:')) : '';
    const listed = new Set(environment.match(/^ {2}WSYNC_[A-Z_]+/gm)?.map((s) => s.trim()) ?? []);
    for (const variable of named) expect(listed).toContain(variable);
  });

  it('plan lists the connection and tree variables', () => {
    const help = helpOf(commands.find((c) => c.name() === 'plan')!);
    for (const variable of ['WSYNC_URL', 'WSYNC_TOKEN', 'WSYNC_TOKEN_FILE', 'WSYNC_ORG_ID', 'WSYNC_SECRETS_DIR', 'WSYNC_STATE_DIR']) {
      expect(help).toMatch(new RegExp(`^ {2}${variable} +\\S`, 'm'));
    }
  });
});

describe('usage errors', () => {
  it('an unknown option is three lines: the error, the did-you-mean and where the help is, not the whole help', async () => {
    const result = await runCli(['plan', '--fromat', 'json']);
    expect(result.stderr).toBe("error: unknown option '--fromat'\n(Did you mean --format?)\n(see wsync plan --help)\n");
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
  });

  it('a wsync.yaml refusal is one line per setting, with real line breaks', async () => {
    const dir = scratch.tree({ 'wsync.yaml': 'url: https://elsewhere.example.com\norgId: acme-1\n' });
    const result = await runCli(['plan', dir], { env: { WSYNC_TOKEN: 't' } });
    const trust = 'or pass --trust-config (WSYNC_TRUST_CONFIG=1) where the tree is trusted';
    const why = 'which is part of the tree (a pull request can change it)';
    expect(result.stderr).toBe(
      `plan: wsync.yaml:1:1: url: the API URL is named only by wsync.yaml, ${why}, so the token is not sent there: set --url or WSYNC_URL, ${trust}\n` +
        `wsync.yaml:2:1: orgId: the organization is named only by wsync.yaml, ${why}, so the token is not used for it: set --org-id or WSYNC_ORG_ID, ${trust}\n`,
    );
    expect(result.code).toBe(1);
  });
});

describe('--kinds A,B is --kind A --kind B', () => {
  it('rewrites both spellings, leaves everything else and what follows -- alone', () => {
    expect(expandKindLists(['plan', '--kinds', 'Monitor,Notifier', 'dir'])).toEqual(['plan', '--kind', 'Monitor', '--kind', 'Notifier', 'dir']);
    expect(expandKindLists(['export', '--kinds=Dashboard', '--kind', 'Monitor'])).toEqual(['export', '--kind', 'Dashboard', '--kind', 'Monitor']);
    expect(expandKindLists(['plan', '--', '--kinds', 'x'])).toEqual(['plan', '--', '--kinds', 'x']);
    expect(() => expandKindLists(['plan', '--kinds', ' , '])).toThrow('--kinds: name at least one kind, e.g. --kinds Monitor,Notifier');
    expect(() => expandKindLists(['plan', '--kinds'])).toThrow(/name at least one kind/);
  });

  it('plan, apply and export take --kind, repeatable, and say that --kinds works too', () => {
    for (const name of ['plan', 'apply', 'export']) {
      const option = commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--kind');
      expect(option?.description).toContain('repeatable (--kinds A,B too');
    }
  });
});
