// Fault injection for tests: random 5xx, latency, connection resets before any answer, and
// connections destroyed after a write was applied. One seeded PRNG makes a run with --seed
// repeat the same decisions for the same sequence of requests.
import { badRequest } from './errors.js';
import { isJsonObject } from './json.js';
import { mulberry32, type Random } from './prng.js';

export interface FaultSettings {
  faultRate: number;
  latencyMs: [number, number] | null;
  resetRate: number;
  dropAfterWriteRate: number;
  /** Requests per window, or null for no limit. Kept here so /_emulator/faults can change it. */
  rateLimit: number | null;
  /** Length of a rate window in seconds: 60 (the documented per-minute limit) unless a test shortens it. */
  rateWindowSeconds: number;
  seed: number;
}

const FAULT_STATUSES = [500, 502, 503] as const;

export class Faults {
  private random: Random;

  constructor(private current: FaultSettings) {
    this.random = mulberry32(current.seed);
  }

  get settings(): FaultSettings {
    return { ...this.current, latencyMs: this.current.latencyMs ? [...this.current.latencyMs] : null };
  }

  /** Applies a POST /_emulator/faults body; a `seed` restarts the PRNG. Throws 400 on bad values. */
  update(patch: unknown): FaultSettings {
    if (!isJsonObject(patch)) throw badRequest('faults: the request body must be a JSON object');
    const next: FaultSettings = { ...this.current };
    for (const [key, value] of Object.entries(patch)) {
      switch (key) {
        case 'faultRate':
        case 'resetRate':
        case 'dropAfterWriteRate':
          next[key] = checkRate(key, value);
          break;
        case 'latencyMs':
          next.latencyMs = value === null ? null : checkLatency(value);
          break;
        case 'rateLimit':
          next.rateLimit = value === null ? null : checkPositiveInteger(key, value);
          break;
        case 'rateWindowSeconds':
          next.rateWindowSeconds = checkPositiveInteger(key, value);
          break;
        case 'seed':
          next.seed = checkInteger(key, value);
          this.random = mulberry32(next.seed);
          break;
        default:
          throw badRequest(`faults: unknown field "${key}"`);
      }
    }
    this.current = next;
    return this.settings;
  }

  shouldReset(): boolean {
    return this.current.resetRate > 0 && this.random() < this.current.resetRate;
  }

  /** A 500, 502 or 503 to answer instead of handling the request, or undefined. */
  injectedStatus(): number | undefined {
    if (this.current.faultRate <= 0 || this.random() >= this.current.faultRate) return undefined;
    return FAULT_STATUSES[Math.floor(this.random() * FAULT_STATUSES.length)] ?? 500;
  }

  latency(): number {
    const range = this.current.latencyMs;
    if (!range) return 0;
    const [min, max] = range;
    return min + Math.floor(this.random() * (max - min + 1));
  }

  shouldDropAfterWrite(): boolean {
    return this.current.dropAfterWriteRate > 0 && this.random() < this.current.dropAfterWriteRate;
  }
}

function checkRate(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw badRequest(`faults: field "${name}" must be a number from 0 to 1`);
  }
  return value;
}

/** The longest delay a Node timer keeps: a longer one fires at once (with a warning), not late. */
export const MAX_LATENCY_MS = 2 ** 31 - 1;

function checkLatency(value: unknown): [number, number] {
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !value.every((ms) => Number.isInteger(ms) && ms >= 0 && ms <= MAX_LATENCY_MS) ||
    value[0] > value[1]
  ) {
    throw badRequest(`faults: field "latencyMs" must be [min, max] with 0 <= min <= max, in milliseconds (at most ${MAX_LATENCY_MS})`);
  }
  return [value[0], value[1]];
}

function checkInteger(name: string, value: unknown): number {
  if (!Number.isSafeInteger(value)) throw badRequest(`faults: field "${name}" must be an integer`);
  return value as number;
}

function checkPositiveInteger(name: string, value: unknown): number {
  const integer = checkInteger(name, value);
  if (integer < 1) throw badRequest(`faults: field "${name}" must be >= 1 or null`);
  return integer;
}
