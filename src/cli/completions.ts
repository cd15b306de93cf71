/**
 * `mind-hooks completions bash|zsh|fish`: prints a completion script for the shell. All three are generated
 * from one table of commands, their sub-words and their options, so they cannot disagree with each other.
 * The scripts complete commands, sub-commands (`project trust`, `install claude`, `schema input EVENT`), option
 * names, and the values of options that take a directory, a file or a protocol.
 * @module
 */
import { type OptionSpec, type ParsedArgs, UsageError } from "../util/args.ts";
import { COMMANDS, type SHELLS } from "./commands.ts";
import { writeStdout } from "../util/stdio.ts";
import { HOSTS } from "../adapter/host_names.ts";

/** The values of `--protocol`. */
const PROTOCOLS = ["mind", ...HOSTS].join(" ");

type Shell = typeof SHELLS[number];

/** What an option's value is, for completion. */
type Value = NonNullable<OptionSpec["value"]>;

/** An option: its name and, for one that takes a value, what kind. */
type Option = { name: string; value?: Value; about: string };

/** A command: what it does, its sub-words (position 1) and further words (position 2), its options. */
type CompletionEntry = {
  about: string;
  words?: readonly string[];
  words2?: Readonly<Record<string, readonly string[]>>;
  options: Option[];
};

/** The options of a declaration, as completion shows them. */
function optionsOf(spec: Record<string, OptionSpec>): Option[] {
  return Object.entries(spec).map(([name, o]) => ({
    name,
    ...(o.type === "string" ? { value: o.value ?? "text" } : {}),
    about: o.about ?? name,
  }));
}

/** Every user-facing command of `mind-hooks --help`, from the command table (src/cli/commands.ts). */
export const COMPLETION_SPEC: Record<string, CompletionEntry> = Object.fromEntries(
  [...COMMANDS].filter(([, c]) => !c.internal).map(([name, c]) => {
    // A command with actions completes every action's options.
    const spec = c.actionOptions ? Object.assign({}, c.options, ...Object.values(c.actionOptions)) : c.options;
    return [name, { about: c.about, words: c.words, words2: c.words2, options: optionsOf(spec) }];
  }),
);

const valued = (kind: Value) =>
  [...new Set(Object.values(COMPLETION_SPEC).flatMap((c) => c.options.filter((o) => o.value === kind)))]
    .map((o) => `--${o.name}`);
const uniq = (xs: string[]) => [...new Set(xs)].sort();
const quoteSh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

function bash(): string {
  const cases = Object.entries(COMPLETION_SPEC).map(([name, c]) => {
    const lines = [`    ${name})`, `      opts=${quoteSh(c.options.map((o) => `--${o.name}`).join(" "))}`];
    if (c.words) lines.push(`      [ "$COMP_CWORD" -eq 2 ] && words=${quoteSh(c.words.join(" "))}`);
    for (const [w, next] of Object.entries(c.words2 ?? {})) {
      lines.push(`      [ "$COMP_CWORD" -eq 3 ] && [ "\${COMP_WORDS[2]}" = ${w} ] && words=${quoteSh(next.join(" "))}`);
    }
    return lines.join("\n") + " ;;";
  });
  return `# bash completion for mind-hooks, printed by \`mind-hooks completions bash\`.
# Load it in ~/.bashrc:  source <(mind-hooks completions bash)
_mind_hooks() {
  local cur prev cmd words opts
  COMPREPLY=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    ${uniq(valued("dir")).join("|")})
      COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
    ${uniq(valued("file")).join("|")})
      COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
    --protocol)
      COMPREPLY=($(compgen -W "${PROTOCOLS}" -- "$cur")); return 0 ;;
    ${uniq([...valued("text"), "-c"]).join("|")})
      return 0 ;;
  esac
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W ${quoteSh(`${Object.keys(COMPLETION_SPEC).join(" ")} --help --version`)} -- "$cur"))
    return 0
  fi
  cmd="\${COMP_WORDS[1]}"
  words=""
  opts=""
  case "$cmd" in
${cases.join("\n")}
    *) return 0 ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [ -n "$words" ]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  elif [ "$cmd" = validate ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}
complete -o bashdefault -o default -F _mind_hooks mind-hooks
`;
}

