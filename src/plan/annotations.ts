// The per-object policies a resource carries in metadata.annotations.
import type { DesiredResource, Policy } from '../core/types.js';

const ANNOTATION_PRUNE = 'wsync/prune';
export const ANNOTATION_MODE = 'wsync/mode';
const ANNOTATION_IGNORE_FIELDS = 'wsync/ignore-fields';

/** `wsync/ignore-fields: "description, properties.email"` -> [['description'], ['properties', 'email']]. */
export function ignoredFields(resource: DesiredResource): string[][] {
  const text = resource.annotations[ANNOTATION_IGNORE_FIELDS];
  if (!text) return [];
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => part.split('.'));
}

export function isObserved(resource: DesiredResource | undefined, policy: Policy): boolean {
  return policy.mode === 'observe' || resource?.annotations[ANNOTATION_MODE] === 'observe';
}

export function isPruneDisabled(resource: DesiredResource): boolean {
  return resource.annotations[ANNOTATION_PRUNE] === 'disabled';
}
