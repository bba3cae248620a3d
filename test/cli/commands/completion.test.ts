// `wsync completion bash|zsh|fish`: scripts made from the commands and options the CLI has. bash is
// on this machine, so its script is run: what it offers after a few typed words is checked.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionScript } from '../../../src/cli/commands/completion/action.js';
import { createProgram } from '../../../src/cli/main.js';
import { KIND_NAMES } from '../../../src/kinds/index.js';
import { runCli } from '../../support/cli.js';
import { useScratch } from '../../support/tree.js';

const scratch = useScratch('wsync-completion-');
const program = await createProgram();
const names = program.commands.map((c) => c.name());

/** What bash's completion offers for the words typed so far (the last one being completed). */
function bashOffers(script: string, words: string[]): string[] {
  const dir = scratch.tree({});
  const file = join(dir, 'wsync.bash');
  writeFileSync(file, script);
  const typed = words.map((w) => `'${w}'`).join(' ');
  const run = `source ${file}; COMP_WORDS=(${typed}); COMP_CWORD=${words.length - 1}; _wsync; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '-c', run], { cwd: dir, encoding: 'utf8' }).split('\n').filter((s) => s !== '');
}

describe('wsync completion', () => {
  it('bash: commands, each command\'s options, the values of --format and --kind, ctl\'s verbs', () => {
    const script = completionScript(program, 'bash');
    execFileSync('bash', ['-n'], { input: script });
    expect(bashOffers(script, ['wsync', ''])).toEqual([...names, '--help', '--version']);
    expect(bashOffers(script, ['wsync', 'pl'])).toEqual(['plan']);
    expect(bashOffers(script, ['wsync', 'plan', '--fo'])).toEqual(['--format', '--force-deletes']);
    expect(bashOffers(script, ['wsync', 'plan', '--format', ''])).toEqual(['text', 'json', 'markdown']);
    expect(bashOffers(script, ['wsync', 'apply', '--kind', 'Mo'])).toEqual(['Monitor']);
    expect(bashOffers(script, ['wsync', 'export', '--kind', ''])).toEqual([...KIND_NAMES]);
    expect(bashOffers(script, ['wsync', 'ctl', 're'])).toEqual(['resume', 'reconcile']);
    expect(bashOffers(script, ['wsync', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('zsh and fish name every command and every option of each', () => {
    const zsh = completionScript(program, 'zsh');
    const fish = completionScript(program, 'fish');
    expect(zsh.startsWith('#compdef wsync\n')).toBe(true);
    for (const cmd of program.commands) {
      expect(zsh).toContain(`    '${cmd.name()}:`);
      expect(zsh).toContain(`    ${cmd.name()}) _arguments -s `);
      expect(fish).toContain(`complete -c wsync -n __fish_use_subcommand -a ${cmd.name()} -d '`);
      for (const option of cmd.options) {
        expect(zsh).toContain(`${option.long}[`);
        expect(fish).toMatch(new RegExp(`-n '__fish_seen_subcommand_from ${cmd.name()}' -l ${option.long!.slice(2)}[ ']`));
      }
    }
    expect(zsh).toContain("'*--kind[");
    expect(fish).toContain(`-l kind -x -a '${KIND_NAMES.join(' ')}'`);
  });

  it('prints the script on stdout; an unknown shell is a usage error', async () => {
    const ok = await runCli(['completion', 'fish']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(completionScript(program, 'fish'));
    const bad = await runCli(['completion', 'tcsh']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n(see wsync completion --help)\n");
  });
});
