import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/core/types.js';
import { type KindName, type KindSpecs, SCHEMA_KIND_NAMES } from '../../src/generated/kinds.js';
import type { DashboardSpec, MonitorSpec, NotifierSpec, RoleSpec } from '../../src/generated/spec-types.js';
import { KIND_NAMES, KINDS, type KindModule } from '../../src/kinds/index.js';
import type { ArrayPath, Defaults, KeyedArray, Reference, ReferenceOf, SpecFields, SpecPath } from '../../src/kinds/types.js';

// The kind contract is checked by the compiler: `npm run typecheck` covers this file, and each
// `@ts-expect-error` below fails the typecheck if its line compiles (a typo a kind module could make).

/** A kind module's wire shape, typed against the spec of `Spec`; the rest of the module left out. */
type WireShapeOf<Spec> = Pick<KindModule<Spec>, 'secretFields' | 'setFields' | 'defaults' | 'immutable' | 'references'>;

const monitorShape: WireShapeOf<MonitorSpec> = {
  secretFields: [],
  setFields: ['notifiers'],
  defaults: { description: '', notifiers: [] },
  immutable: ['type'],
  references: [{ field: 'notifiers', wireField: 'notifierIds', target: 'Notifier', many: true }],
};

describe('the kind contract, typed against the generated spec types', () => {
  it('accepts the spec paths of the kind, `*` for any key, and arrays as set fields', () => {
    expectTypeOf<'properties.customWebhook.secretHeaders.*'>().toMatchTypeOf<SpecPath<NotifierSpec>>();
    expectTypeOf<'datasetCapabilities.*.*'>().toMatchTypeOf<ArrayPath<RoleSpec>>();
    expectTypeOf<{ path: 'dashboard.charts'; key: 'id' }>().toMatchTypeOf<KeyedArray<DashboardSpec>>();
    expect(monitorShape.setFields).toEqual(['notifiers']);
  });

  it('refuses a field the schema does not have, in every list of the wire shape', () => {
    // @ts-expect-error a typo in a secret field
    const secret: KindModule<NotifierSpec>['secretFields'] = ['properties.slack.slackURL'];
    // @ts-expect-error a set field must be an array of the spec (description is a string)
    const set: KindModule<RoleSpec>['setFields'] = ['description'];
    // @ts-expect-error a default for a field monitors do not have
    const defaults: Defaults<MonitorSpec> = { descripton: '' };
    // @ts-expect-error an immutable field of another kind
    const immutable: KindModule<MonitorSpec>['immutable'] = ['mapFields'];
    // @ts-expect-error a reference from a field monitors do not have
    const reference: ReferenceOf<MonitorSpec> = { field: 'notifier', wireField: 'notifierIds', target: 'Notifier', many: true };
    // @ts-expect-error a keyed array keyed by a field its items do not have
    const keyed: KeyedArray<DashboardSpec> = { path: 'dashboard.charts', key: 'uid' };
    // @ts-expect-error below an open document only `*` is a path, not a misspelt field
    const open: SpecPath<DashboardSpec> = 'dashboard.datsets';
    expect([secret, set, defaults, immutable, reference, keyed, open]).toHaveLength(7);
  });

  it('lets a hook read only the fields of its spec, each any JSON value', () => {
    const hooks: Pick<KindModule<MonitorSpec>, 'writeReason' | 'datasetOf'> = {
      writeReason: (spec) => (spec.disabled === true ? 'disabled' : undefined),
      // @ts-expect-error a hook reading a field monitors do not have
      datasetOf: (spec) => String(spec.dataset),
    };
    expectTypeOf<SpecFields<MonitorSpec>>().toMatchTypeOf<JsonObject>();
    expectTypeOf<SpecFields<MonitorSpec>['threshold']>().toEqualTypeOf<JsonValue | undefined>();
    expect(hooks.writeReason?.({ disabled: true })).toBe('disabled');
  });

  it('erases every kind module to the one the registry holds, never the other way round', () => {
    expectTypeOf<KindModule<MonitorSpec>>().toMatchTypeOf<KindModule>();
    expectTypeOf<KindModule>().not.toMatchTypeOf<KindModule<MonitorSpec>>();
    expectTypeOf<Reference<'notifiers'>>().toMatchTypeOf<Reference>();
    expectTypeOf<KindModule['setFields']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf(KINDS.Monitor).toEqualTypeOf<KindModule>();
    expect(KINDS.Monitor.setFields).toEqual(['notifiers']);
  });
});

