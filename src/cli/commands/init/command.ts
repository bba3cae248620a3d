import type { Command } from 'commander';
import { addHelpFooter } from '../../help.js';

export function register(program: Command): void {
  const cmd = program
    .command('init')
    .description('start a tree: a notifier and a monitor with editor modelines, the schemas, a .gitignore for the state and a commented wsync.yaml')
    .argument('[dir]', 'where to write it (made if missing); no file there is replaced', '.')
    .action(async (dir: string) => {
      const { runInit } = await import('./action.js');
      process.exitCode = await runInit(dir);
    });
  addHelpFooter(cmd, {
    examples: [
      ['wsync init workspace', 'a new tree in ./workspace'],
      ['wsync init && wsync validate', 'in the current directory, then check it'],
    ],
  });
}
