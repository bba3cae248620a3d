// An environment's overlay files read within the tree's limits: they are read before the base
// (the base is merged with them as it is read), and count toward the same bytes and documents,
// each checked before the file is parsed, as a base file's are.
import { documentCount } from '../parse/prescan.js';
import { processFile, type FileResult } from '../process-file.js';
import type { SecretSources } from '../interpolate/interpolate.js';
import { readText, type ListedFile } from '../read/files.js';
import { tooManyBytes, tooManyDocuments, type TreeBudget } from '../read/tree-budget.js';
import { Overlays } from './overlays.js';

export interface ReadOverlays {
  overlays: Overlays;
  /** Files that could not be read, and the limit's error when one was passed. */
  problems: FileResult[];
  /** A limit was passed: nothing more is to be read. */
  stopped: boolean;
}

/** The overlay files of `environment`, read and parsed, counted in `budget`. */
export function readOverlays(environment: string, files: readonly ListedFile[], sources: SecretSources, budget: TreeBudget): ReadOverlays {
  const texts: { path: string; text: string }[] = [];
  const problems: FileResult[] = [];
  const stop = (problem: FileResult): ReadOverlays => ({ overlays: new Overlays(environment, [], sources), problems: [...problems, problem], stopped: true });
  for (const file of files) {
    const content = readText(file, budget.bytesLeft);
    if ('overLimit' in content) return stop(tooManyBytes(file.path, budget));
    if (!('text' in content)) {
      problems.push(processFile(file, content, sources));
      continue;
    }
    budget.bytesLeft -= content.bytes;
    budget.resources += documentCount(content.text);
    // Counted before the file is parsed: parsing holds all its documents at once.
    if (budget.resources > budget.limits.maxResources) return stop(tooManyDocuments(file.path, budget));
    texts.push({ path: file.path, text: content.text });
  }
  const overlays = new Overlays(environment, texts, sources);
  // What aliases expand to reaches plans and request bodies as if it were written out.
  for (const { path, bytes } of overlays.aliasBytes) {
    budget.bytesLeft -= bytes;
    if (budget.bytesLeft < 0) return stop({ ...tooManyBytes(path, budget, true), notAFile: true });
  }
  if (texts.length > 0) budget.readFirst = `environment ${environment}'s overlay files, read first, count toward it`;
  return { overlays, problems, stopped: false };
}
