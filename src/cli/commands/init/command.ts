import type { Command } from 'commander';
import { addHelpFooter } from '../../help.js';
import type { CommandContext } from '../index.js';

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('init')
    .description('start a tree: a notifier and a monitor with editor modelines, the schemas, a .gitignore for the state and a commented wsync.yaml')
    .argument('[dir]', 'where to write it (made if missing); no file there is replaced', '.')
    .action(async (dir: string) => {
      const { runInit } = await import('./action.js');
      context.exit(await runInit(dir, context.io));
    });
  addHelpFooter(cmd, {
    examples: [
      ['wsync init workspace', 'a new tree in ./workspace'],
      ['wsync init && wsync validate', 'in the current directory, then check it'],
    ],
  });
}
