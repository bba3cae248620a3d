import { resolve } from 'node:path';
import { KIND_NAMES, KINDS, parseKindName } from '../../../kinds/index.js';
import { loadSchemas, schemaDescription, writeSchemas } from '../../../source/validate/schema-files.js';
import { schemaDir } from '../../../util/package-root.js';

export interface SchemaResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const ENVELOPE = 'envelope.json';
const CONFIG = 'config.json';

function rows(): [string, string, string][] {
  const schemas = loadSchemas();
  const envelope = schemas.get(ENVELOPE);
  const out: [string, string, string][] = [['envelope', ENVELOPE, envelope ? schemaDescription(envelope) : '']];
  for (const kind of KIND_NAMES) out.push([kind, KINDS[kind].schemaFile, KINDS[kind].description]);
  const config = schemas.get(CONFIG);
  out.push(['config', CONFIG, config ? schemaDescription(config) : '']);
  return out;
}

function table(): string {
  const list = rows();
  const kindWidth = Math.max(...list.map((r) => r[0].length));
  const fileWidth = Math.max(...list.map((r) => r[1].length));
  const lines = list.map(([kind, file, description]) => `${kind.padEnd(kindWidth)}  ${file.padEnd(fileWidth)}  ${description}`);
  lines.push(
    '',
    `Schemas are in ${schemaDir()}. Print one with: wsync schema KIND`,
    'Editors validate as you type when a file starts with: # yaml-language-server: $schema=<path>/monitor.json',
    'Copy them next to your files with: wsync schema --write DIR',
  );
  return `${lines.join('\n')}\n`;
}

function fileFor(name: string): string | undefined {
  if (name.trim().toLowerCase() === 'envelope') return ENVELOPE;
  if (['config', 'wsync.yaml'].includes(name.trim().toLowerCase())) return CONFIG;
  const kind = parseKindName(name);
  return kind ? KINDS[kind].schemaFile : undefined;
}

/** `wsync schema [KIND] [--all]`. */
export function renderSchemas(kind: string | undefined, options: { all?: boolean } = {}): SchemaResult {
  const schemas = loadSchemas();
  if (options.all) {
    if (kind !== undefined) return { stdout: '', stderr: 'wsync schema: give a KIND or --all, not both\n', exitCode: 1 };
    return { stdout: `${JSON.stringify(Object.fromEntries(schemas), null, 2)}\n`, stderr: '', exitCode: 0 };
  }
  if (kind === undefined) return { stdout: table(), stderr: '', exitCode: 0 };
  const file = fileFor(kind);
  const schema = file === undefined ? undefined : schemas.get(file);
  if (schema === undefined) {
    const names = ['envelope', ...KIND_NAMES, 'config'].join(', ');
    return { stdout: '', stderr: `wsync schema: unknown kind "${kind}"; one of ${names}\n`, exitCode: 1 };
  }
  return { stdout: `${JSON.stringify(schema, null, 2)}\n`, stderr: '', exitCode: 0 };
}

/** `wsync schema --write DIR`, DIR relative to `cwd`. */
export async function writeSchemaFiles(dir: string, cwd: string): Promise<SchemaResult> {
  let written: string[];
  try {
    written = await writeSchemas(resolve(cwd, dir));
  } catch (err) {
    return { stdout: '', stderr: `wsync schema: ${err instanceof Error ? err.message : String(err)}\n`, exitCode: 1 };
  }
  const stdout = [
    `Wrote ${written.length} schemas to ${dir}.`,
    'Editors check a resource file against one when its first line is, with the path from that file to the folder:',
    '# yaml-language-server: $schema=<path>/monitor.json',
    '',
  ].join('\n');
  return { stdout, stderr: '', exitCode: 0 };
}
