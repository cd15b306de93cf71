/**
 * `mind-hooks completions bash|zsh|fish`: prints a completion script for the shell. All three are generated
 * from one table of commands, their sub-words and their options, so they cannot disagree with each other.
 * The scripts complete commands, sub-commands (`project trust`, `install claude`, `schema input EVENT`), option
 * names, and the values of options that take a directory, a file or a protocol.
 * @module
 */
import { parseArgs, UsageError } from "./args.ts";
import { EVENT_NAMES } from "../events/names.ts";
import { writeStdout } from "../util/stdio.ts";

/** The shells a script exists for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = typeof SHELLS[number];

const HELP = `mind-hooks completions bash|zsh|fish

Prints the shell's completion script for mind-hooks. To load it:
  bash  source <(mind-hooks completions bash)          # in ~/.bashrc
  zsh   mind-hooks completions zsh > "\${fpath[1]}/_mind-hooks"   # then restart zsh
  fish  mind-hooks completions fish > ~/.config/fish/completions/mind-hooks.fish`;

/** What an option's value is, for completion. */
type Value = "dir" | "file" | "protocol" | "text";

/** An option: its name and, for one that takes a value, what kind. */
type Option = { name: string; value?: Value; about: string };

/** A command: what it does, its sub-words (position 1) and further words (position 2), its options. */
type CommandSpec = { about: string; words?: string[]; words2?: Record<string, string[]>; options: Option[] };

const HELP_OPTION: Option = { name: "help", about: "show this command's help" };
const COMMON: Option[] = [
  { name: "home", value: "dir", about: "the application home (default ~/.mind)" },
  { name: "cwd", value: "dir", about: "the working directory the project search starts from" },
  { name: "profile", value: "text", about: "the profile layer" },
  { name: "config", value: "text", about: "KEY=VALUE, a TOML value (also -c)" },
  { name: "hooks-file", value: "file", about: "an extra hooks file" },
  { name: "requirements", value: "file", about: "the managed requirements.toml" },
  { name: "temp-dir", value: "dir", about: "where large hook output is spilled" },
  { name: "dangerously-bypass-hook-trust", about: "run every enabled hook, trusted or not" },
  HELP_OPTION,
];
const STATE: Option[] = [
  ...COMMON,
  { name: "all", about: "every hook that needs review" },
  { name: "layer", value: "text", about: "only hooks of this layer" },
];
const TRANSCRIPT: Option[] = [
  { name: "home", value: "dir", about: "the application home" },
  { name: "session", value: "text", about: "the session id" },
  { name: "agent", value: "text", about: "a subagent id" },
  { name: "event", value: "text", about: "the event of an appended record" },
  { name: "turn", value: "text", about: "the turn id of an appended record" },
  { name: "actor", value: "text", about: "who wrote an appended record" },
  { name: "follow", about: "keep printing new records" },
  HELP_OPTION,
];

/** Every user-facing command of `mind-hooks --help`. */
export const COMPLETION_SPEC: Record<string, CommandSpec> = {
  dispatch: {
    about: "one event JSON on stdin, one result JSON on stdout",
    options: [...COMMON, { name: "protocol", value: "protocol", about: "mind, claude or codex" }],
  },
  serve: { about: "JSON-RPC 2.0 over stdio", options: COMMON },
  list: { about: "every hook with its status", options: [...COMMON, { name: "json", about: "as JSON" }] },
  review: { about: "interactive review of hooks", options: COMMON },
  trust: { about: "trust the current content of hooks", options: STATE },
  untrust: { about: "forget the trust of hooks", options: STATE },
  enable: { about: "enable hooks", options: STATE },
  disable: { about: "disable hooks", options: STATE },
  project: { about: "trust, untrust or show a project", words: ["trust", "untrust", "status"], options: COMMON },
  validate: { about: "check config files", options: COMMON },
  transcript: { about: "session transcripts", words: ["append", "path", "show"], options: TRANSCRIPT },
  "session-end": {
    about: "end a session's async hooks and spill files",
    options: [
      { name: "home", value: "dir", about: "the application home" },
      { name: "temp-dir", value: "dir", about: "the spill folder's parent" },
      { name: "session", value: "text", about: "the session id" },
      HELP_OPTION,
    ],
  },
  schema: {
    about: "print JSON Schemas",
    words: ["input", "output", "config", "result"],
    words2: { input: [...EVENT_NAMES], output: [...EVENT_NAMES] },
    options: [HELP_OPTION],
  },
  doctor: { about: "the sandbox's permission set, proven; checks", options: COMMON },
  install: {
    about: "register mind-hooks in Claude Code or Codex",
    words: ["claude", "codex"],
    options: [
      { name: "user", about: "the user's settings (default)" },
      { name: "project", value: "dir", about: "a project's settings" },
      { name: "local", about: "Claude Code's .claude/settings.local.json" },
      { name: "uninstall", about: "remove the entries" },
      { name: "dry-run", about: "print the change; write nothing" },
      { name: "command", value: "text", about: "how the host starts mind-hooks" },
      { name: "force", about: "register a launcher that is not on PATH" },
      HELP_OPTION,
    ],
  },
  completions: { about: "print a shell completion script", words: [...SHELLS], options: [HELP_OPTION] },
};

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
      COMPREPLY=($(compgen -W "mind claude codex" -- "$cur")); return 0 ;;
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
    ? ":protocol:(mind claude codex)"
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
        ? " -r -a 'mind claude codex'"
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
export async function completionsCommand(args: string[]): Promise<number> {
  const { options, positionals } = parseArgs(args, { help: { type: "boolean", short: "h" } });
  if (options.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1 || !(SHELLS as readonly string[]).includes(positionals[0])) {
    throw new UsageError(`completions needs one shell: bash, zsh or fish (see mind-hooks completions --help)`);
  }
  await writeStdout(completionScript(positionals[0] as Shell));
  return 0;
}
