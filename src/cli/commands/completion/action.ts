// Shell completion scripts, made from the commands and options commander knows, so they cannot
// drift from the CLI: subcommands, each command's options, the values of options with a fixed set
// (--format, --kind, ...), and files for everything else.
import type { Command, Option } from 'commander';
import { KIND_NAMES } from '../../../kinds/index.js';

export type Shell = 'bash' | 'zsh' | 'fish';

interface OptionSpec {
  flags: string[];
  description: string;
  /** Takes a value. */
  value: boolean;
  /** The values it takes, when they are a fixed set. */
  choices?: readonly string[];
  repeatable: boolean;
}

interface CommandSpec {
  name: string;
  description: string;
  options: OptionSpec[];
  /** Fixed values of its first argument (ctl's verbs). */
  verbs: readonly string[];
}

/** Options whose value is a kind. */
const KIND_OPTIONS = new Set(['--kind', '--kinds', '--prune-all', '--allow-delete']);

function optionSpec(option: Option): OptionSpec {
  const flags = [option.long, option.short].filter((f): f is string => typeof f === 'string');
  const spec: OptionSpec = {
    flags,
    description: option.description,
    value: option.required || option.optional,
    repeatable: option.description.includes('repeatable'),
  };
  if (option.argChoices) spec.choices = option.argChoices;
  else if (option.long !== undefined && KIND_OPTIONS.has(option.long)) spec.choices = KIND_NAMES;
  return spec;
}

function commandSpecs(program: Command): CommandSpec[] {
  return program.commands.map((cmd) => {
    const options = cmd.options.filter((o) => !o.hidden).map(optionSpec);
    options.push({ flags: ['--help', '-h'], description: 'display help for command', value: false, repeatable: false });
    const first = (cmd.registeredArguments ?? [])[0];
    return { name: cmd.name(), description: cmd.description(), options, verbs: first?.argChoices ?? [] };
  });
}

function bash(name: string, commands: CommandSpec[]): string {
  const cases = commands.map((cmd) => {
    const words = cmd.options.flatMap((o) => o.flags).join(' ');
    const values = cmd.options
      .filter((o) => o.choices)
      .map((o) => `        ${o.flags.join('|')}) COMPREPLY=($(compgen -W "${o.choices!.join(' ')}" -- "$cur")); return ;;`);
    const withValue = cmd.options.filter((o) => o.value && !o.choices).flatMap((o) => o.flags);
    const files = withValue.length > 0 ? [`        ${withValue.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`] : [];
    return [
      `    ${cmd.name})`,
      '      case "$prev" in',
      ...values,
      ...files,
      '      esac',
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${words}" -- "$cur")); return; fi`,
      cmd.verbs.length > 0 ? `      if [[ $COMP_CWORD -eq 2 ]]; then COMPREPLY=($(compgen -W "${cmd.verbs.join(' ')}" -- "$cur")); return; fi` : '',
      '      COMPREPLY=($(compgen -f -- "$cur"))',
      '      ;;',
    ].filter((line) => line !== '').join('\n');
  });
  const fn = `_${name.replace(/\W/g, '_')}`;
  return [
    `# ${name} completion for bash: source it, or save it as /etc/bash_completion.d/${name}`,
    `${fn}() {`,
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  COMPREPLY=()',
    '  if [[ $COMP_CWORD -eq 1 ]]; then',
    `    COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(' ')} --help --version" -- "$cur"))`,
    '    return',
    '  fi',
    '  case "${COMP_WORDS[1]}" in',
    ...cases,
    '  esac',
    '}',
    `complete -o filenames -o bashdefault -F ${fn} ${name}`,
    '',
  ].join('\n');
}

/** Text inside zsh's single quotes and _arguments' [description]. */
function zshText(text: string): string {
  return text.replace(/'/g, "'\\''").replace(/[[\]:]/g, (c) => `\\${c}`);
}

function zsh(name: string, commands: CommandSpec[]): string {
  const fn = `_${name.replace(/\W/g, '_')}`;
  const list = commands.map((c) => `    '${c.name}:${zshText(c.description)}'`);
  const cases = commands.map((cmd) => {
    const specs = cmd.options.flatMap((o) => {
      const value = o.value ? `:value:${o.choices ? `(${o.choices.join(' ')})` : '_files'}` : '';
      return o.flags.map((flag) => `'${o.repeatable ? '*' : ''}${flag}[${zshText(o.description)}]${value}'`);
    });
    const rest = cmd.verbs.length > 0 ? `'1:verb:(${cmd.verbs.join(' ')})'` : "'*:file:_files'";
    return `    ${cmd.name}) _arguments -s ${[...specs, rest].join(' \\\n        ')} ;;`;
  });
  return [
    `#compdef ${name}`,
    `# ${name} completion for zsh: save it as _${name} in a folder of $fpath, or source it`,
    `${fn}() {`,
    '  local -a commands',
    '  commands=(',
    ...list,
    '  )',
    '  if (( CURRENT == 2 )); then',
    "    _describe 'command' commands",
    '    return',
    '  fi',
    '  local command=$words[2]',
    '  shift words',
    '  (( CURRENT-- ))',
    '  case $command in',
    ...cases,
    '  esac',
    '}',
    `if [[ "$funcstack[1]" == "${fn}" ]]; then ${fn} "$@"; else compdef ${fn} ${name}; fi`,
    '',
  ].join('\n');
}

/** Text inside fish's single quotes. */
function fishText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

function fish(name: string, commands: CommandSpec[]): string {
  const lines = [`# ${name} completion for fish: save it as ~/.config/fish/completions/${name}.fish`, `complete -c ${name} -f`];
  for (const cmd of commands) {
    lines.push(`complete -c ${name} -n __fish_use_subcommand -a ${cmd.name} -d '${fishText(cmd.description)}'`);
  }
  for (const cmd of commands) {
    const when = `-n '__fish_seen_subcommand_from ${cmd.name}'`;
    if (cmd.verbs.length > 0) lines.push(`complete -c ${name} ${when} -a '${cmd.verbs.join(' ')}'`);
    else lines.push(`complete -c ${name} ${when} -F`);
    for (const o of cmd.options) {
      const flags = o.flags.map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`)).join(' ');
      const value = o.choices ? ` -x -a '${o.choices.join(' ')}'` : o.value ? ' -r -F' : '';
      lines.push(`complete -c ${name} ${when} ${flags}${value} -d '${fishText(o.description)}'`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script of `program` for `shell`. */
export function completionScript(program: Command, shell: Shell): string {
  const commands = commandSpecs(program);
  const make = { bash, zsh, fish }[shell];
  return make(program.name(), commands);
}
