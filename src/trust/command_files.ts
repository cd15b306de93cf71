/**
 * Which files a hook's command line runs (SPEC §3.5): a pure reading of a POSIX shell command, the
 * way `sh -c` would split it, that lists every word which may name a file inside the layer's root.
 * The caller (src/trust/pins.ts) keeps the ones that are regular files there and pins them.
 *
 * What it understands, because real hook collections write it: quotes (`'…'`, `"…"`, `$'…'`),
 * backslash escapes and line continuations; `$VAR` / `${VAR}` / `${VAR:-default}` (the variables
 * the engine knows stand for the root; any other expands to nothing, as an unset one does);
 * `"$(git rev-parse --show-toplevel)"` (the root, as the Codex docs recommend); `~` and `~/…`;
 * relative words (against the root: trust happens without an event, so the root stands for the
 * cwd; after `cd DIR` also against DIR); interpreters (`python3 x.py`, `node x.js`, `bash x.sh`,
 * `uv run x.py` — every argument is a candidate); `sh -c '…'`, `eval …`, `$(…)` and backquotes
 * (read as commands of their own); `;`, `&&`, `||`, `|`, `&`, subshells, and redirections (an input
 * redirection's file is read by the command, an output redirection's is written, so only the first
 * is a candidate: pinning a log file the hook appends to would modify the hook on every run).
 *
 * It also notes whether the command fetches code from the network at run time (`npx pkg`,
 * `curl … | sh`, a URL): pinning cannot cover that, so `list` and `review` mark it.
 *
 * Hostile input is bounded: the scan is linear in the command's length and nests at most
 * {@link MAX_NESTING} levels of `$(…)` / `sh -c`.
 * @module
 */

/** What the scan knows about the place the command runs from. */
export type ScanContext = {
  /** The layer's root, absolute: the project root, or the plugin root. */
  root: string;
  /** Variables whose value is known at trust time (those standing for the root), by name. */
  vars: Readonly<Record<string, string>>;
  /** The user's home directory for `~`, or null when unknown. */
  home: string | null;
};

/** The outcome of a scan. */
export type CommandScan = {
  /**
   * Every word that may name a file the command runs or reads, made absolute against the root (and
   * against a `cd` target), in order of appearance, without repeats; not normalized (`..` kept, as
   * the kernel resolves it).
   */
  paths: string[];
  /** What makes the command fetch from the network at run time (`npx`, `curl`, `a URL`, …), or null. */
  fetch: string | null;
};

/** `$(…)` and `sh -c` nest at most this deep; deeper text is not read (and pins nothing more). */
export const MAX_NESTING = 8;

/** Scans `command` (SPEC §3.5). Pure: no file is looked at. */
export function scanCommand(command: string, ctx: ScanContext): CommandScan {
  const out: Collected = { paths: [], seen: new Set(), fetch: null };
  scanInto(command, ctx, ctx.root, out, 0);
  return { paths: out.paths, fetch: out.fetch };
}

/** What a scan accumulates, across nested commands. */
type Collected = { paths: string[]; seen: Set<string>; fetch: string | null };

/** A lexed token: a word (its expanded text) or an operator. */
type Token = { kind: "word"; text: string; assignment: boolean } | { kind: "op"; op: string };

/** Operators, longest first so that `&&` is not read as two `&`. */
const OPERATORS = [
  "&>>",
  "<<<",
  "<<-",
  "&&",
  "||",
  ";;",
  "|&",
  "&>",
  ">>",
  ">|",
  "<<",
  "<>",
  "<&",
  ">&",
  ";",
  "&",
  "|",
  "(",
  ")",
  "<",
  ">",
];
const WORD_END = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
/** Operators that end one simple command. */
const SEPARATORS = new Set([";", ";;", "&", "&&", "||", "|", "|&", "(", ")", "\n"]);
/** Redirections whose target word the command reads (a candidate); the others' target is skipped. */
const READ_REDIRECTS = new Set(["<", "<>"]);

