// An environment's overlay of a base resource (environments/NAME/*.yaml, same kind and name):
// merged over the base document before it is schema-checked, so the merged resource is checked as
// a whole. Maps merge by key, lists and scalars replace, `null` removes a field. What came from the
// overlay keeps the overlay's positions, so a problem in it is reported at the overlay's line.
import { isJsonObject, setOwn } from '../../core/json.js';
import type { JsonObject, SourceLocation } from '../../core/types.js';
import type { ParsedDocument } from '../parse/document.js';
import { pointerSegment } from '../parse/field-path.js';

function under(pointer: string, base: string): boolean {
  return pointer === base || (pointer.startsWith(base) && pointer.charCodeAt(base.length) === 47 /* / */);
}

/** What the overlay replaced or removed (pointers whose base part is gone) and what it wrote. */
interface Merged {
  value: JsonObject;
  /** Pointers the overlay replaced or removed: the base's records under them no longer apply. */
  replaced: string[];
  /** Pointers of map keys both sides have, where the overlay's key position is kept. */
  touched: string[];
}

function mergeMaps(base: JsonObject, overlay: JsonObject, at: string, merged: Merged): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(base)) setOwn(out, key, value);
  for (const [key, value] of Object.entries(overlay)) {
    const pointer = `${at}/${pointerSegment(key)}`;
    const current = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    if (value === null) {
      delete out[key];
      merged.replaced.push(pointer);
    } else if (isJsonObject(value) && isJsonObject(current)) {
      merged.touched.push(pointer);
      setOwn(out, key, mergeMaps(current, value, pointer, merged));
    } else {
      setOwn(out, key, value);
      merged.replaced.push(pointer);
    }
  }
  return out;
}

/** The merge of two plain values (maps by key, the rest replaced, null removes); for tests and tools. */
export function mergeValues(base: JsonObject, overlay: JsonObject): JsonObject {
  return mergeMaps(base, overlay, '', { value: {}, replaced: [], touched: [] });
}

function isUnder(pointer: string, pointers: readonly string[]): boolean {
  return pointers.some((p) => under(pointer, p));
}

/**
 * The base document with the overlay merged over it. Both must be mappings (the caller matched
 * them by kind and name). Diagnostics of both are kept; positions, interpolated strings and
 * reported pointers come from the overlay where it wrote, from the base elsewhere.
 */
export function mergeOverlay(base: ParsedDocument, overlay: ParsedDocument): ParsedDocument {
  const merged: Merged = { value: {}, replaced: [], touched: [] };
  merged.value = mergeMaps(base.value as JsonObject, overlay.value as JsonObject, '', merged);
  const fromOverlay = (pointer: string): boolean => isUnder(pointer, merged.replaced);
  const locations: Record<string, SourceLocation> = {};
  // Spreading reads every key: a lazily located document is located now (an overlay is rare).
  for (const [pointer, location] of Object.entries(base.locations)) if (!fromOverlay(pointer)) locations[pointer] = location;
  for (const [pointer, location] of Object.entries(overlay.locations)) {
    if (fromOverlay(pointer) || merged.touched.includes(pointer)) locations[pointer] = location;
  }
  const written = new Map<string, string>();
  for (const [pointer, text] of base.written) if (!fromOverlay(pointer)) written.set(pointer, text);
  for (const [pointer, text] of overlay.written) if (fromOverlay(pointer)) written.set(pointer, text);
  const reported = new Set<string>([...base.reported].filter((p) => !fromOverlay(p)));
  for (const pointer of overlay.reported) if (fromOverlay(pointer)) reported.add(pointer);
  return {
    value: merged.value,
    start: base.start,
    locations,
    interpolated: [...base.interpolated.filter((p) => !fromOverlay(p)), ...overlay.interpolated.filter(fromOverlay)],
    written,
    reported,
    // A base problem under a field the overlay replaced (a variable prod does not define, where
    // prod's overlay writes the value) is no problem of the merged resource.
    diagnostics: [...base.diagnostics.filter((d) => !diagnosticUnder(d, base, merged.replaced)), ...overlay.diagnostics],
    // The overlay's were counted where it was read (read-overlays.ts).
    aliasBytes: base.aliasBytes,
    ...(base.variables || overlay.variables ? { variables: new Map([...(base.variables ?? []), ...(overlay.variables ?? [])]) } : {}),
  };
}

/** Whether a diagnostic of the base sits at a position the overlay replaced. */
function diagnosticUnder(d: { file?: string; line?: number; column?: number }, base: ParsedDocument, replaced: readonly string[]): boolean {
  if (replaced.length === 0 || d.line === undefined) return false;
  for (const pointer of [...base.reported]) {
    const at = base.locations[pointer];
    if (at && at.line === d.line && at.file === d.file && isUnder(pointer, replaced)) return true;
  }
  return false;
}
