/**
 * Claude Code's per-handler `if` filter (SPEC §2.2): a permission rule such as `Bash(git commit*)` or
 * `Edit(*.ts)`, tested against the tool call as the hook receives it (SPEC §5 form), the way Claude Code
 * decides it (checked against its 2.1 CLI, see tests/interop/) — except that *(r3)* a filter decides
 * whether a guard runs, so where the two could differ it errs toward running the hook:
 *
 * - `Tool` or `Tool(*)` / `Tool()` matches every call of that tool (Claude Code's legacy names are
 *   folded: `Task` is `Agent`, …); mind's aliases (SPEC §4) count too, so `Edit(…)` also sees `apply_patch`.
 * - `Bash(…)` is tested against every simple command of the line and every command a wrapper in front
 *   of one runs (src/matching/bash_split.ts: operators, pipes, groups, keywords, wrappers), and matches
 *   when any fits: `prefix:*` (the legacy form) means "is `prefix` or starts with `prefix `"; otherwise
 *   `*` is any text, and a single trailing ` *` also accepts the bare command (`git *` matches `git`).
 *   A line the reader cannot read statically (expansions, substitutions, here-docs, brace expansion, a
 *   glob in a command's name, unbalanced quotes, over 10,000 characters) matches: the hook runs.
 * - `Read`, `Edit`, `Write`, `NotebookEdit` (and `NotebookRead`) match the file path with gitignore
 *   rules relative to the cwd (`//abs`, `~/home`, `/root-relative` anchor it), or the whole path with
 *   `*` wildcards when the pattern starts with `*` or has none; `Glob` and `Grep` match their `pattern`.
 * - Any other content rule (`WebFetch(domain:…)`, MCP tools) never matches: Claude Code has no matcher
 *   for those tools' inputs.
 *
 * Cost (SPEC §2.2 r3, §15): no regular expression is built from a rule; a dispatch compiles each rule
 * once ({@link IfFilter}); Bash and whole-path wildcards match in time linear in the text
 * (src/matching/wildcard.ts); a gitignore file rule, whose name wildcards cost rule × path, is not
 * evaluated past {@link FILE_RULE_COST} and matches; and once the filters of one dispatch have spent
 * {@link IF_BUDGET_MS}, the remaining ones match unevaluated (the dispatch warns `W_IF_BUDGET`).
 * @module
 */
import type { JsonObject } from "../util/json.ts";
import { toolMatchSubjects } from "./tool_names.ts";
import { bashSubjects } from "./bash_split.ts";
import { compileWildcard, foldSpaces, type Wildcard } from "./wildcard.ts";
import { cpuTimeMs } from "../util/timer.ts";

/** The time the `if` filters of one dispatch may spend before the rest match unevaluated (SPEC §2.2 r3). */
export const IF_BUDGET_MS = 50;

/**
 * A gitignore file rule is evaluated only while its length times the path's stays under this (its name
 * wildcards cost that product); past it the rule matches unevaluated, so the guard runs.
 */
export const FILE_RULE_COST = 4_000_000;

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

/** What a rule said: it matches or not, or it was not evaluated (counted as matched). */
type Verdict = boolean | "unchecked";

/** A tool call read once for every rule of a dispatch: its tool names, its Bash subjects, its files. */
class PreparedCall {
  readonly names: string[];
  #bash: string[] | null | undefined;
  #files: string[] | undefined;
  constructor(readonly call: ToolCall) {
    this.names = toolMatchSubjects(call.toolName).map(canonicalTool);
  }
  /** The Bash subjects (null: unreadable, every rule matches; undefined: no command string). */
  get bash(): string[] | null | undefined {
    if (this.#bash === undefined) {
      const command = this.call.toolInput.command;
      if (typeof command !== "string") return undefined;
      this.#bash = bashSubjects(command);
    }
    return this.#bash;
  }
  get files(): string[] {
    return this.#files ??= filePaths(this.call);
  }
}

/** A compiled rule: what it says about a prepared call. */
type CompiledRule = (call: PreparedCall) => Verdict;

