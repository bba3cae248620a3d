// The flags of the revision marks (#26.3), apart from what they set up (revision-marks.ts): every
// start registers them, and only apply and run, once they act, load the GitHub client.
import { Option, type Command } from 'commander';

export interface RevisionMarkFlags {
  annotate?: boolean;
  annotateUrlTemplate?: string;
  commitStatus?: boolean;
  /** apply only: the revision the files are (when DIR is no git work tree, or to name it otherwise). */
  revision?: string;
}

/** The variables the marks read (their texts: cli/help.ts). */
export const REVISION_MARK_VARIABLES = [
  'WSYNC_ANNOTATE',
  'WSYNC_ANNOTATE_URL_TEMPLATE',
  'WSYNC_COMMIT_STATUS',
  'WSYNC_GITHUB_REPOSITORY',
  'WSYNC_GITHUB_TOKEN',
  'WSYNC_GITHUB_TOKEN_FILE',
  'WSYNC_GITHUB_API_URL',
  'WSYNC_COMMIT_STATUS_CONTEXT',
  'WSYNC_COMMIT_STATUS_URL',
] as const;

export function addRevisionMarkOptions(cmd: Command, options: { revision: boolean }): Command {
  cmd
    .addOption(new Option('--annotate', 'mark each applied revision with an Annotation on the datasets it wrote to (env WSYNC_ANNOTATE=1)'))
    .addOption(new Option('--annotate-url-template <template>', "the annotation's link, {revision} replaced by the commit (env WSYNC_ANNOTATE_URL_TEMPLATE; default the commit on GitHub with --commit-status)"))
    .addOption(new Option('--commit-status', 'set a GitHub commit status on the applied revision: WSYNC_GITHUB_REPOSITORY and WSYNC_GITHUB_TOKEN(_FILE) (env WSYNC_COMMIT_STATUS=1)'));
  if (options.revision) cmd.addOption(new Option('--revision <rev>', 'the revision the files are, when DIR is not a git work tree (env WSYNC_REVISION; default git rev-parse HEAD of DIR)'));
  return cmd;
}
