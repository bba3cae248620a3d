import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Desired, Diagnostic } from '../../src/core/types.js';
import { desiredFromTexts, type ReadOptions } from '../../src/source/index.js';

/** A temporary directory holding `files` (relative path -> text); removed by `cleanup`. */
export function makeTree(files: Record<string, string>, prefix = 'wsync-source-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeTree(dir, files);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** One file's worth of YAML read as if from a directory. */
export function readOne(text: string, options: ReadOptions = {}, path = 'r.yaml'): Desired {
  return desiredFromTexts([{ path, text }], { env: {}, ...options });
}

export function errorsOf(desired: Desired): Diagnostic[] {
  return desired.diagnostics.filter((d) => d.severity === 'error');
}

/** `apiVersion: wsync/v1` + the rest, as lines. */
export function doc(...lines: string[]): string {
  return ['apiVersion: wsync/v1', ...lines, ''].join('\n');
}
