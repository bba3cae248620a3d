// The machine form of a plan (`plan --out plan.json`): versioned, keys sorted, changes in plan order.
import type { JsonValue, Plan } from '../core/types.js';
import { sortKeys } from '../core/json.js';
import { applyRedaction, type RenderOptions } from './format.js';

export const PLAN_FORMAT_VERSION = 1;

export function renderJson(plan: Plan, options?: RenderOptions): string {
  // Through JSON first: drops undefined members, so equal plans give byte-equal files.
  const value = JSON.parse(JSON.stringify({ ...plan, version: PLAN_FORMAT_VERSION })) as JsonValue;
  return applyRedaction(`${JSON.stringify(sortKeys(value), null, 2)}\n`, options);
}

/** Reads a plan file written by renderJson; throws with a plain message on anything else. */
export function parsePlanJson(text: string): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`not a plan file: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a plan file: expected a JSON object');
  const plan = value as Partial<Plan>;
  if (plan.version !== PLAN_FORMAT_VERSION) {
    throw new Error(`plan file version ${String(plan.version)} is not supported (expected ${PLAN_FORMAT_VERSION})`);
  }
  if (!Array.isArray(plan.changes) || !plan.fingerprint || !plan.summary || !Array.isArray(plan.refusals) || !Array.isArray(plan.diagnostics)) {
    throw new Error('not a plan file: changes, diagnostics, refusals, summary or fingerprint missing');
  }
  return plan as Plan;
}