const quoteZsh = (s: string) => s.replace(/[\[\]:'\\]/g, (c) => (c === "'" ? `'\\''` : `\\${c}`));

function zshOption(o: Option): string {
  const action = o.value === "dir"
    ? ":dir:_files -/"
    : o.value === "file"
    ? ":file:_files"
    : o.value === "protocol"
    ? `:protocol:(${PROTOCOLS})`
    : o.value === "text"
    ? ":value: "
    : "";
  return `'--${o.name}[${quoteZsh(o.about)}]${action}'`;
}

function zsh(): string {
  const commands = Object.entries(COMPLETION_SPEC).map(([n, c]) => `    '${n}:${quoteZsh(c.about)}'`);
  const cases = Object.entries(COMPLETION_SPEC).map(([name, c]) => {
    const args = c.options.map(zshOption);
    if (c.words) args.push(`'1:${name === "install" ? "host" : "subcommand"}:(${c.words.join(" ")})'`);
    if (c.words2) {
      const alts = Object.entries(c.words2).map(([w, next]) => `${w}) compadd -- ${next.join(" ")} ;;`);
      args.push(`'2:event:->second'`);
      return `    ${name})\n      _arguments -S ${args.join(" \\\n        ")} && return\n` +
        `      [[ $state == second ]] && case $words[2] in ${alts.join(" ")} esac ;;`;
    }
    if (name === "validate") args.push(`'*:file:_files'`);
    return `    ${name})\n      _arguments -S ${args.join(" \\\n        ")} ;;`;
  });
  return `#compdef mind-hooks
# zsh completion for mind-hooks, printed by \`mind-hooks completions zsh\`.
# Install:  mind-hooks completions zsh > "\${fpath[1]}/_mind-hooks"   (then restart zsh)
_mind-hooks() {
  local context state state_descr line
  typeset -A opt_args
  local -a commands
  commands=(
${commands.join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'mind-hooks command' commands
    return
  fi
  shift words
  (( CURRENT-- ))
  case $words[1] in
${cases.join("\n")}
  esac
}
if [[ $funcstack[1] == _mind-hooks ]]; then
  _mind-hooks "$@"
else
  compdef _mind-hooks mind-hooks
fi
`;
}

const quoteFish = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;

function fish(): string {
  const lines = [
    "# fish completion for mind-hooks, printed by `mind-hooks completions fish`.",
    "# Install:  mind-hooks completions fish > ~/.config/fish/completions/mind-hooks.fish",
    "complete -c mind-hooks -f",
    "complete -c mind-hooks -n __fish_use_subcommand -l help -d 'show help'",
    "complete -c mind-hooks -n __fish_use_subcommand -l version -d 'print the version'",
  ];
  for (const [name, c] of Object.entries(COMPLETION_SPEC)) {
    lines.push(`complete -c mind-hooks -n __fish_use_subcommand -a ${name} -d ${quoteFish(c.about)}`);
    const seen = `__fish_seen_subcommand_from ${name}`;
    if (c.words) {
      const none = `not __fish_seen_subcommand_from ${c.words.join(" ")}`;
      lines.push(`complete -c mind-hooks -n ${quoteFish(`${seen}; and ${none}`)} -a ${quoteFish(c.words.join(" "))}`);
    }
    for (const [w, next] of Object.entries(c.words2 ?? {})) {
      lines.push(
        `complete -c mind-hooks -n ${quoteFish(`${seen}; and __fish_seen_subcommand_from ${w}`)} -a ${
          quoteFish(next.join(" "))
        }`,
      );
    }
    if (name === "validate") lines.push(`complete -c mind-hooks -n ${quoteFish(seen)} -F`);
    for (const o of c.options) {
      const value = o.value === "dir"
        ? " -r -a '(__fish_complete_directories)'"
        : o.value === "file"
        ? " -r -F"
        : o.value === "protocol"
        ? ` -r -a '${PROTOCOLS}'`
        : o.value === "text"
        ? " -r"
        : "";
      lines.push(`complete -c mind-hooks -n ${quoteFish(seen)} -l ${o.name}${value} -d ${quoteFish(o.about)}`);
    }
  }
  return lines.join("\n") + "\n";
}

/** The completion script for `shell`. */
export function completionScript(shell: Shell): string {
  return shell === "bash" ? bash() : shell === "zsh" ? zsh() : fish();
}

/** Runs the command; returns the exit code. */
export async function completionsCommand({ positionals }: ParsedArgs): Promise<number> {
  // The command table has checked the shell (src/cli/commands.ts).
  if (positionals.length !== 1) {
    throw new UsageError(`completions takes one shell (got ${positionals.length} arguments)`);
  }
  await writeStdout(completionScript(positionals[0] as Shell));
  return 0;
}
