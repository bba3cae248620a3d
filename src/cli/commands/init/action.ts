import { writeInitialTree } from '../../../source/init-tree.js';
import { resolve } from 'node:path';
import { errorMessage } from '../../errors.js';
import type { CommandIo } from '../../io.js';

/** `wsync init [DIR]`: writes the starting tree and says what to do next. */
export async function runInit(dir: string, io: CommandIo): Promise<number> {
  let written: string[];
  try {
    written = await writeInitialTree(resolve(io.cwd, dir));
  } catch (err) {
    io.stderr.write(`init: ${errorMessage(err)}\n`);
    return 1;
  }
  const shown = dir;
  const lines = [
    `Wrote a wsync tree in ${shown}:`,
    ...written.map((path) => `  ${path}`),
    '',
    'Next:',
    `  wsync validate ${shown}    (no network, no token)`,
    '  export WSYNC_URL=https://api.axiom.co WSYNC_TOKEN=...',
    `  wsync plan ${shown}    (what apply would change; writes nothing)`,
    `  wsync apply ${shown}`,
    '',
  ];
  io.stdout.write(lines.join('\n'));
  return 0;
}
