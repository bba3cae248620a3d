import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { registeredOwnCredentials, type OwnCredential } from '../../core/own-credentials.js';
import { MAX_SECRET_FILE_BYTES } from '../limits.js';
import { variableText, type VariableSource } from '../environments/variables.js';

/** Where `${env:}` and `${file:}` read from, and what they have read so far (one per readDesired call). */
export interface SecretSources {
  env: Record<string, string | undefined>;
  /** As configured (flag or WSYNC_SECRETS_DIR); undefined when none is. */
  secretsDir: string | undefined;
  /** Every value read, so output can be scrubbed of them. */
  secretValues: Set<string>;
  /** Per path as written: the file's contents or why it cannot be read. */
  fileCache: Map<string, { value: string } | { error: string }>;
  /** The secrets directory's real path, resolved once. */
  root?: { real: string } | { error: string };
  /** wsync's own credentials as they stand when first needed: what each is, its file's real path, its value. */
  credentials?: { what: string; real?: string; value: string }[];
  /**
   * References are checked as written and left so, nothing is read: for a run without the secrets
   * (a pull request from a fork). The schemas accept `${env:}`/`${file:}` as written, as editors do.
   */
  asWritten?: boolean;
  /** The rendered environment's `${var:}` values (plain, never secrets): resolved even as written. */
  variables?: VariableSource;
}

export function createSecretSources(
  env: Record<string, string | undefined>,
  secretsDir: string | undefined,
  options: { asWritten?: boolean; variables?: VariableSource } = {},
): SecretSources {
  const sources: SecretSources = { env, secretsDir, secretValues: new Set(), fileCache: new Map(), asWritten: options.asWritten === true };
  if (options.variables) sources.variables = options.variables;
  return sources;
}

export interface Interpolated {
  value: string;
  /** True when some part of the value came from `${env:}` or `${file:}`. */
  secret: boolean;
  /** Problems, phrased without any value that was read. */
  errors: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * wsync's own credentials: a file that names one would copy the workspace token (or the daemon's
 * control or notification secrets) into an object, whose notifier or webhook may send it anywhere.
 */
const OWN_CREDENTIALS: Record<string, string> = {
  WSYNC_TOKEN: 'the API token',
  WSYNC_CONTROL_TOKEN: 'the control token',
  WSYNC_NOTIFY_WEBHOOK_SECRET: "the webhook's signing key",
  WSYNC_NOTIFY_SLACK_URL: 'the Slack webhook URL',
  WSYNC_GITHUB_TOKEN: 'the GitHub token',
};
/** The files the environment names for them (the flags' files are registered where they are read). */
const OWN_CREDENTIAL_FILES: Record<string, string> = {
  WSYNC_TOKEN_FILE: 'the API token',
  WSYNC_CONTROL_TOKEN_FILE: 'the control token',
  WSYNC_NOTIFY_WEBHOOK_SECRET_FILE: "the webhook's signing key",
  WSYNC_NOTIFY_SLACK_URL_FILE: 'the Slack webhook URL',
  WSYNC_GITHUB_TOKEN_FILE: 'the GitHub token',
};
/** A credential this long is refused inside a longer value too (`Bearer <token>`); a shorter one only whole. */
const MIN_CONTAINED_CREDENTIAL = 8;
const HINT = 'use ${env:NAME}, ${file:PATH} or ${var:NAME}; write $${ for a literal ${';
/** What an empty variable usually is: a CI secret that was never defined is passed on as "". */
export const EMPTY_SECRET = 'a CI secret that is not defined (e.g. GitHub\'s ${{ secrets.NAME }}) reads as empty';

/** Resolves `${env:NAME}`, `${file:PATH}` and the `$${` escape in one string scalar. */
export function interpolate(text: string, sources: SecretSources): Interpolated {
  if (!text.includes('${')) return { value: text, secret: false, errors: [] };
  let out = '';
  let secret = false;
  const errors: string[] = [];
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf('$', i);
    if (dollar < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, dollar);
    if (text.startsWith('$${', dollar)) {
      out += '${';
      i = dollar + 3;
      continue;
    }
    if (!text.startsWith('${', dollar)) {
      out += '$';
      i = dollar + 1;
      continue;
    }
    const close = text.indexOf('}', dollar + 2);
    if (close < 0) {
      errors.push(`unterminated "\${" (${HINT})`);
      out += text.slice(dollar);
      break;
    }
    const expression = text.slice(dollar + 2, close);
    const resolved = expression.startsWith('var:') ? variableText(expression.slice(4), sources.variables) : resolveExpression(expression, sources);
    if ('error' in resolved) {
      errors.push(resolved.error);
      out += text.slice(dollar, close + 1);
    } else if (expression.startsWith('var:')) {
      // A variable is plain: shown in plans, never scrubbed from output.
      out += resolved.value;
    } else {
      out += resolved.value;
      secret = true;
      if (!sources.asWritten) remember(resolved.value, sources);
    }
    i = close + 1;
  }
  return { value: out, secret, errors };
}

function remember(value: string, sources: SecretSources): void {
  sources.secretValues.add(value);
  // A multi-line secret (a PEM key) could surface one line at a time.
  if (value.includes('\n')) {
    for (const line of value.split(/\r?\n/)) if (line.trim().length >= 8) sources.secretValues.add(line.trim());
  }
}

function shown(expression: string): string {
  const text = expression.length > 80 ? `${expression.slice(0, 77)}...` : expression;
  return `\${${text}}`;
}

