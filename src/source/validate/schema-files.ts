import { readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../state/atomic.js';
import { schemaDir } from '../../util/package-root.js';

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

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Every schema as the file `schema --write` and `export` write: name and text, in name order. */
export function schemaFileTexts(): Array<{ file: string; text: string }> {
  return [...loadSchemas()].map(([file, schema]) => ({ file, text: `${JSON.stringify(schema, null, 2)}\n` }));
}

/**
 * Every schema file into `dir` (created when missing), each replaced atomically, so that
 * `# yaml-language-server: $schema=` lines can point at a folder that does not move when wsync is
 * upgraded. Files of `dir` that are not schemas are left alone. Throws an Error naming the path.
 */
export async function writeSchemas(dir: string): Promise<string[]> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new Error(`cannot create ${dir}: ${errorText(err)}`);
  }
  const written: string[] = [];
  for (const { file, text } of schemaFileTexts()) {
    const path = join(dir, file);
    try {
      await writeFileAtomic(path, text, 0o644);
    } catch (err) {
      throw new Error(`cannot write ${path}: ${errorText(err)}`);
    }
    written.push(file);
  }
  return written;
}