/** Commands that run the command named after them (their own options and assignments first). */
const WRAPPERS = new Set(["env", "exec", "command", "nice", "nohup", "time", "timeout", "sudo", "xargs", "stdbuf"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
/** Programs that download what they run (or download at all). */
const FETCHERS = new Set(["npx", "bunx", "pnpx", "uvx", "curl", "wget"]);
/** Program + subcommand pairs that download what they run. */
const FETCHING_SUBCOMMANDS: Record<string, Set<string>> = {
  pnpm: new Set(["dlx"]),
  yarn: new Set(["dlx"]),
  npm: new Set(["exec", "x"]),
  pipx: new Set(["run"]),
  bun: new Set(["x"]),
};
const URL = /^(?:https?|ftp):\/\/|^git\+/;
const GIT_TOPLEVEL = /^\s*git\s+rev-parse\s+--show-toplevel\s*$/;

function scanInto(command: string, ctx: ScanContext, cwd: string, out: Collected, depth: number): string {
  if (depth > MAX_NESTING) return cwd;
  const nested: string[] = [];
  const tokens = lex(command, ctx, nested);
  let words: string[] = [];
  let assignments: string[] = [];
  let dir = cwd;
  const flush = () => {
    dir = simpleCommand(words, assignments, ctx, dir, out, depth);
    words = [];
    assignments = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "op") {
      if (SEPARATORS.has(t.op)) {
        flush();
        continue;
      }
      // A redirection: its target is the next word.
      const target = tokens[i + 1];
      if (target?.kind === "word") {
        i++;
        if (READ_REDIRECTS.has(t.op)) addPath(target.text, ctx, dir, out);
      }
      continue;
    }
    if (words.length === 0 && t.assignment) assignments.push(t.text);
    else words.push(t.text);
  }
  flush();
  // `$(…)` and backquotes run in a subshell from the same directory.
  for (const inner of nested) scanInto(inner, ctx, cwd, out, depth + 1);
  return dir;
}

/** One simple command: its words after the leading assignments. Returns the directory after it (`cd`). */
function simpleCommand(
  words: string[],
  assignments: string[],
  ctx: ScanContext,
  dir: string,
  out: Collected,
  depth: number,
): string {
  for (const a of assignments) addPath(a.slice(a.indexOf("=") + 1), ctx, dir, out);
  if (words.length === 0) return dir;
  let at = 0;
  // The program: a bare name is looked up on PATH, not in the directory; a path is a candidate.
  for (;;) {
    const name = words[at];
    if (name.includes("/")) addPath(name, ctx, dir, out);
    const base = basename(name);
    noteFetch(base, words[at + 1], out);
    if (!WRAPPERS.has(base)) break;
    // The wrapped command: after the wrapper's options, assignments and (for timeout) duration.
    let next = at + 1;
    while (next < words.length && (words[next].startsWith("-") || /^[A-Za-z_]\w*=/.test(words[next]))) {
      if (words[next].includes("=")) addPath(words[next].slice(words[next].indexOf("=") + 1), ctx, dir, out);
      next++;
    }
    if (base === "timeout" && next < words.length && /^\d/.test(words[next])) next++;
    if (next >= words.length) return dir;
    at = next;
  }
  const name = basename(words[at]);
  const args = words.slice(at + 1);
  if (name === "cd") {
    const target = args.find((a) => !a.startsWith("-"));
    if (target === undefined) return ctx.home ?? dir;
    return target.startsWith("/") ? target : `${dir}/${target}`;
  }
  if (name === "eval") {
    scanInto(args.join(" "), ctx, dir, out, depth + 1);
    return dir;
  }
  const shellScript = SHELLS.has(name) ? args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a)) : -1;
  args.forEach((arg, i) => {
    if (i === shellScript + 1 && shellScript >= 0) {
      // `bash -c '…'`: the argument is a command line of its own.
      scanInto(arg, ctx, dir, out, depth + 1);
      return;
    }
    if (URL.test(arg) && out.fetch === null) out.fetch = "a URL";
    if (arg.startsWith("-")) {
      // `--config=path`: the value may name a file; other options do not.
      const eq = arg.indexOf("=");
      if (eq > 0) addPath(arg.slice(eq + 1), ctx, dir, out);
      return;
    }
    addPath(arg, ctx, dir, out);
  });
  return dir;
}

/** Notes a program that downloads what it runs. */
function noteFetch(program: string, next: string | undefined, out: Collected): void {
  if (out.fetch !== null) return;
  if (FETCHERS.has(program)) out.fetch = program;
  else if (next !== undefined && FETCHING_SUBCOMMANDS[program]?.has(next)) out.fetch = `${program} ${next}`;
}

