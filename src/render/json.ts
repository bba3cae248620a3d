// The machine form of a plan (`plan --out plan.json`): versioned, keys sorted, changes in plan order.
import type { JsonValue, Plan } from '../core/types.js';
import { compareText, sortKeys } from '../core/json.js';
import { applyRedaction, type RenderOptions } from './format.js';

export const PLAN_FORMAT_VERSION = 1;

export function renderJson(plan: Plan, options?: RenderOptions): string {
  return [...jsonChunks(plan, options)].join('');
}

/**
 * The JSON form in pieces, a change at a time, each redacted: the same bytes as one
 * `JSON.stringify(sortKeys(plan), null, 2)`, without the whole plan as one string and its copies
 * (a plan of 420,000 field diffs took a 384 MiB heap to its limit that way).
 */
export function* jsonChunks(plan: Plan, options?: RenderOptions): Generator<string> {
  // Through JSON first: drops undefined members, so equal plans give byte-equal files.
  const pretty = (value: unknown, indent: string): string | undefined => {
    const text = JSON.stringify(value);
    if (text === undefined) return undefined;
    return JSON.stringify(sortKeys(JSON.parse(text) as JsonValue), null, 2).replace(/\n/g, `\n${indent}`);
  };
  const whole: Record<string, unknown> = { ...plan, version: PLAN_FORMAT_VERSION };
  const keys = Object.keys(whole).sort(compareText);
  let first = true;
  yield '{';
  for (const key of keys) {
    const value = whole[key];
    if (key === 'changes' && Array.isArray(value) && value.length > 0) {
      yield `${first ? '' : ','}\n  ${JSON.stringify(key)}: [`;
      let firstChange = true;
      for (const change of value) {
        const text = pretty(change, '    ') ?? 'null';
        yield applyRedaction(`${firstChange ? '' : ','}\n    ${text}`, options);
        firstChange = false;
      }
      yield '\n  ]';
    } else {
      const text = pretty(value, '  ');
      if (text === undefined) continue;
      yield applyRedaction(`${first ? '' : ','}\n  ${JSON.stringify(key)}: ${text}`, options);
    }
    first = false;
  }
  yield first ? '}\n' : '\n}\n';
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
