export const REDACTED = '(sensitive)';

/**
 * Returns a function that replaces every known secret value in a text with `(sensitive)`, as
 * written and as it appears inside a JSON string (quotes, backslashes, newlines escaped). The one
 * redaction of every output: each command's terminal and JSON output, the daemon's log lines, its
 * status page and JSON, its notifications. A last line of defence for anything printed: secrets
 * should never get near output at all.
 */
export function createRedactor(secrets: Iterable<string>): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Very short values would blank out ordinary words; secrets that short are not secrets.
  const values = [...forms].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    return out;
  };
}
