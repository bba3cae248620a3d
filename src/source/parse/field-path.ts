import { escapePointerSegment } from '../../core/json-paths.js';

/** Dotted display form of a pointer's segments: `spec.notifiers[0]`. */
export function dottedPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out;
}

/** `spec.notifiers[0]: ` for messages, or nothing at the document root. */
export function fieldPrefix(segments: readonly (string | number)[]): string {
  return segments.length === 0 ? '' : `${dottedPath(segments)}: `;
}

/** Pointer segment escaping (RFC 6901) without the regex work for the usual plain key. */
export function pointerSegment(key: string): string {
  return key.includes('~') || key.includes('/') ? escapePointerSegment(key) : key;
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** The key a merge key (`<<`) introduces: written plain, untagged; `"<<"` is an ordinary key. */
export const MERGE_KEY = '<<';
