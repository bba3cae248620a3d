// Plan renderers: text for terminals, json for `--out plan.json`, markdown for pull requests.
export { renderText } from './text.js';
export type { TextOptions } from './text.js';
export { parsePlanJson, PLAN_FORMAT_VERSION, renderJson } from './json.js';
export { codeSpan, escapeMarkdown, renderMarkdown } from './markdown.js';
export {
  ACTION_SYMBOL,
  formatDiff,
  formatValue,
  hasPendingChanges,
  hasWrites,
  isAppliable,
  summarySentence,
} from './format.js';
export type { RenderOptions } from './format.js';
