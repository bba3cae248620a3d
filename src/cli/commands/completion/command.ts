import { Argument, type Command } from 'commander';
import { addHelpFooter } from '../../help.js';
import type { CommandContext } from '../index.js';

export function register(program: Command, context: CommandContext): void {
  const cmd = program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('./action.js');
      context.io.stdout.write(completionScript(program, shell));
    });
  addHelpFooter(cmd, {
    examples: [
      ['source <(wsync completion bash)', 'bash, this shell (put the line in ~/.bashrc to keep it)'],
      ['wsync completion zsh > "${fpath[1]}/_wsync"', 'zsh, every new shell'],
      ['wsync completion fish > ~/.config/fish/completions/wsync.fish', 'fish, every new shell'],
    ],
  });
}
