/**
 * The closed world of the command reader (SPEC §3.5 r4): the table of programs it knows, each with a
 * model of the code it can load for the arguments given. A program that is not in the table (and is
 * not a file of the root, a function or alias the command defines, a shell, an interpreter or a package
 * tool, which src/shell/programs.ts and src/shell/interpreters.ts model), or an argument form its model
 * does not cover, makes the hook unpinnable and names it — never "nothing to pin".
 *
 * "Data-only" entries read their operands as data (`cat x`, `jq . x`): they are data-only for the
 * arguments given. `sed` with an `e` command or flag, `awk` with `system()` or a pipe, `git -c` or a
 * subcommand it does not know (an alias, an extension), `tar --to-command` are modelled as running code.
 * @module
 */
import type { Field } from "./shell_reader.ts";
import { construct } from "./shell_expand.ts";
import type { Command, Sink } from "./reader_types.ts";

/** What a model says of one command: null when it is covered, else the construct that is not. */
export type ProgramModel = (args: Field[], cmd: Command, s: Sink) => string | null;

/** Operands are data; options never make it run anything. */
const dataOnly: ProgramModel = () => null;

/**
 * The data-only programs (their operands may name files they read: pinned as data by the caller). The
 * builtins that change the shell's state and the programs that only write their operands are read before
 * the table (src/shell/programs.ts).
 */
// deno-fmt-ignore
const DATA_ONLY = [
  // text and files
  "echo", "printf", "cat", "tac", "head", "tail", "wc", "sort", "uniq", "cut", "tr", "paste", "join", "comm", "fold",
  "fmt", "nl", "rev", "column", "expand", "unexpand", "grep", "egrep", "fgrep", "rg", "ag", "jq", "yq", "diff",
  "cmp", "base64", "base32", "sha256sum", "sha1sum", "sha512sum", "md5sum", "shasum", "cksum", "b2sum", "xxd", "od",
  "hexdump", "strings", "iconv", "gzip", "gunzip", "zcat", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzip", "zip",
  "ls", "dirname", "basename", "realpath", "readlink", "stat", "file", "du", "df", "tree", "split", "csplit",
  "cp", "mv", "ln", "chmod", "chown", "chgrp", "install", "dd", "sync", "shred",
  "mkfifo",
  // the system, time and identity
  "date", "sleep", "true", "false", "test", "[", ":", "id", "whoami", "hostname", "uname", "printenv", "pwd", "tty",
  "seq", "yes", "expr", "bc", "which", "whereis", "ps", "pgrep", "kill", "pkill", "killall", "uptime", "nproc", "getconf",
  "locale", "tput", "stty", "clear", "logger", "wall", "sum", "factor", "numfmt", "shuf", "ulimit", "umask",
  "exit", "return", "wait", "jobs",
  "times", "shopt", "let", "break", "continue",
  // notifications and sounds a hook plays
  "notify-send", "terminal-notifier", "say", "afplay", "paplay", "aplay", "espeak",
  // the network as data (a download is marked; fed to a shell it is unpinnable)
  "curl", "wget", "nc", "ping", "dig", "host",
];

/** `sed`: data unless its script runs a command (`e`, `s///e`) or is read from a file (pinned, run). */
const sed: ProgramModel = (args, cmd, s) => {
  let scripts: string[] = [];
  let fromOption = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i].text;
    if (w === "-e" || w === "--expression") {
      scripts.push(args[++i]?.text ?? "");
      fromOption = true;
    } else if (w.startsWith("--expression=")) {
      scripts.push(w.slice(13));
      fromOption = true;
    } else if (w === "-f" || w === "--file") {
      const f = args[++i];
      if (f) s.path(f, "run", cmd.dirs);
      fromOption = true;
    } else if (!w.startsWith("-") && !fromOption && scripts.length === 0) {
      if (args[i].unknown !== null) return `sed ${args[i].unknown}`;
      scripts = [w];
    }
  }
  for (const script of scripts) {
    // The `e` command, or the `e` flag of `s`: GNU sed runs the pattern space (or its text) as a command.
    if (/(?:^|[;\n{}]|\d|\$|\/)\s*e(?:\s|;|$)|s(.).*?\1.*?\1[gpiImMw0-9]*e/.test(script)) {
      return "sed e (runs a command)";
    }
    if (/(?:^|[;\n{}]|\s)[rwRW]\s*\/dev\//.test(script)) return "sed r/w of a device";
  }
  return null;
};

