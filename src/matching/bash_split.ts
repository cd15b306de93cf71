/**
 * The Bash command reader of the `if` filter (SPEC §2.2 r3): a command line → the simple commands a
 * rule is tested against. A filter decides whether a guard runs, so the reader errs toward running it:
 *
 * - the line is split into its simple commands across `;`, `&`, `&&`, `||`, `|`, `|&`, newlines,
 *   `;;`, groups `{ …; }` and subshells `( … )`;
 * - leading `NAME=value` assignments and redirections (with their targets) are not words; keywords that
 *   open, continue or close a compound command (`if`, `then`, `else`, `elif`, `fi`, `while`, `until`,
 *   `do`, `done`, `{`, `}`, `!`, `esac`, `coproc`, `function NAME`) are stripped from the front, and a
 *   `for`/`select`/`case` head (a variable and a word list, or the case word) and `case` patterns are
 *   not commands;
 * - wrapper commands with their options (`timeout`, `time`, `nice`, `nohup`, `command`, `exec`,
 *   `stdbuf`, `env` — its `-S` string split as words — `xargs`, and `builtin`) are stripped,
 *   repeatedly: each wrapped form is a subject beside the whole command, so a rule matches either;
 *   so are the commands a command runs from its arguments: a shell's `-c` line (`sh`, `bash`, `dash`,
 *   `zsh`, `ksh`, `mksh`, `ash`), `eval`'s words, `find`'s `-exec`/`-execdir`/`-ok`/`-okdir`;
 * - what it cannot read statically makes the whole line unreadable (null), and an unreadable line
 *   matches every rule: parameter expansions, command and process substitutions (`$…`, `` `…` ``,
 *   `<(…)`, `>(…)`), here-documents, brace expansions (`{a,b}`), a glob in a command's name,
 *   unbalanced quotes, control characters, and lines over 10,000 characters (Claude Code's own bound).
 *
 * The line is read by the command reader's one lexer (src/shell/shell_syntax.ts) into its syntax tree,
 * and this is a walk over it: one pass, linear in the line's length.
 * @module
 */
import { foldSpaces } from "./wildcard.ts";
import { lex, type Token, type Word as SyntaxWord } from "../shell/shell_syntax.ts";
import { REDIRECTS } from "../shell/shell_words.ts";

/** Lines longer than this are not split (Claude Code's own bound): every rule matches them. */
export const MAX_SPLIT_LENGTH = 10_000;

/** One word of a simple command: its text (quotes removed) and whether it holds an unquoted glob. */
type Word = { text: string; glob: boolean };

/** Keywords stripped from the front of a simple command (what follows them is a command). */
const STRIPPED_KEYWORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "while",
  "until",
  "do",
  "done",
  "{",
  "}",
  "!",
  "esac",
  "coproc",
]);

/** Keywords whose simple command runs nothing (a variable and a word list, or the word a case tests). */
const HEAD_KEYWORDS: ReadonlySet<string> = new Set(["for", "select", "case"]);

/** Thrown inside the walk when the line cannot be read statically. */
class Unreadable extends Error {}

/** The simple commands of `command` as word lists, or null when the line cannot be read statically. */
function splitWords(command: string): Word[][] | null {
  if (command.length > MAX_SPLIT_LENGTH || command.includes("<<")) return null;
  for (let i = 0; i < command.length; i++) {
    const code = command.charCodeAt(i);
    if ((code < 32 && code !== 9 && code !== 10) || code === 127) return null;
  }
  if (!staticQuotes(command)) return null;
  // A backslash ending the line escapes nothing: the shell would wait for more, the filter reads no word.
  const line = /(?:^|[^\\])(?:\\\\)*\\$/.test(command) ? command.slice(0, -1) : command;
  try {
    return new Walker().read(lex(line));
  } catch (e) {
    if (e instanceof Unreadable) return null;
    throw e;
  }
}

/**
 * Whether every quote of the line closes and no `$` or backquote stands outside single quotes (unescaped):
 * an expansion makes the line unreadable before its syntax tree is walked.
 */
function staticQuotes(s: string): boolean {
  let quote: "'" | '"' | null = null;
  let wordStart = true;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === "#" && quote === null && wordStart) {
      // A comment runs to the end of the line: its quotes and `$` are text.
      while (i + 1 < s.length && s[i + 1] !== "\n") i++;
    } else if (c === "\\") i++;
    else if (c === "$" || c === "`") return false;
    else if (c === "'" && quote === null) quote = "'";
    else if (c === '"') quote = quote === '"' ? null : '"';
    // A `#` starts a comment only where a word could start (not escaped, not inside a word).
    wordStart = quote === null && c !== "\\" && " \t\n;&|()<>".includes(c);
  }
  return quote === null;
}