function resolveExpression(expression: string, sources: SecretSources): { value: string } | { error: string } {
  const colon = expression.indexOf(':');
  const scheme = colon < 0 ? '' : expression.slice(0, colon);
  const argument = colon < 0 ? '' : expression.slice(colon + 1);
  if (scheme === 'env') {
    if (!ENV_NAME.test(argument)) return { error: `${shown(expression)}: not a valid environment variable name` };
    if (Object.hasOwn(OWN_CREDENTIALS, argument)) return { error: `${shown(expression)}: ${argument} is wsync's own credential, never a value of a resource` };
    if (sources.asWritten) return { value: `\${${expression}}` };
    const value = sources.env[argument];
    if (value === undefined) return { error: `environment variable ${argument} is not set (${shown(expression)})` };
    if (value === '') return { error: `environment variable ${argument} is set but empty (${shown(expression)}): ${EMPTY_SECRET}` };
    const own = ownCredentialIn(value, undefined, sources);
    return own === undefined ? { value } : { error: `${shown(expression)}: ${own}` };
  }
  if (scheme === 'file') {
    if (argument.length === 0) return { error: `${shown(expression)}: missing a path` };
    if (sources.asWritten) return { value: `\${${expression}}` };
    let cached = sources.fileCache.get(argument);
    if (cached === undefined) {
      cached = readSecretFile(argument, sources);
      sources.fileCache.set(argument, cached);
    }
    if ('error' in cached) return { error: `${shown(expression)}: ${cached.error}` };
    return cached.value === '' ? { error: `${shown(expression)}: the file is empty` } : cached;
  }
  return { error: `unknown placeholder ${shown(expression)} (${HINT})` };
}

function secretsRoot(sources: SecretSources): { real: string } | { error: string } {
  if (sources.root) return sources.root;
  const dir = sources.secretsDir;
  if (dir === undefined || dir === '') {
    sources.root = { error: 'no secrets directory is configured (pass --secrets-dir DIR or set WSYNC_SECRETS_DIR)' };
  } else {
    try {
      const real = realpathSync(resolve(dir));
      sources.root = statSync(real).isDirectory()
        ? { real }
        : { error: `the secrets directory ${dir} is not a directory` };
    } catch {
      sources.root = { error: `the secrets directory ${dir} does not exist` };
    }
  }
  return sources.root;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function readSecretFile(path: string, sources: SecretSources): { value: string } | { error: string } {
  const root = secretsRoot(sources);
  if ('error' in root) return root;
  if (path.split(/[\\/]+/).includes('..')) return { error: 'the path must stay inside the secrets directory (no "..")' };
  const configured = resolve(sources.secretsDir ?? '');
  let candidate: string;
  if (isAbsolute(path)) {
    const absolute = resolve(path);
    if (!inside(configured, absolute) && !inside(root.real, absolute)) {
      return { error: 'an absolute path must point inside the secrets directory' };
    }
    candidate = absolute;
  } else {
    candidate = resolve(root.real, path);
  }
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return { error: 'no such file in the secrets directory' };
  }
  // A symbolic link inside the directory must not lead out of it.
  if (!inside(root.real, real)) return { error: 'the path leads outside the secrets directory' };
  let value: string;
  try {
    const stat = statSync(real);
    if (!stat.isFile()) return { error: 'not a regular file' };
    if (stat.size > MAX_SECRET_FILE_BYTES) return { error: `larger than ${MAX_SECRET_FILE_BYTES} bytes` };
    // Editors end files with a newline that is not part of the secret.
    value = readFileSync(real, 'utf8').replace(/\r?\n$/, '');
  } catch {
    return { error: 'the file cannot be read' };
  }
  const own = ownCredentialIn(value, real, sources);
  return own === undefined ? { value } : { error: own };
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(resolve(path));
  } catch {
    return undefined;
  }
}

function currentValue(credential: Pick<OwnCredential, 'value'>): string {
  try {
    return credential.value().trim();
  } catch {
    return '';
  }
}

/** wsync's own credentials: those the command has read, and those the environment names. */
function ownCredentials(sources: SecretSources): NonNullable<SecretSources['credentials']> {
  if (sources.credentials) return sources.credentials;
  const known: OwnCredential[] = [...registeredOwnCredentials()];
  for (const [name, what] of Object.entries(OWN_CREDENTIALS)) {
    const value = sources.env[name];
    if (value) known.push({ what, value: () => value });
  }
  for (const [name, what] of Object.entries(OWN_CREDENTIAL_FILES)) {
    const path = sources.env[name];
    if (path) known.push({ what, path, value: () => readFileSync(path, 'utf8') });
  }
  sources.credentials = known.map((credential) => {
    const real = credential.path === undefined ? undefined : realPathOf(credential.path);
    return { what: credential.what, value: currentValue(credential), ...(real === undefined ? {} : { real }) };
  });
  return sources.credentials;
}

/**
 * Why `value` (read from the file `real`, when from a file) must not go into a resource: it is, or
 * holds, one of wsync's own credentials. Says which, never the value.
 */
function ownCredentialIn(value: string, real: string | undefined, sources: SecretSources): string | undefined {
  const credentials = ownCredentials(sources);
  const file = real === undefined ? undefined : credentials.find((c) => c.real === real);
  if (file) return `the file is ${file.what}, wsync's own credential: never a value of a resource`;
  const trimmed = value.trim();
  const held = credentials.find(
    (c) => c.value !== '' && (trimmed === c.value || (c.value.length >= MIN_CONTAINED_CREDENTIAL && value.includes(c.value))),
  );
  return held && `the value holds ${held.what}, wsync's own credential: never a value of a resource`;
}