/** Compiles one rule (its wildcards built once, whatever the number of calls and commands). */
function compileRule(rule: string): CompiledRule {
  const parsed = parsePermissionRule(rule);
  const tool = parsed.toolName;
  const content = parsed.content;
  const ofTool = (call: PreparedCall) => call.names.includes(tool);
  if (content === undefined) return ofTool;
  switch (tool) {
    case "Bash": {
      const matches = compileBashRule(content);
      return (call) => {
        if (!ofTool(call)) return false;
        const subjects = call.bash;
        if (subjects === undefined) return false;
        return subjects === null || subjects.some(matches);
      };
    }
    case "Read":
    case "Edit":
    case "Write":
    case "NotebookEdit":
    case "NotebookRead": {
      const whole = compileWildcard(content, false);
      return (call) => {
        if (!ofTool(call)) return false;
        let unchecked = false;
        for (const path of call.files) {
          const v = fileRuleVerdict(content, whole, path, call.call.cwd, call.call.home);
          if (v === true) return true;
          if (v === "unchecked") unchecked = true;
        }
        return unchecked ? "unchecked" : false;
      };
    }
    case "Glob":
    case "Grep": {
      const wildcard = compileWildcard(content, false);
      return (call) => {
        const pattern = call.call.toolInput.pattern;
        return ofTool(call) && typeof pattern === "string" && wildcard.test(pattern);
      };
    }
    default:
      return () => false;
  }
}

/** A Bash rule's content as a test of one (space-folded) subject. */
function compileBashRule(content: string): (subject: string) => boolean {
  const prefix = /^(.+):\*$/s.exec(content)?.[1] ?? null;
  if (prefix !== null) {
    const p = foldSpaces(prefix);
    return (c) => c === p || c.startsWith(`${p} `);
  }
  const wildcard = compileWildcard(content, true);
  return (c) => wildcard.test(c);
}

/** How an {@link IfFilter} measures time (tests pass a clock of their own). */
export type IfFilterOptions = { budgetMs?: number; now?: () => number };

/**
 * The `if` filters of one dispatch against its one tool call (SPEC §2.2 r3): each rule compiled once,
 * the call read once, and a time budget over all of them — once spent, every further rule matches
 * unevaluated and {@link IfFilter.unchecked} counts it (the dispatch then warns `W_IF_BUDGET`).
 */
export class IfFilter {
  #rules = new Map<string, CompiledRule>();
  #call: PreparedCall;
  #spent = 0;
  #unchecked = 0;
  #budget: number;
  #now: () => number;

  constructor(call: ToolCall, opts: IfFilterOptions = {}) {
    this.#call = new PreparedCall(call);
    this.#budget = opts.budgetMs ?? IF_BUDGET_MS;
    this.#now = opts.now ?? cpuTimeMs;
  }

  /** True when the handler whose `if` is `rule` should run for this call. */
  matches(rule: string): boolean {
    if (this.#spent >= this.#budget) {
      this.#unchecked++;
      return true;
    }
    const started = this.#now();
    try {
      let compiled = this.#rules.get(rule);
      if (compiled === undefined) {
        compiled = compileRule(rule);
        this.#rules.set(rule, compiled);
      }
      const verdict = compiled(this.#call);
      if (verdict === "unchecked") this.#unchecked++;
      return verdict !== false;
    } finally {
      this.#spent += this.#now() - started;
    }
  }

  /** How many rules matched unevaluated (over the budget, or past the file-rule cost bound). */
  get unchecked(): number {
    return this.#unchecked;
  }

  /** How many distinct rules were compiled. */
  get compiledRules(): number {
    return this.#rules.size;
  }
}

/** True when the handler whose `if` is `rule` should run for `call` (one rule, one call). */
export function ruleMatchesToolCall(rule: string, call: ToolCall): boolean {
  return compileRule(rule)(new PreparedCall(call)) !== false;
}

/** True when the Bash rule content `content` matches `command` (any of its subjects, or it is unreadable). */
export function bashRuleMatches(content: string, command: string): boolean {
  const subjects = bashSubjects(command);
  return subjects === null || subjects.some(compileBashRule(content));
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
  return fileRuleVerdict(content, compileWildcard(content, false), path, cwd, home) !== false;
}

/** {@link fileRuleMatches} with the whole-path wildcard compiled; "unchecked" past {@link FILE_RULE_COST}. */
function fileRuleVerdict(content: string, whole: Wildcard, path: string, cwd: string, home?: string): Verdict {
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
    if (rel !== "") {
      if (pattern.length * rel.length > FILE_RULE_COST) return "unchecked";
      if (gitignoreMatches(pattern, rel)) return true;
    }
  }
  const trimmed = content.trim();
  const hasStar = unescapedIndex(trimmed, "*", false) >= 0;
  if (trimmed.startsWith("*") || (!hasStar && !trimmed.endsWith(":*"))) return whole.test(path);
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
