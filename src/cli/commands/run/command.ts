import { Option, type Command } from 'commander';
import { addConnectionOptions, addTrustConfigOption } from '../../connection.js';
import { addLimitOptions, type LimitFlags } from '../../limits.js';
import { addPolicyOptions, type PolicyFlags } from '../../policy.js';
import { addRevisionMarkOptions, REVISION_MARK_VARIABLES, type RevisionMarkFlags } from '../../revision-mark-options.js';
import type { SettingsFlags } from '../../settings.js';
import type { CommandContext } from '../index.js';
import type { NotifyFlags } from './notifications.js';
import { addWriteBackOptions, WRITE_BACK_VARIABLES, type WriteBackFlags } from './write-back-options.js';
import { addHelpFooter, CONNECTION_VARIABLES, TREE_VARIABLES } from '../../help.js';

export interface RunFlags extends PolicyFlags, SettingsFlags, LimitFlags, NotifyFlags, RevisionMarkFlags, WriteBackFlags {
  tokenOutputDir?: string;
  listen?: string;
  resync?: string;
  debounce?: string;
  mode?: string;
  concurrency?: string;
  logLevel?: string;
  logFormat?: string;
  freeze?: string[];
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('run')
    .description('the daemon: reconcile at start, on every change under DIR and on a schedule; serve health, readiness, metrics and a status page')
    .argument('[dir]', 'directory of resource files; may be a git-sync symbolic link', '.')
    .option('--state-dir <dir>', 'inventory of owned objects (env WSYNC_STATE_DIR; default DIR/.wsync, or <parent of the link>/.wsync when DIR is a symbolic link)')
    .option('--secrets-dir <dir>', 'root for ${file:PATH} secrets (env WSYNC_SECRETS_DIR)')
    .option('--token-output-dir <dir>', 'where secrets of created API tokens are written (default STATE_DIR/tokens)')
    .option('--listen <host:port>', 'address of the health, metrics and status port; port 0 picks one (env WSYNC_LISTEN; default 127.0.0.1:9464)')
    .option('--resync <cron>', 'schedule of the drift-correcting reconcile, or "off" (env WSYNC_RESYNC; default "*/5 * * * *")')
    .option('--debounce <ms>', 'wait this long after the last file change before reconciling (default 200)')
    .option('--freeze <window>', 'a freeze window, "CRON DURATION [TIMEZONE]" (repeatable; env WSYNC_FREEZE, windows split by ";"; wsync.yaml freeze): inside one, reconciles plan and report, nothing is written', collect)
    .addOption(new Option('--mode <mode>', 'enforce: converge; observe: report drift, never write').choices(['enforce', 'observe']).default('enforce'))
    .option('--concurrency <n>', 'changes applied at once within a dependency level (default 4)')
    .option('--log-level <level>', 'trace, debug, info, warn, error, fatal or silent (env WSYNC_LOG_LEVEL; default info)')
    .addOption(new Option('--log-format <format>', 'json lines, or pretty (default: pretty on a terminal)').choices(['auto', 'json', 'pretty']).default('auto'))
    .option('--notify-webhook <url>', 'post events (failed, refused, drift in observe mode, recovered) as signed JSON to this URL (env WSYNC_NOTIFY_WEBHOOK_URL)')
    .option('--notify-webhook-secret-file <file>', 'HMAC-SHA256 key of the webhook signature (env WSYNC_NOTIFY_WEBHOOK_SECRET_FILE, or the key in WSYNC_NOTIFY_WEBHOOK_SECRET)')
    .option('--notify-slack-url-file <file>', 'file holding a Slack incoming webhook URL to post events to (env WSYNC_NOTIFY_SLACK_URL_FILE, or the URL in WSYNC_NOTIFY_SLACK_URL)')
    .option('--control-token-file <file>', 'enables POST /suspend, /resume, /reconcile for requests bearing this token (env WSYNC_CONTROL_TOKEN_FILE or WSYNC_CONTROL_TOKEN)')
    .option('--suspended', 'start suspended: plan and report, write nothing until `wsync ctl resume` (env WSYNC_SUSPEND=1)')
    .option('--status-auth', 'the status page and /status require the control token too; /healthz, /readyz and /metrics stay open (env WSYNC_STATUS_AUTH=1)');
  addConnectionOptions(cmd);
  addTrustConfigOption(cmd);
  cmd
    .option(
      '--env <name>',
      'an environment of wsync.yaml to sync: its vars and overlays in environments/NAME/ (env WSYNC_ENV, names split by ","); repeatable: one daemon syncs each, with its own connection (WSYNC_URL_<ENV> and the like), state, lease and status',
      collect,
    )
    .option('--all-environments', 'sync every environment wsync.yaml declares, each as with a repeated --env (env WSYNC_ALL_ENVIRONMENTS=1)');
  addPolicyOptions(cmd);
  addLimitOptions(cmd);
  addRevisionMarkOptions(cmd, { revision: false });
  addWriteBackOptions(cmd);
  addHelpFooter(cmd, {
    variables: [
      ...CONNECTION_VARIABLES,
      ...TREE_VARIABLES,
      'WSYNC_STATE_DIR',
      'WSYNC_ALL_ENVIRONMENTS',
      'WSYNC_URL_<ENV>',
      'WSYNC_LISTEN',
      'WSYNC_RESYNC',
      'WSYNC_FREEZE',
      'WSYNC_LOG_LEVEL',
      'WSYNC_SUSPEND',
      'WSYNC_STATUS_AUTH',
      'WSYNC_CONTROL_TOKEN',
      'WSYNC_CONTROL_TOKEN_FILE',
      'WSYNC_NOTIFY_WEBHOOK_URL',
      'WSYNC_NOTIFY_WEBHOOK_SECRET',
      'WSYNC_NOTIFY_WEBHOOK_SECRET_FILE',
      'WSYNC_NOTIFY_SLACK_URL',
      'WSYNC_NOTIFY_SLACK_URL_FILE',
      ...REVISION_MARK_VARIABLES,
      ...WRITE_BACK_VARIABLES,
    ],
    examples: [
      ['wsync run /git/workspace', "next to git-sync: reconcile at start, on every change of the link's target, and every 5 minutes"],
      ['wsync run --suspended --listen 0.0.0.0:9464 /git/workspace', 'plan and report only, metrics on every address, until wsync ctl resume'],
      ['wsync run --prune --control-token-file /etc/wsync/control workspace', 'also prune, and accept wsync ctl suspend/resume/reconcile'],
      ['wsync run --env staging --env prod /git/workspace', 'one daemon, two workspaces: each with WSYNC_URL_STAGING / WSYNC_TOKEN_FILE_STAGING, ..._PROD'],
      ['wsync run --freeze "0 22 * * 5 60h" --freeze "0 0 20 12 * 14d Europe/Berlin" workspace', 'write nothing from Friday 22:00 UTC to Monday 10:00, nor over the holidays'],
      ['wsync run --mode observe --write-back all --write-back-remote git@github.com:acme/workspace.git /git/workspace', 'UI edits become commits on wsync/write-back and one pull request (WSYNC_GITHUB_TOKEN)'],
    ],
  });
  cmd.action(async (dir: string, parsed: Omit<RunFlags, 'env'> & { env?: string[]; allEnvironments?: boolean }) => {
    // Loaded when run: start-up of the other commands never pays for the daemon, pino and undici.
    const { runDaemon } = await import('./action.js');
    const { selectionOf } = await import('./workspaces.js');
    const { env: envs, allEnvironments, ...options } = parsed;
    let selection;
    try {
      selection = selectionOf(envs, allEnvironments, context.io.env);
    } catch (err) {
      context.io.stderr.write(`run: ${err instanceof Error ? err.message : String(err)}\n`);
      context.exit(1);
      return;
    }
    const code = await runDaemon(dir, options, context.io, selection);
    context.exit(code);
    // Everything is closed by now; should a library still hold the event loop open, do not hang.
    const owner = context.io.process;
    if (owner) setTimeout(() => owner.exit(code), 1000).unref();
  });
}
