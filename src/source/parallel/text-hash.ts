import { createHash } from 'node:crypto';

/** Names a text: the main thread takes a worker's result only for the very text it read itself. */
export function textHash(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('base64');
}
