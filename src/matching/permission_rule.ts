/**
 * Claude Code's per-handler `if` filter (SPEC §2.2): a permission rule such as `Bash(git commit*)` or
 * `Edit(*.ts)`, tested against the tool call as the hook receives it (SPEC §5 form), the way Claude Code
 * decides it (checked against its 2.1 CLI, see tests/interop/):
 *
 * - `Tool` or `Tool(*)` / `Tool()` matches every call of that tool (Claude Code's legacy names are
 *   folded: `Task` is `Agent`, …); mind's aliases (SPEC §4) count too, so `Edit(…)` also sees `apply_patch`.
 * - `Bash(…)` splits the command into its simple commands (`&&`, `||`, `;`, `|`, `&`, newlines), drops
 *   leading `NAME=value` assignments and redirections, removes quotes, and matches when any of them
 *   fits: `prefix:*` (the legacy form) means "is `prefix` or starts with `prefix `"; otherwise `*` is any
 *   text, and a single trailing ` *` also accepts the bare command (`git *` matches `git`). A command
 *   too complex to split statically (substitutions, expansions, subshells, unbalanced quotes) matches,
 *   as in Claude Code: the hook runs rather than being skipped.
 * - `Read`, `Edit`, `Write`, `NotebookEdit` (and `NotebookRead`) match the file path with gitignore
 *   rules relative to the cwd (`//abs`, `~/home`, `/root-relative` anchor it), or the whole path with
 *   `*` wildcards when the pattern starts with `*` or has none; `Glob` and `Grep` match their `pattern`.
 * - Any other content rule (`WebFetch(domain:…)`, MCP tools) never matches: Claude Code has no matcher
 *   for those tools' inputs.
 *
 * Every matcher here is linear in its input (no regular expressions built from the rule), so a stranger's
 * `if` cannot stall a dispatch (SPEC §15).
 * @module
 */
import type { JsonObject } from "../events/types.ts";
import { toolMatchSubjects } from "./tool_names.ts";

/** A parsed permission rule. */
export type PermissionRule = { toolName: string; content?: string };

/** Claude Code's legacy tool names, folded before comparing. */
const LEGACY_TOOL_NAMES: ReadonlyMap<string, string> = new Map([
  ["Task", "Agent"],
  ["KillShell", "TaskStop"],
  ["KillBash", "TaskStop"],
  ["AgentOutputTool", "TaskOutput"],
  ["BashOutputTool", "TaskOutput"],
  ["AgentOutput", "TaskOutput"],
  ["BashOutput", "TaskOutput"],
]);

function canonicalTool(name: string): string {
  return LEGACY_TOOL_NAMES.get(name) ?? name;
}

/** The index of `ch` not preceded by an odd number of backslashes, searching from the start or the end. */
function unescapedIndex(text: string, ch: string, fromEnd: boolean): number {
  const step = fromEnd ? -1 : 1;
  for (let i = fromEnd ? text.length - 1 : 0; i >= 0 && i < text.length; i += step) {
    if (text[i] !== ch) continue;
    let slashes = 0;
    for (let j = i - 1; j >= 0 && text[j] === "\\"; j--) slashes++;
    if (slashes % 2 === 0) return i;
  }
  return -1;
}

/** Parses `Tool` or `Tool(content)` as Claude Code does (`\(`, `\)` and `\\` escape inside the content). */
export function parsePermissionRule(rule: string): PermissionRule {
  const open = unescapedIndex(rule, "(", false);
  const close = unescapedIndex(rule, ")", true);
  if (open <= 0 || close !== rule.length - 1 || close <= open) return { toolName: canonicalTool(rule) };
  const toolName = canonicalTool(rule.slice(0, open));
  const inner = rule.slice(open + 1, close);
  if (inner === "" || inner === "*") return { toolName };
  return { toolName, content: inner.replaceAll("\\(", "(").replaceAll("\\)", ")").replaceAll("\\\\", "\\") };
}

/** The tool call an `if` is tested against: the hook's own input (SPEC §5 form). */
export type ToolCall = { toolName: string; toolInput: JsonObject; cwd: string; home?: string };

