import { packageVersion } from '../util/package-version.js';

/** `wsync/<version>` from package.json. */
export function userAgent(): string {
  return `wsync/${packageVersion()}`;
}
