export const REDACTED = '(sensitive)';

/**
 * Returns a function that replaces every known secret value in a text with `(sensitive)`.
 * A last line of defence for anything printed: secrets should never get near output at all.
 */
export function createRedactor(secrets: Iterable<string>): (text: string) => string {
  // Very short values would blank out ordinary words; secrets that short are not secrets.
  const values = [...new Set(secrets)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    return out;
  };
}