/** True when the handler whose `if` is `rule` should run for `call`. */
export function ruleMatchesToolCall(rule: string, call: ToolCall): boolean {
  const parsed = parsePermissionRule(rule);
  const names = toolMatchSubjects(call.toolName).map(canonicalTool);
  if (!names.includes(parsed.toolName)) return false;
  if (parsed.content === undefined) return true;
  const content = parsed.content;
  switch (parsed.toolName) {
    case "Bash": {
      const command = call.toolInput.command;
      return typeof command === "string" && bashRuleMatches(content, command);
    }
    case "Read":
    case "Edit":
    case "Write":
    case "NotebookEdit":
    case "NotebookRead":
      return filePaths(call).some((p) => fileRuleMatches(content, p, call.cwd, call.home));
    case "Glob":
    case "Grep": {
      const pattern = call.toolInput.pattern;
      return typeof pattern === "string" && wildcardMatches(content, pattern, false);
    }
    default:
      return false;
  }
}

/** The files a file tool call touches: its `file_path` / `notebook_path`, or the files an `apply_patch` names. */
function filePaths(call: ToolCall): string[] {
  const input = call.toolInput;
  for (const field of ["file_path", "notebook_path"]) {
    if (typeof input[field] === "string") return [input[field] as string];
  }
  if (call.toolName === "apply_patch" && typeof input.command === "string") {
    const out: string[] = [];
    for (const line of input.command.split("\n")) {
      const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trimEnd());
      if (m) out.push(m[1]);
    }
    return out;
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Bash

/** Commands longer than this are not split (Claude Code's own bound); they match, so the hook runs. */
const MAX_SPLIT_LENGTH = 10_000;

/** True when the Bash rule content `content` matches `command`. */
export function bashRuleMatches(content: string, command: string): boolean {
  const commands = simpleCommands(command);
  if (commands === null) return true;
  const prefix = /^(.+):\*$/s.exec(content)?.[1] ?? null;
  return commands.some((c) => {
    if (prefix !== null) {
      return c === prefix || c.startsWith(`${prefix} `) || c === `xargs ${prefix}` ||
        c.startsWith(`xargs ${prefix} `);
    }
    return wildcardMatches(content, c, true) || wildcardMatches(`xargs ${content}`, c, true);
  });
}

/**
 * The simple commands of a shell command line, each as its words (quotes removed) joined by one
 * space, without leading assignments and redirections; null when the line is too complex to split
 * without a shell (then every rule matches).
 */
export function simpleCommands(command: string): string[] | null {
  if (command.length > MAX_SPLIT_LENGTH) return null;
  // Control characters (other than tab and newline) and here-docs: not static.
  if (command.includes("<<")) return null;
  for (let i = 0; i < command.length; i++) {
    const code = command.charCodeAt(i);
    if ((code < 32 && code !== 9 && code !== 10) || code === 127) return null;
  }
  const out: string[] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    const argv = commandWords(words);
    if (argv.length > 0) out.push(argv.join(" "));
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      // Expansions and substitutions inside double quotes are not static either.
      if (c === "$" || c === "`") return null;
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < command.length && '"\\'.includes(command[i + 1])) word += command[++i];
      else word += c;
      continue;
    }
    // Substitutions, expansions and subshells outside quotes: not static.
    if (c === "$" || c === "`" || c === "(" || c === ")") return null;
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\") {
      // A backslash-newline continues the line; any other escaped character is literal.
      if (command[i + 1] === "\n") i++;
      else if (i + 1 < command.length) {
        word += command[++i];
        inWord = true;
      }
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === "\n" || c === ";" || c === "&" || c === "|") {
      endCommand();
    } else if (c === "#" && !inWord) {
      // A comment runs to the end of the line.
      while (i + 1 < command.length && command[i + 1] !== "\n") i++;
    } else if (c === ">" || c === "<") {
      // A redirection: the operator (with any fd digits before it) and its target are not words.
      if (inWord && /^\d+$/.test(word)) {
        word = "";
        inWord = false;
      }
      endWord();
      while (i + 1 < command.length && (command[i + 1] === ">" || command[i + 1] === "&")) i++;
      while (i + 1 < command.length && (command[i + 1] === " " || command[i + 1] === "\t")) i++;
      // Skip the target word (a plain word: quotes in a target are rare and still end at a space).
      while (i + 1 < command.length && !" \t\n;&|<>".includes(command[i + 1])) i++;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) return null;
  endCommand();
  return out;
}

/** A simple command's words without its leading `NAME=value` assignments. */
function commandWords(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
  return words.slice(i);
}

// ---------------------------------------------------------------------------------------------
// Wildcards: Claude Code's rule patterns, as a small automaton (no backtracking)

type Step = { kind: "char"; ch: string } | { kind: "any" };
type State = { steps: { step: Step; to: number }[]; eps: number[] };

/**
 * Matches `pattern` against the whole of `text` the way Claude Code's rule wildcards do: `*` is any
 * text (slashes and newlines included), `\*` a literal star, `**` between slashes any number of folders, and a single
 * trailing ` *` also accepts nothing at all. `collapseSpaces` folds runs of spaces and tabs (Bash rules).
 */
