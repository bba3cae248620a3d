import type { Command } from 'commander';

// Each command lives in its own module with `register(program)`; this list is the CLI's table of contents.
export function registerCommands(_program: Command): void {}