/** `awk`: data unless its program runs a command (`system()`, a pipe) or loads an extension. */
const awk: ProgramModel = (args, cmd, s) => {
  let program: Field | null = null;
  for (let i = 0; i < args.length; i++) {
    const w = args[i].text;
    if (w === "-f" || w === "--file" || w === "-i" || w === "--include") {
      const f = args[++i];
      if (f) s.path(f, "run", cmd.dirs);
      program ??= { text: "", glob: null, unknown: null };
    } else if (w === "-v" || w === "-F") i++;
    else if (w === "-l" || w === "--load" || w === "-E" || w === "--exec") return `awk ${w} (loads code)`;
    else if (!w.startsWith("-") && program === null) program = args[i];
  }
  if (program?.unknown) return `awk ${program.unknown}`;
  const text = program?.text ?? "";
  if (/\bsystem\s*\(|\|\s*(?:getline|&)|\bprint[f]?\b[^;}]*\||@load|@include/.test(text)) {
    return "awk system() or a pipe";
  }
  return null;
};

/** Git's subcommands that run nothing of the repository's (configuration comes from outside it). */
// deno-fmt-ignore
const GIT_DATA = new Set([
  "status", "diff", "log", "show", "rev-parse", "ls-files", "ls-tree", "cat-file", "branch", "tag", "remote",
  "describe", "blame", "grep", "shortlog", "rev-list", "symbolic-ref", "for-each-ref", "show-ref", "merge-base",
  "name-rev", "check-ignore", "check-attr", "var", "version", "help", "add", "rm", "mv", "reset", "restore",
  "stash", "fetch", "init", "clone", "worktree", "notes", "reflog", "count-objects", "hash-object", "write-tree",
  "diff-index", "diff-files", "diff-tree", "update-index", "apply", "format-patch", "archive", "bundle", "config",
]);

/** `git`: its subcommand, unless `-c`/`--config-env`, an unknown subcommand (an alias) or a `config` write. */
const git: ProgramModel = (args) => {
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i].text;
    if (w === "-c" || w.startsWith("--config-env") || w.startsWith("--exec-path=")) {
      return `git ${construct(w.split("=")[0])}`;
    }
    if (w === "-C" || w === "--git-dir" || w === "--work-tree" || w === "--namespace") {
      i++;
      continue;
    }
    if (!w.startsWith("-")) break;
  }
  const sub = args[i];
  if (sub === undefined) return null;
  if (sub.unknown !== null) return `git ${sub.unknown}`;
  if (!GIT_DATA.has(sub.text)) {
    return `git ${construct(sub.text)} (a git alias, extension or a command that runs hooks)`;
  }
  if (sub.text === "config") {
    const rest = args.slice(i + 1).map((a) => a.text);
    const reads = rest.some((w) => /^--(?:get|get-all|get-regexp|list|show-origin|show-scope)$|^-l$/.test(w)) ||
      rest.filter((w) => !w.startsWith("-")).length <= 1;
    if (!reads) return "git config (changes what git runs)";
  }
  if (args.slice(i + 1).some((a) => /^--(?:ext-diff|textconv|upload-pack|receive-pack|exec)\b/.test(a.text))) {
    return `git ${construct(sub.text)} with a program option`;
  }
  return null;
};

/** `tar`: data unless it runs a program (`--to-command`, `-I`, `--use-compress-program`, checkpoint actions). */
const tar: ProgramModel = (args) => {
  for (const a of args) {
    if (
      /^--(?:to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rsh-command)\b/.test(
        a.text,
      )
    ) {
      return `tar ${construct(a.text.split("=")[0])}`;
    }
    if (/^-[A-Za-z]*[IF]/.test(a.text) && !a.text.startsWith("--")) return "tar -I/-F (runs a program)";
  }
  return null;
};

/** The table: a program's name → its model. */
export const PROGRAMS: Readonly<Record<string, ProgramModel>> = {
  ...Object.fromEntries(DATA_ONLY.map((n) => [n, dataOnly])),
  sed,
  gsed: sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  git,
  tar,
  gtar: tar,
  bsdtar: tar,
};

/**
 * Reads `name ARGS` by the table: true when it is covered (its operands are then read as data by the
 * caller), false when the program is not in the table; a form the model does not cover is unpinnable.
 */
export function tableProgram(name: string, args: Field[], cmd: Command, s: Sink): boolean {
  const model = Object.hasOwn(PROGRAMS, name) ? PROGRAMS[name] : undefined;
  if (model === undefined) return false;
  const uncovered = model(args, cmd, s);
  if (uncovered !== null) s.markUnpinnable(uncovered);
  return true;
}
