// Spec paths as types: the dotted paths a kind module names (secret fields, set fields, defaults,
// references, ...) computed from the kind's generated spec type (src/generated/spec-types.ts), so
// a path the schema does not have is a compile error in the kind module that names it.

import type { JsonObject, JsonValue } from '../core/types.js';

/**
 * The spec type of no kind in particular: every path is a string (the form the planner reads).
 * `unknown`, so that every kind's `KindModule<Spec>` is assignable to the erased `KindModule`.
 */
export type ErasedSpec = unknown;

/**
 * A spec as a hook sees it: the kind's fields by name, each any JSON value or absent (hooks see
 * specs no schema checked too: live ones, read back). A field the spec type does not have is a
 * compile error; the erased spec is any JSON object.
 */
export type SpecFields<Spec> = unknown extends Spec ? JsonObject : { [K in keyof Spec & string]?: JsonValue };

/** One less than each depth: paths stop after this many segments (every kind's fit in 4). */
type Shallower = [never, 0, 1, 2, 3, 4, 5];

/** The named keys of `S`, without its index signatures (a map's keys are `*`). */
type NamedKey<S> = keyof { [K in keyof S as string extends K ? never : number extends K ? never : K]: 0 } & string;

type Continue<Head extends string, Value, Depth extends number> = Head | `${Head}.${Walk<NonNullable<Value>, Shallower[Depth]>}`;

/**
 * Every dotted path into `S`: its keys, `*` for any key of an object (a map's keys, or each of a
 * record's fields), and the paths below each. Paths stop at arrays (compared as a whole, as a set,
 * or item by item by `KeyedArray`) and at values of no known shape.
 */
type Walk<S, Depth extends number> = [Depth] extends [never]
  ? never
  : S extends readonly unknown[]
    ? never
    : S extends object
      ?
          | { [K in NamedKey<S>]: Continue<K, S[K], Depth> }[NamedKey<S>]
          | ([keyof S] extends [never] ? never : Continue<'*', S[keyof S], Depth>)
      : never;

/** The value at one segment of `S` (`*`: any field's). */
type Step<S, Head extends string> = S extends object
  ? Head extends '*'
    ? NonNullable<S[keyof S]>
    : Head extends keyof S
      ? NonNullable<S[Head]>
      : string extends keyof S
        ? NonNullable<S[string & keyof S]>
        : never
  : never;

/** The type of the value at spec path `P` of `S`. */
export type ValueAt<S, P extends string> = P extends `${infer Head}.${infer Rest}` ? ValueAt<Step<S, Head>, Rest> : Step<S, P>;

/** A dotted spec path of `Spec` (`*` matches any key); any string for the erased spec. */
export type SpecPath<Spec> = unknown extends Spec ? string : Walk<Spec, 6>;

/** A spec path of `Spec` that holds an array. */
export type ArrayPath<Spec> = unknown extends Spec
  ? string
  : { [P in SpecPath<Spec>]: ValueAt<Spec, P> extends readonly unknown[] ? P : never }[SpecPath<Spec>];

/** The fields of the items of the array at spec path `P` (a keyed array's key is one of them). */
export type ItemField<Spec, P extends string> = unknown extends Spec
  ? string
  : ValueAt<Spec, P> extends readonly (infer Item)[]
    ? keyof Item & string
    : never;
