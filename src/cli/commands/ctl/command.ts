import { Argument, Option, type Command } from 'commander';
import { addHelpFooter } from '../../help.js';
import type { CommandContext } from '../index.js';

export interface CtlFlags {
  daemon?: string;
  controlTokenFile?: string;
  insecure?: boolean;
  format?: string;
  timeout?: string;
  overrideFreeze?: boolean;
  env?: string;
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('ctl')
    .description('control a running `wsync run`: suspend (plan only, write nothing), resume, reconcile now, status, approve exactly the held changes')
    .addArgument(new Argument('<verb>', 'what to ask').choices(['suspend', 'resume', 'reconcile', 'status', 'approve']))
    .addArgument(new Argument('[fingerprint]', 'approve: the fingerprint of the held changes (the daemon shows it)'))
    .option('--daemon <url>', "the daemon's port (env WSYNC_DAEMON_URL; default http:// + WSYNC_LISTEN, or http://127.0.0.1:9464)")
    .option('--control-token-file <file>', 'the control token the daemon was started with (env WSYNC_CONTROL_TOKEN_FILE or WSYNC_CONTROL_TOKEN); status needs none')
    .option('--insecure', 'allow sending the token in plain http to a host that is not loopback')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']).default('text'))
    .option('--timeout <ms>', 'how long to wait for the daemon (default 5000)')
    .option('--env <name>', 'a daemon that syncs several environments: the one to act on or show (default: every one)')
    .option('--override-freeze', 'reconcile: this one reconcile writes even inside a freeze window (an emergency)')
    .action(async (verb: string, fingerprint: string | undefined, options: CtlFlags) => {
      const { runCtl } = await import('./action.js');
      context.exit(await runCtl(verb, options, context.io, fingerprint));
    });
  addHelpFooter(cmd, {
    variables: ['WSYNC_DAEMON_URL', 'WSYNC_LISTEN', 'WSYNC_CONTROL_TOKEN', 'WSYNC_CONTROL_TOKEN_FILE'],
    examples: [
      ['wsync ctl status', 'what the daemon on this machine is doing (needs no token)'],
      ['wsync ctl suspend --control-token-file /etc/wsync/control', 'stop writing (it still plans and reports), e.g. during an incident'],
      ['wsync ctl reconcile --daemon http://wsync.ops:9464 --control-token-file control', 'reconcile now instead of at the next change'],
      ['wsync ctl reconcile --override-freeze --control-token-file control', 'an emergency fix inside a freeze window: one reconcile writes'],
      ['wsync ctl suspend --env prod --control-token-file control', 'a daemon of several environments: stop writing to prod only'],
      ['wsync ctl approve held-0123456789ab-cdef01234567 --control-token-file control', 'let exactly the held changes the daemon shows through, at a reconcile now'],
    ],
  });
}
