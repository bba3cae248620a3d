// The tree `wsync init` starts a team with: one notifier and one monitor that use it, each with
// the modeline that gives an editor the schema, the schemas themselves, a .gitignore that keeps
// the state directory out of git, and a wsync.yaml whose every setting is a comment.
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeSchemas } from './validate/schema-files.js';

export interface InitFile {
  path: string;
  text: string;
}

const CONFIG = `# yaml-language-server: $schema=.schemas/config.json
# Settings for every wsync command run on this directory. Flags and WSYNC_* variables win over
# them. url, orgId, tokenFile, insecure and a secretsDir outside this directory are used only with
# --trust-config (WSYNC_TRUST_CONFIG=1): a pull request can change this file, so it cannot choose
# where the token goes. Uncomment what you need.

# API root (WSYNC_URL):
# url: https://api.axiom.co
# Organization id, for personal tokens (WSYNC_ORG_ID):
# orgId: my-org-1234
# File holding the API token, relative to this file (WSYNC_TOKEN_FILE); never the token itself:
# tokenFile: /run/secrets/wsync-token
# Root of \${file:PATH} secrets, relative to this file (WSYNC_SECRETS_DIR):
# secretsDir: secrets
# Where wsync keeps what it owns (WSYNC_STATE_DIR; default .wsync, kept out of git by .gitignore):
# stateDir: .wsync
# Per-request timeout in milliseconds:
# timeoutMs: 30000
`;

const GITIGNORE = `# wsync's state: what it owns, the key of its secret hashes, API token secrets it wrote.
.wsync/
`;

const NOTIFIER = `# yaml-language-server: $schema=../.schemas/notifier.json
# Where alerts go. A secret (a Slack URL, a routing key) is written as \${env:NAME} or
# \${file:PATH}, never in git.
apiVersion: wsync/v1
kind: Notifier
metadata:
  name: oncall-email
spec:
  properties:
    email:
      emails: [oncall@example.com]
`;

const DATASET = `# yaml-language-server: $schema=../.schemas/dataset.json
# The dataset the monitor reads. Declared here, it is created when the workspace has none yet (a
# monitor on a dataset that does not exist is refused), and adopted as it is when it exists.
# wsync never deletes a dataset unless told with --prune --allow-delete Dataset.
apiVersion: wsync/v1
kind: Dataset
metadata:
  name: logs
spec:
  description: Application logs
`;

const MONITOR = `# yaml-language-server: $schema=../.schemas/monitor.json
# An APL query starts with ['dataset']: quote the whole value, or YAML reads a list.
apiVersion: wsync/v1
kind: Monitor
metadata:
  name: error-rate
spec:
  type: Threshold
  description: More than 100 errors in five minutes.
  aplQuery: "['logs'] | where level == 'error' | summarize count() by bin_auto(_time)"
  operator: Above
  threshold: 100
  intervalMinutes: 5
  rangeMinutes: 5
  notifiers: [oncall-email]
`;

/** The files `wsync init` writes, relative to its directory (the schemas come on top). */
export function initialFiles(): InitFile[] {
  return [
    { path: 'wsync.yaml', text: CONFIG },
    { path: '.gitignore', text: GITIGNORE },
    { path: 'datasets/logs.yaml', text: DATASET },
    { path: 'notifiers/oncall.yaml', text: NOTIFIER },
    { path: 'monitors/error-rate.yaml', text: MONITOR },
  ];
}

export class InitTargetError extends Error {}

/**
 * Writes the initial tree into `dir` (made if missing). Never replaces a file: if any of them
 * exists, nothing is written. Returns the paths written, relative to `dir`.
 */
export async function writeInitialTree(dir: string): Promise<string[]> {
  const files = initialFiles();
  const taken: string[] = [];
  for (const file of files) {
    try {
      await (await open(join(dir, file.path), 'r')).close();
      taken.push(file.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err;
    }
  }
  if (taken.length > 0) throw new InitTargetError(`${taken.join(', ')} already in ${dir}: nothing written (init starts a new tree)`);
  for (const file of files) {
    const path = join(dir, file.path);
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(file.text, 'utf8');
    } finally {
      await handle.close();
    }
  }
  const schemas = await writeSchemas(join(dir, '.schemas'));
  return [...files.map((f) => f.path), `.schemas/ (${schemas.length} schemas)`];
}
