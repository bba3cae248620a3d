import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Node } from 'yaml';
import type { Diagnostic } from '../core/types.js';
import type { WorkspaceConfig } from '../generated/spec-types.js';
import { decodeUtf8, invalidUtf8Message } from './read/utf8.js';
import { validatorFor } from './validate/validator.js';
import { yamlLibrary } from './parse/yaml-lib.js';
import { environmentsProblems } from './environments/declared.js';

export const CONFIG_FILE = 'wsync.yaml';

export interface WorkspaceConfigResult {
  /** The settings, with paths made absolute against DIR. Empty when there is no wsync.yaml. */
  config: WorkspaceConfig;
  diagnostics: Diagnostic[];
  /** Where each setting of the file is (its key), so that a refusal can name the line. */
  positions: Partial<Record<keyof WorkspaceConfig, { line: number; column: number }>>;
}

const PATH_KEYS = ['tokenFile', 'secretsDir', 'stateDir'] as const;
const TARGET_PATH_KEYS = ['urlFile', 'secretFile'] as const;
/** The one `not` in config.json: a Slack webhook URL is a secret, and Slack takes no HMAC key. */
const NOT_MESSAGE = 'a slack target takes its URL from urlFile or urlEnv (the URL is a secret), and no secretFile or secretEnv';

/** Reads the optional DIR/wsync.yaml: connection and paths that flags and environment override. */
export function readWorkspaceConfig(dir: string): WorkspaceConfigResult {
  const file = join(dir, CONFIG_FILE);
  if (!existsSync(file)) return { config: {}, diagnostics: [], positions: {} };
  const decoded = decodeUtf8(readFileSync(file));
  if ('invalidAt' in decoded) {
    const { line, column } = decoded.invalidAt;
    const message = invalidUtf8Message(decoded.invalidAt);
    return { config: {}, diagnostics: [{ severity: 'error', code: 'config', file: CONFIG_FILE, line, column, message }], positions: {} };
  }
  const { LineCounter, parseDocument, isMap } = yamlLibrary();
  const lines = new LineCounter();
  const doc = parseDocument(decoded.text, { lineCounter: lines, uniqueKeys: true });
  const at = (node: Node | null | undefined): { line: number; column: number } => {
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    return { line: pos.line, column: pos.col };
  };
  const problem = (node: Node | null | undefined, message: string, field?: string): Diagnostic => ({
    severity: 'error',
    code: 'config',
    file: CONFIG_FILE,
    ...at(node),
    ...(field ? { field } : {}),
    message,
  });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const pos = lines.linePos(first.pos[0]);
    return {
      config: {},
      diagnostics: [{ severity: 'error', code: 'config', file: CONFIG_FILE, line: pos.line, column: pos.col, message: first.message.split('\n')[0] ?? 'invalid YAML' }],
      positions: {},
    };
  }
  const value: unknown = doc.toJS() ?? {};
  const contents = isMap(doc.contents) ? doc.contents : undefined;
  const nodeOf = (key: string): Node | null | undefined => {
    const pair = contents?.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
    return (pair?.key as Node | undefined) ?? doc.contents;
  };
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'token' in value) {
    return {
      config: {},
      diagnostics: [
        problem(nodeOf('token'), 'a token never belongs in a file in git: use tokenFile, --token-file or WSYNC_TOKEN', 'token'),
      ],
      positions: {},
    };
  }
  const validate = validatorFor('config.json');
  if (!validate(value)) {
    // `if` only repeats what its `then` already said.
    const diagnostics = (validate.errors ?? []).filter((e) => e.keyword !== 'if').map((e) => {
      const segments = e.instancePath.split('/').slice(1);
      const extra = e.keyword === 'additionalProperties' ? String((e.params as { additionalProperty?: string }).additionalProperty) : undefined;
      const path = extra === undefined ? segments : [...segments, extra];
      const field = path.join('.');
      const node = path.length > 1 ? (doc.getIn(path.map((p) => (/^\d+$/.test(p) ? Number(p) : p)), true) as Node | undefined) : undefined;
      const what =
        extra !== undefined
          ? `unknown setting "${field}"`
          : `${field || 'wsync.yaml'}: ${e.keyword === 'not' ? NOT_MESSAGE : (e.message ?? 'invalid')}`;
      return problem(node ?? (path[0] ? nodeOf(path[0]) : doc.contents), what, field || undefined);
    });
    return { config: {}, diagnostics, positions: {} };
  }
  const environmentProblems = environmentsProblems(value as WorkspaceConfig);
  if (environmentProblems.length > 0) {
    const diagnostics = environmentProblems.map((p) => problem(doc.getIn(p.path, true) as Node | undefined, p.message, p.path.join('.')));
    return { config: {}, diagnostics, positions: {} };
  }
  const config = { ...(value as WorkspaceConfig) };
  for (const key of PATH_KEYS) {
    const path = config[key];
    if (path !== undefined && !isAbsolute(path)) config[key] = resolve(dir, path);
  }
  if (config.notifications?.targets) {
    const targets = config.notifications.targets.map((target) => {
      const copy = { ...target };
      for (const key of TARGET_PATH_KEYS) {
        const path = copy[key];
        if (path !== undefined && !isAbsolute(path)) copy[key] = resolve(dir, path);
      }
      return copy;
    });
    config.notifications = { ...config.notifications, targets };
  }
  const positions: WorkspaceConfigResult['positions'] = {};
  for (const key of Object.keys(config) as (keyof WorkspaceConfig)[]) positions[key] = at(nodeOf(key));
  return { config, diagnostics: [], positions };
}

/** The config as the environment variables it stands in for, so flags > env > file falls out. */
export function configAsEnv(config: WorkspaceConfig): Record<string, string | undefined> {
  return {
    WSYNC_URL: config.url,
    WSYNC_ORG_ID: config.orgId,
    WSYNC_TOKEN_FILE: config.tokenFile,
    WSYNC_SECRETS_DIR: config.secretsDir,
    WSYNC_STATE_DIR: config.stateDir,
    WSYNC_INSECURE: config.insecure ? '1' : undefined,
  };
}