describe('kind names from the schemas', () => {
  it('are the registry kinds, each module named by its key', () => {
    expectTypeOf<keyof typeof KINDS>().toEqualTypeOf<KindName>();
    expectTypeOf<keyof KindSpecs>().toEqualTypeOf<KindName>();
    expect([...KIND_NAMES].sort()).toEqual([...SCHEMA_KIND_NAMES]);
    for (const name of KIND_NAMES) expect(KINDS[name].kind).toBe(name);
  });
});

const schemaDir = join(import.meta.dirname, '..', '..', 'schemas');
const schemas = new Map<string, JsonObject>();
function schemaFile(file: string): JsonObject {
  let schema = schemas.get(file);
  if (!schema) {
    schema = JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as JsonObject;
    schemas.set(file, schema);
  }
  return schema;
}

type Node = { file: string; node: JsonObject };

/** The schema a `$ref` points at (`file.json`, `file.json#/definitions/x`, `#/definitions/x`). */
function resolved({ file, node }: Node): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string') return { file, node };
  const [refFile, pointer] = ref.split('#');
  const target = refFile ? refFile : file;
  let at: JsonObject = schemaFile(target);
  for (const part of (pointer ?? '').split('/').filter(Boolean)) at = at[part] as JsonObject;
  return resolved({ file: target, node: at });
}

/** A schema and the schemas it combines (`allOf`, `anyOf`, `oneOf`), refs resolved. */
function shapes(from: Node): Node[] {
  const { file, node } = resolved(from);
  const parts = ['allOf', 'anyOf', 'oneOf'].flatMap((key) => (Array.isArray(node[key]) ? (node[key] as JsonObject[]) : []));
  return [{ file, node }, ...parts.flatMap((part) => shapes({ file, node: part }))];
}

/** The schemas a path segment leads to (`*`: every property and any additional one). */
function step(from: Node, segment: string): Node[] {
  return shapes(from).flatMap(({ file, node }) => {
    const properties = (node.properties ?? {}) as Record<string, JsonObject>;
    const extra = typeof node.additionalProperties === 'object' && node.additionalProperties !== null ? [node.additionalProperties as JsonObject] : [];
    const next = segment === '*' ? [...Object.values(properties), ...extra] : properties[segment] ? [properties[segment]] : extra;
    return next.map((child) => ({ file, node: child }));
  });
}

function specHasPath(kind: KindName, path: string): boolean {
  const file = KINDS[kind].schemaFile;
  const spec = (schemaFile(file).properties as Record<string, JsonObject>).spec;
  let nodes: Node[] = spec ? [{ file, node: spec }] : [];
  for (const segment of path.split('.')) nodes = nodes.flatMap((node) => step(node, segment));
  return nodes.length > 0;
}

describe('the spec paths every kind module names', () => {
  it('are in its schema (what the compiler checks, checked against the schemas themselves)', () => {
    for (const kind of KIND_NAMES) {
      const module = KINDS[kind];
      const paths = [
        ...module.secretFields,
        ...module.setFields,
        ...Object.keys(module.defaults),
        ...module.computed,
        ...module.timestamps,
        ...module.immutable,
        ...(module.uncleared ?? []),
        ...(module.writeOptions ?? []),
        ...(module.keyedArrays ?? []).map((keyed) => keyed.path),
        ...module.references.map((reference) => reference.field),
        ...(module.documentFile ? [module.documentFile.pathField, module.documentFile.documentField] : []),
      ];
      const missing = paths.filter((path) => !specHasPath(kind, path));
      expect(missing, kind).toEqual([]);
    }
  });
});
