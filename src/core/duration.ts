// Durations as people write them in flags and annotations: `24h`, `90m`, `2d`, `0s`.

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of `48h`-style text (a whole number and one of s, m, h, d), or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? 0);
}

/** The shortest exact spelling of a duration: 86400000 -> `24h`, 5400000 -> `90m`. */
export function formatDuration(ms: number): string {
  for (const unit of ['h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] ?? 1;
    if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}
