// The fingerprint of a plan's held changes (src/plan/held.ts makes it): a module of its own, so
// that the commands check `--approve` and `wsync ctl approve` without loading the planner.

/** `held-` + 12 hex digits for the set of held changes + 12 for the live objects they touch. */
export const HELD_FINGERPRINT = /^held-([0-9a-f]{12})-([0-9a-f]{12})$/;

/** The fingerprint as given, trimmed; throws a plain message when it is not one. */
export function parseHeldFingerprint(value: string): string {
  const text = value.trim();
  if (!HELD_FINGERPRINT.test(text)) {
    throw new Error(`expected the fingerprint a plan printed for its held changes (held-XXXXXXXXXXXX-XXXXXXXXXXXX), got "${value}"`);
  }
  return text;
}