export function wildcardMatches(pattern: string, text: string, collapseSpaces: boolean): boolean {
  let p = pattern.trim();
  let t = text;
  if (collapseSpaces) {
    p = p.replace(/[ \t]+/g, " ");
    t = t.replace(/[ \t]+/g, " ");
  }
  const tokens: ({ lit: string } | "star" | "globstar")[] = [];
  let stars = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\" && i + 1 < p.length && (p[i + 1] === "*" || p[i + 1] === "\\")) {
      tokens.push({ lit: p[++i] });
    } else if (c === "/" && p.startsWith("**/", i + 1)) {
      // `/**/` (repeated or not) is one folder wildcard.
      let j = i;
      while (p.startsWith("/**", j) && p[j + 3] === "/") {
        j += 3;
        stars += 2;
      }
      tokens.push("globstar");
      i = j; // at the final "/", consumed by the globstar
    } else if (c === "*") {
      tokens.push("star");
      stars++;
    } else tokens.push({ lit: c });
  }
  // A single trailing " *": the space and its arguments are optional.
  let optionalTail = false;
  const n = tokens.length;
  if (stars === 1 && n >= 2 && tokens[n - 1] === "star" && typeof tokens[n - 2] === "object") {
    const before = tokens[n - 2] as { lit: string };
    if (before.lit === " ") {
      tokens.splice(n - 2, 2);
      optionalTail = true;
    }
  }
  const states: State[] = [{ steps: [], eps: [] }];
  const add = () => states.push({ steps: [], eps: [] }) - 1;
  let cur = 0;
  const char = (ch: string) => {
    const next = add();
    states[cur].steps.push({ step: { kind: "char", ch }, to: next });
    cur = next;
  };
  const anyLoop = () => {
    const loop = add();
    states[cur].eps.push(loop);
    states[loop].steps.push({ step: { kind: "any" }, to: loop });
    cur = loop;
  };
  for (const tok of tokens) {
    if (tok === "star") anyLoop();
    else if (tok === "globstar") {
      // "/" then optionally (anything ending in "/").
      char("/");
      const after = add();
      const from = cur;
      states[from].eps.push(after);
      anyLoop();
      char("/");
      states[cur].eps.push(after);
      cur = after;
    } else char(tok.lit);
  }
  if (optionalTail) {
    const end = add();
    const from = cur;
    states[from].eps.push(end);
    char(" ");
    anyLoop();
    states[cur].eps.push(end);
    cur = end;
  }
  return simulate(states, cur, t);
}

/**
 * Runs the automaton over `text`; true when `accept` is reachable at the end. Each character costs at most
 * one visit per state (stamped arrays, no sets), so the whole run is O(states × characters).
 */
