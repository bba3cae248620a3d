import { KIND_NAMES, type KindName } from '../core/types.js';
import { annotation } from './annotation.js';
import { apiToken } from './apitoken.js';
import { datasetField } from './datasetfield.js';
import { monitor } from './monitor.js';
import { notifier } from './notifier.js';
import { org } from './org.js';
import { role } from './role.js';
import { starredQuery } from './starredquery.js';
import type { KindModule } from './types.js';
import { user } from './user.js';
import { virtualField } from './virtualfield.js';

export type { KindModule } from './types.js';

/**
 * Natural keys compare in Unicode NFC, wherever they come from (files, the API, references): `café`
 * typed with a combining accent is the same object as `café` typed with one character.
 */
function withNfcKeys(module: KindModule): KindModule {
  return { ...module, keyOf: (name, spec) => module.keyOf(name, spec).normalize('NFC') };
}

export const KINDS: Readonly<Record<KindName, KindModule>> = {
  Role: withNfcKeys(role),
  Notifier: withNfcKeys(notifier),
  Org: withNfcKeys(org),
  User: withNfcKeys(user),
  Monitor: withNfcKeys(monitor),
  StarredQuery: withNfcKeys(starredQuery),
  VirtualField: withNfcKeys(virtualField),
  DatasetField: withNfcKeys(datasetField),
  Annotation: withNfcKeys(annotation),
  ApiToken: withNfcKeys(apiToken),
};

/** Every kind in dependency order (the order writes run in; deletes run in reverse). */
export const KINDS_IN_ORDER: readonly KindModule[] = KIND_NAMES.map((name) => KINDS[name]).sort(
  (a, b) => a.level - b.level,
);

export function isKindName(value: string): value is KindName {
  return (KIND_NAMES as readonly string[]).includes(value);
}

export function kindModule(kind: KindName): KindModule {
  return KINDS[kind];
}

/** Accepts `Monitor`, `monitor`, `monitors`: what a user types after --kinds or `schema`. */
export function parseKindName(text: string): KindName | undefined {
  const lower = text.trim().toLowerCase();
  for (const module of Object.values(KINDS)) {
    if (module.kind.toLowerCase() === lower || module.plural === lower || `${module.kind.toLowerCase()}s` === lower) {
      return module.kind;
    }
  }
  return undefined;
}
