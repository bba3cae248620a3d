// The emulator's modules import each other without circles (#14): shared types live where they
// belong (collection.ts, capabilities.ts), not in a module that imports its importer back.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const emulatorDir = path.join(ROOT, 'src/emulator');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports (value and type-only alike) of one file, as absolute .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => path.resolve(path.dirname(file), `${specifier}.ts`));
}

function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('src/emulator imports', () => {
  const files = sourceFiles(emulatorDir);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const relative = (file: string) => path.relative(emulatorDir, file);

  it('reads the modules it checks', () => {
    expect(graph.get(path.join(emulatorDir, 'server.ts'))?.map(relative)).toContain('auth.ts');
  });

  it('has no import cycle', () => {
    expect(findCycles(graph).map((cycle) => cycle.map(relative).join(' -> '))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const looped = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findCycles(looped)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