/** Adds the absolute candidates of one word: itself when absolute, else against the root and the `cd` directory. */
function addPath(word: string, ctx: ScanContext, dir: string, out: Collected): void {
  if (word === "" || URL.test(word)) return;
  const candidates = word.startsWith("/") ? [word] : [`${ctx.root}/${word}`, `${dir}/${word}`];
  for (const c of candidates) {
    if (out.seen.has(c)) continue;
    out.seen.add(c);
    out.paths.push(c);
  }
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

// The lexer.

/** Splits a command line into words (expanded) and operators; `$(…)` and backquote bodies go to `nested`. */
function lex(src: string, ctx: ScanContext, nested: string[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "\n") {
      tokens.push({ kind: "op", op: "\n" });
      i++;
      continue;
    }
    if (c === "#") {
      // A comment runs to the end of the line (a `#` inside a word is part of it).
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? n : nl;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op !== undefined) {
      // `2>` and `2>&1`: a digit right before a redirection belongs to it (lexed as a word, dropped here).
      const last = tokens.at(-1);
      if (last?.kind === "word" && /^\d+$/.test(last.text) && /[<>]/.test(op) && src[i - 1] !== " ") tokens.pop();
      tokens.push({ kind: "op", op });
      i += op.length;
      continue;
    }
    const word = readWord(src, i, ctx, nested, 0);
    tokens.push({ kind: "word", text: word.text, assignment: word.assignment });
    i = word.end;
  }
  return tokens;
}

/**
 * Reads one word starting at `start`: quote removal and expansions applied. `depth` counts the
 * expansions it is inside (`"$"…"`, `${A:-…}`): past {@link MAX_NESTING} their text is not read,
 * so no input can overflow the stack.
 */
function readWord(
  src: string,
  start: number,
  ctx: ScanContext,
  nested: string[],
  depth: number,
): { text: string; end: number; assignment: boolean } {
  let text = "";
  let i = start;
  const n = src.length;
  // `NAME=` at the start of a word, unquoted: an assignment when it leads a simple command.
  const assign = /^[A-Za-z_]\w*=/.exec(src.slice(start, start + 256));
  if (src[i] === "~") {
    // Tilde prefix: `~` or `~/…` is the home; `~user` is left as written (it names no root file).
    const m = /^~(?=\/|$|[\s;&|()<>])/.exec(src.slice(i));
    if (m && ctx.home !== null) {
      text += ctx.home;
      i += 1;
    }
  }
  while (i < n) {
    const c = src[i];
    if (WORD_END.has(c)) break;
    if (c === "\\") {
      if (src[i + 1] === "\n") i += 2;
      else {
        text += src[i + 1] ?? "";
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const close = src.indexOf("'", i + 1);
      const end = close < 0 ? n : close;
      text += src.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const r = readDoubleQuoted(src, i + 1, ctx, nested, depth);
      text += r.text;
      i = r.end;
      continue;
    }
    if (c === "$") {
      const r = readDollar(src, i, ctx, nested, depth);
      text += r.text;
      i = r.end;
      continue;
    }
    if (c === "`") {
      const r = readBackquote(src, i + 1);
      nested.push(r.body);
      i = r.end;
      continue;
    }
    text += c;
    i++;
  }
  return { text, end: i, assignment: assign !== null && assign[0].length <= i - start };
}

/** The body of `"…"` from just after the opening quote; returns the text and the offset after the close. */
function readDoubleQuoted(
  src: string,
  start: number,
  ctx: ScanContext,
  nested: string[],
  depth: number,
): { text: string; end: number } {
  if (depth > MAX_NESTING) return { text: "", end: matchingClose(src, start, "", '"', 1) };
  let text = "";
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === '"') return { text, end: i + 1 };
    if (c === "\\") {
      const next = src[i + 1];
      if (next === "\n") i += 2;
      else if (next === "$" || next === "`" || next === '"' || next === "\\") {
        text += next;
        i += 2;
      } else {
        text += c;
        i++;
      }
      continue;
    }
    if (c === "$") {
      const r = readDollar(src, i, ctx, nested, depth);
      text += r.text;
      i = r.end;
      continue;
    }
    if (c === "`") {
      const r = readBackquote(src, i + 1);
      nested.push(r.body);
      i = r.end;
      continue;
    }
    text += c;
    i++;
  }
  return { text, end: src.length };
}