/** One word of the shell syntax tree (src/shell/shell_syntax.ts) as the filter reads it. */
function wordOf(w: SyntaxWord): Word {
  let text = "";
  let unquoted = "";
  for (const p of w.parts) {
    if (p.k === "lit") {
      text += p.text;
      unquoted += p.q ? "x".repeat(p.text.length) : p.text;
    } else if (p.k === "tilde") {
      text += `~${p.user}`;
      unquoted += `~${p.user}`;
    } else if (p.k === "var" && !p.raw.startsWith("$")) {
      // `~+` and `~-`: read as written, like any other word.
      text += p.raw;
      unquoted += p.raw;
    } else throw new Unreadable();
  }
  // {a,b} and {1..3} expand to other words.
  if (/\{[^}]*(?:,|\.\.)[^}]*\}/.test(unquoted)) throw new Unreadable();
  return { text, glob: /[*?]|\[[^\]]*\]/.test(unquoted) };
}

/** The walk over the line's syntax tree: its simple commands (SPEC §2.2 r3). */
class Walker {
  #out: Word[][] = [];
  #words: Word[] = [];
  /** The next word is a redirection's target. */
  #target = false;
  /** Open `case` commands, and whether the next words up to `)` are a case pattern. */
  #cases = 0;
  #pattern = false;

  read(tokens: readonly Token[]): Word[][] {
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.t === "word") {
        // A redirection's target is not a word of the command.
        if (this.#target) this.#target = false;
        else this.#words.push(wordOf(t.w));
        continue;
      }
      if (REDIRECTS.has(t.op)) {
        // A redirection with no word after it (`<|`, `> ;`) is a syntax error: read as unreadable, so it matches.
        if (tokens[i + 1]?.t !== "word") throw new Unreadable();
        this.#target = true;
        continue;
      }
      this.#target = false;
      if (t.op === ";;" || t.op === ";;&") this.#endCommand(";;");
      else if (t.op === ";&") {
        this.#endCommand(";");
        this.#endCommand("&");
      } else for (const c of t.op) this.#endCommand(c);
    }
    this.#endCommand("");
    return this.#out;
  }

  #endCommand(separator: string): void {
    const words = this.#words;
    this.#words = [];
    if (this.#pattern) {
      // After `case WORD in` and after each `;;`: the words up to `)` are a pattern, never run.
      if (separator === ")" && words.length > 0) {
        this.#pattern = false;
        return;
      }
      if (words.length > 0) this.#pattern = false;
    }
    let i = 0;
    while (i < words.length) {
      const w = words[i].text;
      if (w.includes("=") && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(w)) i++;
      else if (w === "function") i += 2;
      else if (STRIPPED_KEYWORDS.has(w)) {
        if (w === "esac") this.#cases = Math.max(0, this.#cases - 1);
        i++;
      } else if (HEAD_KEYWORDS.has(w)) {
        if (w === "case") {
          this.#cases++;
          // `case x in a) …` holds its first pattern already; `case x in` + newline does not.
          if (separator !== ")") this.#pattern = true;
        }
        return;
      } else break;
    }
    if (separator === ";;" && this.#cases > 0) this.#pattern = true;
    const argv = words.slice(i);
    if (argv.length === 0) return;
    // A glob in the command's name runs whatever file it expands to.
    if (argv[0].glob) throw new Unreadable();
    this.#out.push(argv);
  }
}

/** How one wrapper command takes its options before the command it runs. */
type WrapperSpec = {
  /** Short options that take a value (attached, or the next word). */
  short: string;
  /** Long options that take the next word as their value when written without `=`. */
  long: readonly string[];
  /** Words after the options that are not the command (timeout's duration). */
  positionals?: number;
  /** `NAME=value` words after the options set the environment (env). */
  assignments?: boolean;
};

/** The wrappers stripped before matching (SPEC §2.2 r3), by command name. */
const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  time: { short: "fo", long: ["--format", "--output"] },
  nohup: { short: "", long: [] },
  builtin: { short: "", long: [] },
  timeout: { short: "ks", long: ["--kill-after", "--signal"], positionals: 1 },
  nice: { short: "n", long: ["--adjustment"] },
  command: { short: "", long: [] },
  exec: { short: "a", long: [] },
  stdbuf: { short: "ioe", long: ["--input", "--output", "--error"] },
  env: { short: "uCS", long: ["--unset", "--chdir", "--split-string"], assignments: true },
  xargs: {
    short: "adEILnPs",
    long: [
      "--arg-file",
      "--delimiter",
      "--eof",
      "--replace",
      "--max-lines",
      "--max-args",
      "--max-procs",
      "--max-chars",
      "--process-slot-var",
    ],
  },
};

