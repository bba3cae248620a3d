// Plan renderers: text for terminals, json for `--out plan.json`, markdown for pull requests.
export { diffLines, renderText, textChunks } from './text.js';
export type { TextOptions } from './text.js';
export { jsonChunks, parsePlanJson, PLAN_FORMAT_VERSION, renderJson } from './json.js';
export { codeSpan, escapeMarkdown, markdownChunks, markdownDiffLines, renderMarkdown } from './markdown.js';
export {
  ACTION_SYMBOL,
  formatValue,
  hasPendingChanges,
  hasWrites,
  isAppliable,
  summarySentence,
} from './format.js';
export type { RenderOptions } from './format.js';
export { elementCounts, hunkLine, markPiece, viewDiff } from './field-diff.js';
export type { DiffView, WordHunk, WordPiece } from './field-diff.js';
