// Durations as people write them in flags and annotations: `24h`, `90m`, `2d`, `0s`, and, as Go and
// the Terraform provider take them, several parts in a row (`1h30m`, `2d12h`, `1.5h`, `500ms`).

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const WHOLE = /^(?:\d{1,6}(?:\.\d{1,6})?(?:ms|[smhd]))+$/;
const PART = /(\d{1,6}(?:\.\d{1,6})?)(ms|[smhd])/g;

/** Milliseconds of `48h` or `1h30m`-style text (parts of a number and one of ms, s, m, h, d), or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of trimmed.matchAll(PART)) ms += Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
  return Math.round(ms);
}

/** The shortest exact spelling of a duration: 86400000 -> `24h`, 5400000 -> `90m`. */
export function formatDuration(ms: number): string {
  for (const unit of ['h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] ?? 1;
    if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}