/** The command a wrapper runs (its words), or null when `words` is no wrapper or wraps nothing. */
function unwrap(words: readonly Word[]): Word[] | null {
  const name = words[0].text.replace(/^.*\//, "");
  if (!Object.hasOwn(WRAPPERS, name)) return null;
  const spec = WRAPPERS[name];
  let split: Word[] | null = null;
  let i = 1;
  const take = (value: string, option: string) => {
    // env -S 'cmd args': the string is split into words that start the command.
    if (name === "env" && (option === "S" || option === "--split-string")) {
      const parts = splitWords(value);
      if (parts === null) throw new Unreadable();
      split = parts.flat();
    }
  };
  while (i < words.length) {
    const w = words[i].text;
    if (w === "--") {
      i++;
      break;
    }
    if (name === "env" && w === "-") {
      i++;
      continue;
    }
    if (!w.startsWith("-") || w === "-") break;
    if (w.startsWith("--")) {
      const eq = w.indexOf("=");
      if (eq >= 0) take(w.slice(eq + 1), w.slice(0, eq));
      else if (spec.long.includes(w)) take(words[++i]?.text ?? "", w);
      i++;
      continue;
    }
    for (let k = 1; k < w.length; k++) {
      if (!spec.short.includes(w[k])) continue;
      if (k + 1 < w.length) take(w.slice(k + 1), w[k]);
      else take(words[++i]?.text ?? "", w[k]);
      break;
    }
    i++;
  }
  if (spec.assignments) { while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].text)) i++; }
  i += spec.positionals ?? 0;
  const rest = [...(split ?? []), ...words.slice(i)];
  return rest.length > 0 ? rest : null;
}

/** Shells whose `-c` string is a command line. */
const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"]);

/**
 * The commands a command runs from its arguments beyond a wrapper's: a shell's `-c` line, `eval`'s
 * words, `find`'s `-exec`/`-execdir`/`-ok`/`-okdir` commands (erring toward the guard: each is a
 * subject too). A string that cannot be read makes the whole line unreadable.
 */
function commandsRun(words: readonly Word[]): Word[][] {
  const name = words[0].text.replace(/^.*\//, "");
  const split = (line: string): Word[][] => {
    const parts = splitWords(line);
    if (parts === null) throw new Unreadable();
    return parts;
  };
  if (name === "eval") {
    const rest = words.slice(1).map((w) => w.text);
    if (rest[0] === "--") rest.shift();
    return rest.length > 0 ? split(rest.join(" ")) : [];
  }
  if (SHELLS.has(name)) {
    for (let i = 1; i < words.length; i++) {
      const w = words[i].text;
      if (!w.startsWith("-") && !w.startsWith("+")) break;
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(w)) return i + 1 < words.length ? split(words[i + 1].text) : [];
    }
    return [];
  }
  if (name === "find") {
    const out: Word[][] = [];
    for (let i = 1; i < words.length; i++) {
      if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[i].text)) continue;
      let j = i + 1;
      while (j < words.length && words[j].text !== ";" && words[j].text !== "+") j++;
      if (j > i + 1) out.push(words.slice(i + 1, j));
      i = j;
    }
    return out;
  }
  return [];
}

/**
 * The simple commands of a shell command line, each as its words (quotes removed) joined by one
 * space, without leading assignments, redirections and keywords; null when the line cannot be read
 * statically (then every rule matches).
 */
export function simpleCommands(command: string): string[] | null {
  return splitWords(command)?.map((argv) => argv.map((w) => w.text).join(" ")) ?? null;
}

/** A command's words as one subject: joined by one space, runs of spaces and tabs inside words folded. */
function subject(argv: readonly Word[]): string {
  const joined = argv.map((w) => w.text).join(" ");
  return joined.includes("  ") || joined.includes("\t") ? foldSpaces(joined) : joined;
}

/**
 * What a Bash rule is tested against: every simple command of the line and each command a wrapper in
 * front of it runs, with spaces folded (a rule matches when it matches any); null when the line cannot
 * be read statically (then every rule matches).
 */
export function bashSubjects(command: string): string[] | null {
  const out = new Set<string>();
  try {
    const commands = splitWords(command);
    if (commands === null) return null;
    // Each command, then what it runs: a wrapper's command, a shell's -c line, eval's words, find's -exec.
    const visit = (argv: Word[], depth: number) => {
      if (argv[0].glob) throw new Unreadable();
      out.add(subject(argv));
      if (depth >= 16) return;
      const inner = unwrap(argv);
      if (inner !== null) visit(inner, depth + 1);
      for (const run of commandsRun(argv)) visit(run, depth + 1);
    };
    for (const argv of commands) visit(argv, 0);
  } catch (e) {
    if (e instanceof Unreadable) return null;
    throw e;
  }
  return [...out];
}
