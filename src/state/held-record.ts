// The held changes the last applies left (#27.4), beside the inventory: an `apply --approve` that
// no longer fits names what moved since (no longer held, held now too, changed live). Only
// fingerprints, `Kind/key` and hashes: nothing a secret could be read from.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HeldChanges } from '../core/types.js';
import { writeFileAtomic } from './atomic.js';

const FILE = 'held.json';
/** Enough for the plans someone may still be approving. */
const KEPT = 10;

function isHeldChanges(value: unknown): value is HeldChanges {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.fingerprint === 'string' && typeof v.count === 'number' && Array.isArray(v.changes) && v.objects !== null && typeof v.objects === 'object';
}

/** The held sets recorded in the state directory, newest first; none when there is no (readable) record. */
export async function readHeldRecords(stateDir: string): Promise<HeldChanges[]> {
  let text: string;
  try {
    text = await readFile(join(stateDir, FILE), 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isHeldChanges) : [];
  } catch {
    return [];
  }
}

/** Records `held` first, keeping the last few others. */
export async function recordHeldChanges(stateDir: string, held: HeldChanges): Promise<void> {
  const earlier = (await readHeldRecords(stateDir)).filter((h) => h.fingerprint !== held.fingerprint);
  await writeFileAtomic(join(stateDir, FILE), `${JSON.stringify([held, ...earlier].slice(0, KEPT), null, 2)}\n`);
}
