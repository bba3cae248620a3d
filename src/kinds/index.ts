import { withoutAbsentTimes } from '../core/time.js';
import { annotation } from './annotation.js';
import { apiToken } from './apitoken.js';
import { dashboard } from './dashboard.js';
import { dataset } from './dataset.js';
import { datasetField } from './datasetfield.js';
import { group } from './group.js';
import { monitor } from './monitor.js';
import { notifier } from './notifier.js';
import { org } from './org.js';
import { role } from './role.js';
import { starredQuery } from './starredquery.js';
import type { KindName, KindSpecs } from '../generated/kinds.js';
import type { KindModule } from './types.js';
import { user } from './user.js';
import { userRole } from './userrole.js';
import { view } from './view.js';
import { virtualField } from './virtualfield.js';

export type { KindName } from '../generated/kinds.js';
export type { KindModule } from './types.js';

/**
 * The module with the rules every kind shares (see KINDS): natural keys in Unicode NFC, and a
 * timestamp read as `null`, `""` or Go's zero time left out of the live spec (it means "no time").
 */
function withSharedRules<Module extends KindModule>(module: Module): Module {
  return {
    ...module,
    keyOf: (name, spec) => module.keyOf(name, spec).normalize('NFC'),
    fromWire: (raw, resolveId) => {
      const read = module.fromWire(raw, resolveId);
      const spec = withoutAbsentTimes(read.spec, module.timestamps);
      return spec === read.spec ? read : { ...read, spec };
    },
  };
}

/**
 * The registry: every kind wsync manages, by name. A new kind is one entry here (and its module,
 * schema, emulator module, example and tests); it does not compile until the schemas name the kind
 * (`npm run gen:types`) and its entry is a `KindModule` of that kind's spec type. The order is the
 * tie-break within a dependency level: plans, metrics and exports list kinds in it.
 *
 * Natural keys compare in Unicode NFC, wherever they come from (files, the API, references): `café`
 * typed with a combining accent is the same object as `café` typed with one character. A live
 * timestamp that means "no time" is absent, for every kind (read, diff, export).
 */
const REGISTRY = {
  Dataset: withSharedRules(dataset),
  Role: withSharedRules(role),
  Notifier: withSharedRules(notifier),
  Org: withSharedRules(org),
  User: withSharedRules(user),
  UserRole: withSharedRules(userRole),
  Group: withSharedRules(group),
  Monitor: withSharedRules(monitor),
  StarredQuery: withSharedRules(starredQuery),
  VirtualField: withSharedRules(virtualField),
  DatasetField: withSharedRules(datasetField),
  Annotation: withSharedRules(annotation),
  View: withSharedRules(view),
  ApiToken: withSharedRules(apiToken),
  Dashboard: withSharedRules(dashboard),
} satisfies { readonly [K in KindName]: KindModule<KindSpecs[K]> };

/**
 * The registry as its readers see it: each module with its spec paths erased to strings
 * (`KindModule`), so one kind is read like any other. The entries above are checked against their
 * own spec types first: one per kind the schemas name, and no other.
 */
export const KINDS: { readonly [K in KindName]: KindModule } = REGISTRY;

/** Every kind name, in registry order. */
export const KIND_NAMES: readonly KindName[] = Object.keys(KINDS) as KindName[];

/** Every kind in dependency order (the order writes run in; deletes run in reverse). */
export const KINDS_IN_ORDER: readonly KindModule[] = KIND_NAMES.map((name) => KINDS[name]).sort(
  (a, b) => a.level - b.level,
);

/** Each kind name to itself: the registry's own copy of the text. */
const KIND_NAME_TEXT: ReadonlyMap<string, KindName> = new Map(KIND_NAMES.map((name) => [name, name]));

/** A map, not a list: a parsed document's kind is a fresh string, compared by hash rather than with every name. */
export function isKindName(value: string): value is KindName {
  return KIND_NAME_TEXT.has(value);
}

/**
 * The registry's copy of a kind name: a parsed document's kind is a fresh string each time, and
 * indexing KINDS (or any record) by it looks the text up again at each use.
 */
export function canonicalKind(kind: KindName): KindName {
  return KIND_NAME_TEXT.get(kind) ?? kind;
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
