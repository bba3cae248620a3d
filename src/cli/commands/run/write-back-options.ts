// The flags of `wsync run --write-back` (#26.2), apart from what they set up (write-back.ts): every
// start registers them, and only a daemon that writes back loads git and the GitHub client.
import { Option, type Command } from 'commander';

export interface WriteBackFlags {
  writeBack?: string;
  writeBackRemote?: string;
  writeBackBranch?: string;
  writeBackBase?: string;
  writeBackToBase?: boolean;
  writeBackPath?: string;
  writeBackDir?: string;
  writeBackHold?: string;
}

export const DEFAULT_WRITE_BACK_BRANCH = 'wsync/write-back';
export const DEFAULT_BASE = 'main';

export const WRITE_BACK_VARIABLES = [
  'WSYNC_WRITE_BACK',
  'WSYNC_WRITE_BACK_REMOTE',
  'WSYNC_WRITE_BACK_BRANCH',
  'WSYNC_WRITE_BACK_BASE',
  'WSYNC_WRITE_BACK_TO_BASE',
  'WSYNC_WRITE_BACK_PATH',
  'WSYNC_WRITE_BACK_DIR',
  'WSYNC_WRITE_BACK_HOLD',
  'WSYNC_WRITE_BACK_AUTHOR',
] as const;

export function addWriteBackOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--write-back <kinds>', 'write drift made in the workspace (observe mode, or enforce before it is put back) of these kinds, or "all", back to a branch as a pull request (env WSYNC_WRITE_BACK)'))
    .addOption(new Option('--write-back-remote <url>', 'the git remote of the synced repository to push the write-back branch to (env WSYNC_WRITE_BACK_REMOTE; required with --write-back)'))
    .addOption(new Option('--write-back-branch <name>', `the branch written back to (env WSYNC_WRITE_BACK_BRANCH; default ${DEFAULT_WRITE_BACK_BRANCH})`))
    .addOption(new Option('--write-back-base <name>', `the branch the daemon syncs from: the write-back branch starts there and its pull request targets it (env WSYNC_WRITE_BACK_BASE; default ${DEFAULT_BASE})`))
    .addOption(new Option('--write-back-to-base', 'allow --write-back-branch to be the base branch: commits straight onto what the daemon syncs from (env WSYNC_WRITE_BACK_TO_BASE=1)'))
    .addOption(new Option('--write-back-path <path>', "DIR's folder inside the repository (env WSYNC_WRITE_BACK_PATH; default its root)"))
    .addOption(new Option('--write-back-dir <dir>', "the write-back branch's checkout, a clone of its own (env WSYNC_WRITE_BACK_DIR; default STATE_DIR/write-back)"))
    .addOption(new Option('--write-back-hold <kinds>', 'enforce mode: kinds whose drift is not put back until the pull request is merged or closed, "all" or "none" (env WSYNC_WRITE_BACK_HOLD; default all)'));
}
