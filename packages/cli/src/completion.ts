import type { Command } from 'commander';

interface Node {
  /** The command path, e.g. `qna search`; empty for the program. */
  path: string;
  subcommands: string[];
  options: string[];
}

/** Every command of the tree with its subcommands and flags, read from the program itself. */
function nodesOf(command: Command, path = '', inherited: string[] = []): Node[] {
  const own = command.options.flatMap((option) =>
    [option.long, option.short].filter((flag) => flag !== undefined),
  );
  const options = [...inherited, ...own, '--help'];
  const node = {
    path,
    // Aliases complete too: a user may have learnt either name.
    subcommands: command.commands.flatMap((sub) => [sub.name(), ...sub.aliases()]),
    options,
  };
  return [
    node,
    ...command.commands.flatMap((sub) =>
      [sub.name(), ...sub.aliases()].flatMap((name) =>
        nodesOf(sub, path ? `${path} ${name}` : name, path ? inherited : own),
      ),
    ),
  ];
}

const quote = (words: readonly string[]) => words.join(' ');

function bash(nodes: Node[], name: string): string {
  const entries = (pick: (node: Node) => string[]) =>
    // Keyed by the command path from the program's name: bash has no empty associative-array key.
    nodes
      .map((node) => `  ["${[name, node.path].filter(Boolean).join(' ')}"]="${quote(pick(node))}"`)
      .join('\n');
  const fn = `_${name}_completion`;
  return `# ${name} completion for bash (also zsh through bashcompinit)
declare -A ${fn}_children=(
${entries((node) => node.subcommands)}
)
declare -A ${fn}_flags=(
${entries((node) => node.options)}
)
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="${name}" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case " \${${fn}_children[$path]} " in
      *" $word "*) path="\${path:+$path }$word" ;;
    esac
  done
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${${fn}_flags[$path]}" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "\${${fn}_children[$path]}" -- "$cur"))
  fi
}
complete -F ${fn} ${name}`;
}

function zsh(nodes: Node[], name: string): string {
  return `#compdef ${name}
# ${name} completion for zsh: the bash completion through zsh's bashcompinit.
autoload -U +X bashcompinit && bashcompinit
${bash(nodes, name)}`;
}

function fish(nodes: Node[], name: string): string {
  const lines = [`# ${name} completion for fish`, `complete -c ${name} -f`];
  for (const node of nodes) {
    const words = node.path === '' ? [] : node.path.split(' ');
    // Fish tests the words typed so far: each word of the path seen, and no child of this node yet.
    const seen = words.map((word) => `__fish_seen_subcommand_from ${word}`);
    const notYet =
      node.subcommands.length > 0 ? [`not __fish_seen_subcommand_from ${quote(node.subcommands)}`] : [];
    // At the top, __fish_use_subcommand says no command is typed yet; the global flags go anywhere.
    const condition = words.length === 0 ? '__fish_use_subcommand' : [...seen, ...notYet].join('; and ');
    for (const sub of node.subcommands) lines.push(`complete -c ${name} -n '${condition}' -a ${sub}`);
    const global = nodes[0]?.options ?? [];
    const own = words.length === 0 ? node.options : node.options.filter((flag) => !global.includes(flag));
    for (const flag of own.filter((option) => option.startsWith('--'))) {
      const where = words.length === 0 ? '' : ` -n '${condition}'`;
      lines.push(`complete -c ${name}${where} -l ${flag.slice(2)}`);
    }
  }
  return lines.join('\n');
}

/**
 * The completion script for a shell, generated from the program's command tree; `flagsOf` adds the
 * flags of a command that reads its own (by its path, e.g. `emulator`).
 */
export function completionScript(
  program: Command,
  shell: 'bash' | 'zsh' | 'fish',
  flagsOf: Readonly<Record<string, readonly string[]>> = {},
): string {
  const nodes = nodesOf(program).map((node) => {
    const own = flagsOf[node.path] ?? [];
    return { ...node, options: [...new Set([...node.options, ...own])] };
  });
  const name = program.name();
  if (shell === 'bash') return bash(nodes, name);
  if (shell === 'zsh') return zsh(nodes, name);
  return fish(nodes, name);
}
