// The words of a write-back (#26.2): the commit message names each object, its fields and, where
// the service says it, who changed it and when; the pull request says what the branch is. Pure.
import type { DriftedObject } from './drift.js';

export const PULL_REQUEST_TITLE = 'wsync: changes made in the workspace';
const MAX_FIELDS = 20;

export interface PulledObject {
  kind: string;
  key: string;
  /** The fields written into the files. */
  fields: string[];
}

function objectLine(object: PulledObject, drifted: DriftedObject | undefined): string {
  const fields = object.fields.length > MAX_FIELDS ? [...object.fields.slice(0, MAX_FIELDS), `and ${object.fields.length - MAX_FIELDS} more`] : object.fields;
  const by = [drifted?.who === undefined ? '' : `by ${drifted.who}`, drifted?.when === undefined ? '' : `at ${drifted.when}`].filter((s) => s !== '').join(' ');
  return `- ${object.kind}/${object.key}: ${fields.join(', ')}${by === '' ? '' : ` (changed ${by})`}`;
}

/** `wsync: KIND/KEY changed in the workspace` (or how many), then a line per object. */
export function commitMessage(pulled: readonly PulledObject[], drifted: readonly DriftedObject[]): string {
  const [first] = pulled;
  const subject = pulled.length === 1 && first ? `wsync: ${first.kind}/${first.key} changed in the workspace` : `wsync: ${pulled.length} objects changed in the workspace`;
  const lines = pulled.map((o) => objectLine(o, drifted.find((d) => d.kind === o.kind && d.key === o.key)));
  return `${subject}\n\nWritten back by wsync run from the live workspace:\n\n${lines.join('\n')}\n`;
}

/** The pull request's body: what the branch holds (its commits' messages, newest first) and what merging or closing it does. */
export function pullRequestBody(messages: readonly string[], holding: boolean): string {
  const effect = holding
    ? 'Until this pull request is merged or closed, wsync does not put these objects back to what the files say. Merge it to keep the changes; close it and wsync puts the files\u2019 values back.'
    : 'Merge it to keep the changes in git; otherwise the next apply of the files puts them back.';
  return `Changes made in the workspace (the UI or the API), written back into the files by \`wsync run\`.\n\n${effect}\n\n${messages.map((m) => m.trim()).join('\n\n---\n\n')}\n`;
}