/** A `$` expansion at `start`: its value (empty when unknown) and the offset after it. */
function readDollar(
  src: string,
  start: number,
  ctx: ScanContext,
  nested: string[],
  depth: number,
): { text: string; end: number } {
  const next = src[start + 1];
  if (next === "'") {
    const r = readAnsiC(src, start + 2);
    return { text: r.text, end: r.end };
  }
  if (next === '"') return readDoubleQuoted(src, start + 2, ctx, nested, depth + 1);
  if (next === "(") {
    if (src[start + 2] === "(") {
      // Arithmetic expansion: a number, never a file.
      return { text: "", end: matchingClose(src, start + 3, "(", ")", 2) };
    }
    const end = matchingClose(src, start + 2, "(", ")", 1);
    const body = src.slice(start + 2, end - 1);
    if (GIT_TOPLEVEL.test(body)) return { text: ctx.root, end };
    nested.push(body);
    return { text: "", end };
  }
  if (next === "{") {
    const end = matchingClose(src, start + 2, "{", "}", 1);
    const body = src.slice(start + 2, end - 1);
    const m = /^([A-Za-z_]\w*)(?::?[-=+?](.*))?$/s.exec(body);
    if (!m) return { text: "", end };
    const known = lookupVar(ctx, m[1]);
    if (known !== undefined) return { text: known, end };
    // `${NAME:-default}` of an unknown NAME: the default, with its quotes removed.
    const op = body.slice(m[1].length).replace(/^:/, "")[0];
    if (m[2] !== undefined && (op === "-" || op === "=") && depth < MAX_NESTING) {
      return { text: readWord(m[2], 0, ctx, nested, depth + 1).text, end };
    }
    return { text: "", end };
  }
  const name = /^[A-Za-z_]\w*/.exec(src.slice(start + 1, start + 257));
  if (name) return { text: lookupVar(ctx, name[0]) ?? "", end: start + 1 + name[0].length };
  // `$1`, `$@`, `$?`, `$$`, …: never known at trust time.
  if (next !== undefined && /[0-9@*#?$!\-]/.test(next)) return { text: "", end: start + 2 };
  return { text: "$", end: start + 1 };
}

function lookupVar(ctx: ScanContext, name: string): string | undefined {
  if (Object.hasOwn(ctx.vars, name)) return ctx.vars[name];
  if (name === "HOME" && ctx.home !== null) return ctx.home;
  return undefined;
}

/** A frame of {@link matchingClose}: code (counting one kind of bracket) or a double-quoted string. */
type Frame = { kind: "code"; open: string; close: string; depth: number } | { kind: "dq" };

/**
 * The offset just after the close matching an opening already consumed (`depth` of them), skipping
 * quotes and the `$(…)` inside double quotes. Iterative (an explicit stack), so that no nesting
 * overflows the call stack; `open` `""` with close `"` finds the end of a double-quoted string.
 */
function matchingClose(src: string, start: number, open: string, close: string, depth: number): number {
  const frames: Frame[] = [close === '"' ? { kind: "dq" } : { kind: "code", open, close, depth }];
  let i = start;
  while (i < src.length) {
    const f = frames[frames.length - 1];
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (f.kind === "dq") {
      if (c === '"') {
        frames.pop();
        i++;
        if (frames.length === 0) return i;
      } else if (c === "$" && src[i + 1] === "(") {
        frames.push({ kind: "code", open: "(", close: ")", depth: 1 });
        i += 2;
      } else i++;
      continue;
    }
    if (c === "'") {
      const q = src.indexOf("'", i + 1);
      i = q < 0 ? src.length : q + 1;
      continue;
    }
    if (c === '"') frames.push({ kind: "dq" });
    else if (c === f.open) f.depth++;
    else if (c === f.close && --f.depth === 0) {
      frames.pop();
      if (frames.length === 0) return i + 1;
    }
    i++;
  }
  return src.length;
}

/** A backquoted command from just after the opening quote: its body (escapes removed) and the offset after it. */
function readBackquote(src: string, start: number): { body: string; end: number } {
  let body = "";
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\" && (src[i + 1] === "`" || src[i + 1] === "\\" || src[i + 1] === "$")) {
      body += src[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") return { body, end: i + 1 };
    body += c;
    i++;
  }
  return { body, end: src.length };
}

const ANSI_C: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  e: "\x1b",
  a: "\x07",
};

/** The body of `$'…'` from just after its quote. */
function readAnsiC(src: string, start: number): { text: string; end: number } {
  let text = "";
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === "'") return { text, end: i + 1 };
    if (c === "\\" && i + 1 < src.length) {
      text += ANSI_C[src[i + 1]] ?? src[i + 1];
      i += 2;
      continue;
    }
    text += c;
    i++;
  }
  return { text, end: src.length };
}

/**
 * The variables that stand for a layer's root at trust time (SPEC §3.5): for a project layer,
 * `$CLAUDE_PROJECT_DIR` and `$MIND_PROJECT_DIR`; for a plugin, `$PLUGIN_ROOT` and `$CLAUDE_PLUGIN_ROOT`.
 */
export function rootVariables(kind: "project" | "plugin", root: string): Record<string, string> {
  return kind === "project"
    ? { CLAUDE_PROJECT_DIR: root, MIND_PROJECT_DIR: root }
    : { PLUGIN_ROOT: root, CLAUDE_PLUGIN_ROOT: root };
}
