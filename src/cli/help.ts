// What every command's --help ends with: the environment variables it reads, then examples of its
// common real uses; and the short error for a mistyped option (its did-you-mean and where the help is).
import type { Command } from 'commander';

/** Every WSYNC_* variable a command reads, and what it stands for. */
const VARIABLES = {
  WSYNC_URL: 'API root (--url)',
  WSYNC_TOKEN: 'API token (--token)',
  WSYNC_TOKEN_FILE: 'file holding the API token (--token-file)',
  WSYNC_ORG_ID: 'organization id for personal tokens (--org-id)',
  WSYNC_INSECURE: '1: allow plain http:// to a host that is not loopback (--insecure)',
  WSYNC_TRUST_CONFIG: "1: use wsync.yaml's url, orgId, tokenFile and insecure (--trust-config)",
  WSYNC_SECRETS_DIR: 'root for ${file:PATH} secrets (--secrets-dir)',
  WSYNC_ENV: 'the environment of wsync.yaml to render (--env)',
  WSYNC_STATE_DIR: 'inventory of owned objects (--state-dir)',
  WSYNC_ALL_ENVIRONMENTS: 'run: 1 syncs every environment of wsync.yaml in one daemon (--all-environments)',
  'WSYNC_URL_<ENV>': "run with several environments: that environment's API URL (also WSYNC_TOKEN_FILE_<ENV>, WSYNC_TOKEN_<ENV>, WSYNC_ORG_ID_<ENV>; ENV the name in capitals, - as _)",
  WSYNC_MAX_INPUT_BYTES: 'most YAML the tree may hold (--max-input-bytes)',
  WSYNC_MAX_RESOURCES: 'most resources the tree may declare (--max-resources)',
  WSYNC_LISTEN: 'health, metrics and status address (--listen)',
  WSYNC_RESYNC: 'schedule of the drift-correcting reconcile (--resync)',
  WSYNC_FREEZE: 'freeze windows, "CRON DURATION [TIMEZONE]" split by ";" (--freeze)',
  WSYNC_LOG_LEVEL: 'log level (--log-level)',
  WSYNC_SUSPEND: '1: start suspended (--suspended)',
  WSYNC_STATUS_AUTH: '1: the status page and /status need the control token (--status-auth)',
  WSYNC_CONTROL_TOKEN: 'the control token itself',
  WSYNC_CONTROL_TOKEN_FILE: 'file holding the control token (--control-token-file)',
  WSYNC_NOTIFY_WEBHOOK_URL: 'webhook for events (--notify-webhook)',
  WSYNC_NOTIFY_WEBHOOK_SECRET: 'HMAC key of the webhook signature itself',
  WSYNC_NOTIFY_WEBHOOK_SECRET_FILE: 'file holding that key (--notify-webhook-secret-file)',
  WSYNC_NOTIFY_SLACK_URL: 'Slack incoming webhook URL itself',
  WSYNC_NOTIFY_SLACK_URL_FILE: 'file holding that URL (--notify-slack-url-file)',
  WSYNC_DAEMON_URL: "the daemon's port (--daemon)",
  WSYNC_EMULATOR_TOKEN: 'the admin token the emulator accepts (--token)',
  WSYNC_ANNOTATE: '1: annotate the datasets written with the applied revision (--annotate)',
  WSYNC_ANNOTATE_URL_TEMPLATE: "the annotation's link, {revision} replaced (--annotate-url-template)",
  WSYNC_COMMIT_STATUS: '1: set a GitHub commit status on the applied revision (--commit-status)',
  WSYNC_GITHUB_REPOSITORY: 'owner/name of the repository the commit statuses go to',
  WSYNC_GITHUB_TOKEN: 'GitHub token for them (statuses: write)',
  WSYNC_GITHUB_TOKEN_FILE: 'file holding that token',
  WSYNC_GITHUB_API_URL: 'GitHub API root (default https://api.github.com; Enterprise: https://HOST/api/v3)',
  WSYNC_COMMIT_STATUS_CONTEXT: "the status's context (default wsync)",
  WSYNC_COMMIT_STATUS_URL: 'where the status links (a CI run)',
  WSYNC_REVISION: 'the revision apply names when DIR is not a git work tree (--revision)',
  WSYNC_WRITE_BACK: 'kinds whose drift made in the workspace is written back as a pull request, or "all" (--write-back)',
  WSYNC_WRITE_BACK_REMOTE: 'the git remote the write-back branch is pushed to (--write-back-remote)',
  WSYNC_WRITE_BACK_BRANCH: 'the write-back branch (--write-back-branch; default wsync/write-back)',
  WSYNC_WRITE_BACK_BASE: 'the branch the daemon syncs from, the pull request\'s base (--write-back-base; default main)',
  WSYNC_WRITE_BACK_TO_BASE: '1: the write-back branch may be the base branch (--write-back-to-base)',
  WSYNC_WRITE_BACK_PATH: "DIR's folder inside the repository (--write-back-path)",
  WSYNC_WRITE_BACK_DIR: "the write-back branch's checkout (--write-back-dir; default STATE_DIR/write-back)",
  WSYNC_WRITE_BACK_HOLD: 'enforce mode: kinds not put back until the pull request is merged or closed, "all" or "none" (--write-back-hold)',
  WSYNC_WRITE_BACK_AUTHOR: 'the write-back commits\' author, "Name <email>" (default wsync <wsync@localhost>)',
} as const;

export type Variable = keyof typeof VARIABLES;

/** The variables of a command that talks to the workspace. */
export const CONNECTION_VARIABLES: readonly Variable[] = ['WSYNC_URL', 'WSYNC_TOKEN', 'WSYNC_TOKEN_FILE', 'WSYNC_ORG_ID', 'WSYNC_INSECURE', 'WSYNC_TRUST_CONFIG'];
/** The variables of a command that reads a tree of files. */
export const TREE_VARIABLES: readonly Variable[] = ['WSYNC_SECRETS_DIR', 'WSYNC_ENV', 'WSYNC_MAX_INPUT_BYTES', 'WSYNC_MAX_RESOURCES'];

function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

/**
 * Adds "Environment:" (the variables the command reads, flags win over them) and "Examples:"
 * (command line, what it does) to the end of the command's --help.
 */
export function addHelpFooter(cmd: Command, footer: { variables?: readonly Variable[]; examples: readonly (readonly [string, string])[] }): Command {
  const parts: string[] = [];
  if (footer.variables && footer.variables.length > 0) {
    parts.push(`Environment (a flag wins over its variable):\n${table(footer.variables.map((name) => [name, VARIABLES[name]]))}`);
  }
  const examples = footer.examples.map(([line, what]) => `  # ${what}\n  ${line}`).join('\n');
  parts.push(`Examples:\n${examples}`);
  return cmd.addHelpText('after', `\n${parts.join('\n\n')}\n`);
}

/**
 * A mistyped option or command is a short error: commander's message and did-you-mean, then where
 * the help is, instead of the whole help.
 */
export function shortUsageErrors(program: Command): void {
  program.showHelpAfterError(`(see ${program.name()} --help)`);
  for (const cmd of program.commands) cmd.showHelpAfterError(`(see ${program.name()} ${cmd.name()} --help)`);
}
