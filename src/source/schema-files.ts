import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaDir } from '../util/package-root.js';

export type SchemaDocument = Record<string, unknown>;

let cache: Map<string, SchemaDocument> | undefined;

/** Every schemas/*.json by file name (`monitor.json`), read once. */
export function loadSchemas(): ReadonlyMap<string, SchemaDocument> {
  if (cache) return cache;
  const dir = schemaDir();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  cache = new Map(files.map((file) => [file, JSON.parse(readFileSync(join(dir, file), 'utf8')) as SchemaDocument]));
  return cache;
}

export function schemaDescription(schema: SchemaDocument): string {
  return typeof schema.description === 'string' ? schema.description : '';
}