function simulate(states: State[], accept: number, text: string): boolean {
  const n = states.length;
  const seen = new Uint32Array(n);
  let stamp = 0;
  let current = new Int32Array(n);
  let next = new Int32Array(n);
  let size = 0;
  const closeFrom = (list: Int32Array, count: number): number => {
    // Adds every epsilon-reachable state to list[0..count), marking them with the current stamp.
    let i = 0;
    while (i < count) {
      for (const e of states[list[i]].eps) {
        if (seen[e] !== stamp) {
          seen[e] = stamp;
          list[count++] = e;
        }
      }
      i++;
    }
    return count;
  };
  stamp++;
  seen[0] = stamp;
  current[0] = 0;
  size = closeFrom(current, 1);
  for (const ch of text) {
    stamp++;
    let count = 0;
    for (let i = 0; i < size; i++) {
      for (const { step, to } of states[current[i]].steps) {
        if ((step.kind === "any" || step.ch === ch) && seen[to] !== stamp) {
          seen[to] = stamp;
          next[count++] = to;
        }
      }
    }
    if (count === 0) return false;
    size = closeFrom(next, count);
    [current, next] = [next, current];
  }
  for (let i = 0; i < size; i++) if (current[i] === accept) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Files

/** Joins and normalizes a POSIX path (`.` and `..` segments resolved lexically). */
function resolvePath(base: string, path: string): string {
  const parts: string[] = [];
  for (const seg of (path.startsWith("/") ? path : `${base}/${path}`).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

/** True when the file rule content `content` matches `path` (absolute or relative to `cwd`). */
export function fileRuleMatches(content: string, path: string, cwd: string, home?: string): boolean {
  let file = path.trim();
  if (file === "~" || file.startsWith("~/")) file = home ? `${home}${file.slice(1)}` : file;
  file = resolvePath(cwd, file);
  let pattern = content;
  let root = cwd;
  if (pattern.startsWith("//")) {
    root = "/";
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("~/")) {
    if (home === undefined) return false;
    root = home;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("./")) pattern = pattern.slice(2);
  pattern = pattern.replace(/\/{2,}/g, "/");
  if (pattern.endsWith("/**")) {
    const base = pattern.slice(0, -3);
    pattern = /[^/]/.test(base) ? base : "/**";
  }
  const rootSlash = root.endsWith("/") ? root : `${root}/`;
  if (file.startsWith(rootSlash) || file === root) {
    const rel = file.slice(rootSlash.length);
    if (rel !== "" && gitignoreMatches(pattern, rel)) return true;
  }
  const trimmed = content.trim();
  const hasStar = unescapedIndex(trimmed, "*", false) >= 0;
  if (trimmed.startsWith("*") || (!hasStar && !trimmed.endsWith(":*"))) return wildcardMatches(content, path, false);
  return false;
}

/**
 * One gitignore pattern against a relative file path: a pattern without an inner slash matches a
 * name at any depth, one with a slash is anchored at the root; a match on a folder covers what is
 * under it; a trailing slash matches folders only; `*` and `?` stay inside one name, `**` spans folders.
 */
export function gitignoreMatches(pattern: string, rel: string): boolean {
  let p = pattern;
  if (p === "" || p.startsWith("!") || p.startsWith("#")) return false;
  const dirOnly = p.endsWith("/");
  if (dirOnly) p = p.replace(/\/+$/, "");
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  if (p === "") return false;
  const pat = p.split("/");
  const segs = rel.split("/");
  const last = segs.length - 1;
  if (!anchored) {
    // Any one name: the file itself (not for a folder-only pattern) or a folder above it.
    return segs.some((s, i) => (i < last || !dirOnly) && segmentMatches(pat[0], s));
  }
  // Anchored: the pattern covers the first k names; k < all names means a folder holding the file.
  for (let k = 1; k <= segs.length; k++) {
    if (k === segs.length && dirOnly) break;
    if (segmentsMatch(pat, segs.slice(0, k))) return true;
  }
  return false;
}

/** Pattern names against path names, `**` standing for any number of names (dynamic programming). */
function segmentsMatch(pat: string[], segs: string[]): boolean {
  // ok[j] = the pattern so far matches the first j names.
  let ok = new Array<boolean>(segs.length + 1).fill(false);
  ok[0] = true;
  for (const p of pat) {
    const next = new Array<boolean>(segs.length + 1).fill(false);
    for (let j = 0; j <= segs.length; j++) {
      if (!ok[j]) continue;
      if (p === "**") { for (let k = j; k <= segs.length; k++) next[k] = true; }
      else if (j < segs.length && segmentMatches(p, segs[j])) next[j + 1] = true;
    }
    ok = next;
  }
  return ok[segs.length];
}

/** One name against one pattern name: `*` any run of characters, `?` one, `[…]` a class, `\x` a literal x. */
export function segmentMatches(pattern: string, name: string): boolean {
  type Tok = { any: true } | { one: true } | { cls: (c: string) => boolean } | { lit: string };
  const toks: Tok[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) toks.push({ lit: pattern[++i] });
    else if (c === "*") toks.push({ any: true });
    else if (c === "?") toks.push({ one: true });
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) {
        toks.push({ lit: c });
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let k = 0; k < body.length; k++) {
        if (k + 2 < body.length && body[k + 1] === "-") {
          ranges.push([body[k], body[k + 2]]);
          k += 2;
        } else ranges.push([body[k], body[k]]);
      }
      toks.push({ cls: (ch) => ranges.some(([a, b]) => ch >= a && ch <= b) !== negate });
      i = close;
    } else toks.push({ lit: c });
  }
  // Classic wildcard matching, O(len(name) × len(pattern)): ok[t] = the first t tokens match the name so far.
  let ok = new Array<boolean>(toks.length + 1).fill(false);
  ok[0] = true;
  for (let t = 0; t < toks.length && "any" in toks[t]; t++) ok[t + 1] = true;
  for (const ch of name) {
    const next = new Array<boolean>(toks.length + 1).fill(false);
    for (let t = 0; t < toks.length; t++) {
      const tok = toks[t];
      if ("any" in tok) next[t + 1] = ok[t + 1] || next[t];
      else next[t + 1] = ok[t] && ("one" in tok || ("cls" in tok ? tok.cls(ch) : tok.lit === ch));
    }
    ok = next;
  }
  return ok[toks.length];
}
