/**
 * The command reader (SPEC §3.5 r3): reads a hook's command line as the shell that starts it reads it,
 * and says which files it runs. Pure: the command text, the place it runs from and a two-method view
 * of the file system (folder listings for globs, small text files for `package.json`) in; the files,
 * folders, unpinnable construct and network fetch out. Which files exist is decided by the caller
 * (src/trust/pins.ts).
 *
 * The walk keeps the shell's state as it goes: variables (each a set of possible values, so that an
 * assignment under `&&`, `if` or a loop adds a value rather than replacing it), the possible current
 * folders (`cd`, `pushd`, `popd`), and `$0`/`$1…` inside `sh -c`. Each simple command is expanded
 * (parameters, `$(pwd)`, field splitting, globs against the disk) and handed to the program models
 * (src/shell/programs.ts): wrappers, builtins, shells and interpreters.
 *
 * Whatever cannot be resolved to files where a file is run — a `$(…)` other than `$(pwd)` and
 * `$(git rev-parse --show-toplevel)`, a variable whose value is not known, `eval` of such text, a
 * `source` of a computed path, a here-document fed to a shell — makes the command *unpinnable*: the
 * first such construct is reported (and every file that could be resolved is still listed).
 * SECURITY.md ("What the command reader reads") lists the grammar and names the test of each rule.
 * @module
 */
import { lex, MAX_NESTING, type Part, type Token, type Word } from "./shell_syntax.ts";
import { expandGlob, quoteGlob, unquoteGlob } from "./glob.ts";
import { InheritedLoaders, inheritedLoaders } from "./loader_vars.ts";
import { assignmentOf, CLOSERS, KEYWORDS, normalPath, OPENERS, REDIRECTS } from "./shell_words.ts";
import {
  assignedValue,
  type Command,
  type Dirs,
  type PipeFrom,
  runProgram,
  type Sink,
  type Stdin,
} from "./programs.ts";
import {
  construct,
  copyState,
  Expander,
  type Field,
  initialState,
  join,
  MAX_ALTERNATIVES,
  type State,
  unionDirs,
  uniq,
  type Value,
} from "./shell_expand.ts";

export { construct, type Field, type Value } from "./shell_expand.ts";

/** The file-system view the reader needs. */
export type ReaderFs = {
  /** A folder's entry names, or null when it is no folder (or cannot be read). */
  list(dir: string): string[] | null;
  /** A small text file (`package.json`), or null when it is none. */
  readText(path: string): string | null;
};

/** Where and how the command will run. */
export type ReadContext = {
  /** The layer's root (the project's or the plugin's), absolute. */
  root: string;
  /** The folder the command starts in: the run's cwd at dispatch, the root at trust time. */
  cwd: string;
  /** Variables whose values are known (the root variables; a plugin's data folder), by name. */
  vars: Readonly<Record<string, string>>;
  /** The user's home for `~` and `$HOME`, or null. */
  home: string | null;
  /** The environment the hook gets: `PATH` and `PYTHONPATH` are read from it. */
  env: Readonly<Record<string, string | undefined>>;
  fs: ReaderFs;
};

/**
 * A folder whose code the command may run: named by a word, a package run, `find … -exec` (its code
 * files), or `python` — a Python script's directory, `sys.path[0]` (its Python modules only, SPEC §3.5 r4).
 */
export type PinFolder = {
  path: string;
  why: "token" | "package" | "find" | "python";
  names: string[];
  /** Whose closure it is, for people (`.mind/check.py`, `PYTHONPATH`). */
  of?: string;
};

/** What the command runs. */
export type CommandReading = {
  /** Absolute paths that may name a file the command runs or reads, in order, without repeats. */
  files: string[];
  folders: PinFolder[];
  /** The first construct that cannot be resolved to files (SPEC §3.5 r3), or null. */
  unpinnable: string | null;
  /** What makes the command fetch from the network at run time (`npx`, `curl`, `a URL`), or null. */
  fetch: string | null;
  /**
   * Candidate paths of scripts whose closure a language model gave (SPEC §3.5 r4 precision): the
   * script-folder fallback is not applied to them.
   */
  modelled: string[];
};

/** Reads `command` (SPEC §3.5 r3). Never throws on any text. */
export function readCommand(command: string, ctx: ReadContext): CommandReading {
  const r = new Reader(ctx);
  const st = initialState(ctx);
  // The loader variables the hook inherits are judged against the environment it runs with (SPEC §3.5 r4):
  // those every program reads now, the others where the command runs a program that reads them.
  r.inherit(inheritedLoaders(ctx.env).map((name) => ({ name, value: ctx.env[name]! })), st.dirs);
  r.read(command, st, 0);
  return { files: r.files, folders: r.folders, unpinnable: r.unpinnable, fetch: r.fetch, modelled: r.modelled };
}

/** A command line names at most this many candidates; glob words list at most this many folders. */
const MAX_CANDIDATES = 8192;
const MAX_LISTINGS = 2048;

/** A redirection of a simple command. */
type Redirect = { op: string; word: Word; here?: { parts: Part[] | null } };

/** The reader: one per command, accumulating across nested commands. */
class Reader extends Expander implements Sink {
  readonly files: string[] = [];
  readonly folders: PinFolder[] = [];
  readonly modelled: string[] = [];
  unpinnable: string | null = null;
  fetch: string | null = null;
  readonly #seen = new Set<string>();
  readonly #added = new WeakMap<Dirs, Set<string>>();
  #listings = 0;
  /** The state of the simple command being read (set by {@link Reader.simple}). */
  #st: State = initialState({ root: "", cwd: "" } as ReadContext);
  #cond = false;
  #depth = 0;

  /** Reads a command line in `st` (changed in place), `depth` levels down. */
  read(text: string, st: State, depth: number): void {
    if (depth > MAX_NESTING) {
      this.markUnpinnable(`nesting deeper than ${MAX_NESTING} levels`);
      return;
    }
    this.walk(lex(text), st, depth);
  }

  // The walk over one command line's tokens.

  walk(tokens: Token[], st: State, depth: number): void {
    let words: Word[] = [];
    let redirects: Redirect[] = [];
    let nest = 0;
    let andOr = false;
    let pipe: PipeFrom | null = null;
    let casePattern = false;
    const finish = (op: string) => {
      const piped = op === "|" || op === "|&";
      let from: PipeFrom | null = null;
      if (words.length > 0 || redirects.length > 0) {
        from = this.simple(words, redirects, pipe, st, depth, nest > 0 || andOr || piped || pipe !== null);
      }
      pipe = piped ? from ?? { fetch: false, cat: false } : null;
      words = [];
      redirects = [];
    };
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.t === "op") {
        if (casePattern) {
          if (t.op === ")") casePattern = false;
          continue;
        }
        if (REDIRECTS.has(t.op)) {
          const target = tokens[i + 1];
          if (target?.t === "word") {
            redirects.push({ op: t.op, word: target.w, here: t.here });
            i++;
          }
          continue;
        }
        if (t.op === "(" && words.length === 1 && redirects.length === 0) {
          const close = tokens[i + 1];
          if (close?.t === "op" && close.op === ")") {
            // `name() { …; }`: a function definition, its body read as commands that may run — with
            // arguments nobody knows (`$1` is what a call passes).
            this.define(words[0].raw.replace(/^function$/, ""));
            words = [];
            st.argsUnknown ??= "$1 of a function";
            i++;
            continue;
          }
          if (/^[A-Za-z_]\w*\+?=$/.test(words[0].raw)) {
            // `name=(a b c)`: an array, whose values the reader does not follow.
            const name = words[0].raw.replace(/\+?=$/, "");
            while (i < tokens.length && !(tokens[i].t === "op" && (tokens[i] as { op: string }).op === ")")) i++;
            this.setVar(st, name, { values: [""], unknown: construct(`${name}=(…)`) }, true);
            words = [];
            continue;
          }
        }
        finish(t.op);
        if (t.op === ";" || t.op === "\n" || t.op === "&") andOr = false;
        else if (t.op === "&&" || t.op === "||") andOr = true;
        else if (t.op === "(") nest++;
        else if (t.op === ")") nest = Math.max(0, nest - 1);
        else if (t.op === ";;" || t.op === ";&" || t.op === ";;&") casePattern = true;
        continue;
      }
      if (casePattern) {
        if (t.w.raw === "esac") {
          casePattern = false;
          nest = Math.max(0, nest - 1);
        }
        continue;
      }
      const kw = words.length === 0 && redirects.length === 0 && KEYWORDS.has(t.w.raw) ? t.w.raw : null;
      if (kw === null) {
        words.push(t.w);
        continue;
      }
      if (OPENERS.has(kw)) nest++;
      else if (CLOSERS.has(kw) || kw === "esac") nest = Math.max(0, nest - 1);
      else if (kw === "for" || kw === "select") {
        nest++;
        i = this.loop(tokens, i, st, depth);
      } else if (kw === "case") {
        nest++;
        const subject = tokens[i + 1];
        if (subject?.t === "word") this.expand(subject.w, st, depth);
        i += 2; // the subject and `in`
        casePattern = true;
      } else if (kw === "[[") {
        // A test: its words name no program; their `$(…)` still run.
        while (++i < tokens.length) {
          const w = tokens[i];
          if (w.t === "word" && w.w.raw === "]]") break;
          if (w.t === "word") this.expand(w.w, st, depth);
        }
      } else if (kw === "function") {
        st.argsUnknown ??= "$1 of a function";
        const fname = tokens[i + 1];
        if (fname?.t === "word") this.define(fname.w.raw.replace(/\(\)$/, ""));
        i++;
      }
    }
    finish("\n");
  }

  /** `for NAME in WORDS; do` (or `select`): NAME takes each value of WORDS. Returns the last token read. */
  loop(tokens: Token[], at: number, st: State, depth: number): number {
    let i = at + 1;
    const name = tokens[i];
    if (name?.t !== "word" || !/^[A-Za-z_]\w*$/.test(name.w.raw)) return at; // `for ((…))`: arithmetic
    const values: string[] = [];
    let unknown: string | null = null;
    const next = tokens[i + 1];
    if (next?.t === "word" && next.w.raw === "in") {
      i += 2;
      for (; i < tokens.length; i++) {
        const w = tokens[i];
        if (w.t !== "word") break;
        for (const f of this.fields(w.w, st, depth)) {
          unknown ??= f.unknown;
          const matches = f.glob !== null ? this.globMatches(f, st.dirs) : null;
          values.push(...(matches ?? [f.text]));
        }
      }
      i--;
    } else {
      unknown = st.argsUnknown ?? st.args.find((f) => f.unknown)?.unknown ?? null;
      values.push(...(st.args.length ? st.args.map((f) => f.text) : [""]));
      i++;
    }
    // In the body the variable holds one of the values (a body that never runs reads nothing).
    this.setVar(st, name.w.raw, { values: values.length ? values : [""], unknown }, false);
    return i;
  }

  /** One simple command. Returns what it gives a pipe. */
  simple(
    words: Word[],
    redirects: Redirect[],
    pipe: PipeFrom | null,
    st: State,
    depth: number,
    cond: boolean,
  ): PipeFrom {
    let stdin: Stdin = pipe ? { kind: "pipe", from: pipe } : { kind: "none" };
    for (const r of redirects) {
      if (r.op === "<<" || r.op === "<<-") {
        stdin = { kind: "here", what: "a here-document" };
        if (r.here?.parts) this.valueOf(r.here.parts, st, depth, "a here-document");
        continue;
      }
      const fields = this.fields(r.word, st, depth);
      if (r.op === "<<<") stdin = { kind: "here", what: "a here-string" };
      else if (r.op === "<" || r.op === "<>") {
        // The command reads this file: it may be its program (`sh < x.sh`).
        if (fields[0]) {
          stdin = { kind: "file", field: fields[0] };
          this.path(fields[0], "data", st.dirs);
        }
      }
    }
    let k = 0;
    const env = new Map<string, Value>();
    for (; k < words.length; k++) {
      const a = assignmentOf(words[k]);
      if (a === null) break;
      const value = this.valueOf(a.parts, st, depth, words[k].raw);
      const prev = a.append ? this.lookup(a.name, st) : null;
      env.set(a.name, prev ? join(prev, value) : value);
      assignedValue(a.name, value, { argv: [], env, stdin, dirs: st.dirs, xargs: null }, this);
    }
    const saved = [this.#st, this.#cond, this.#depth] as const;
    [this.#st, this.#cond, this.#depth] = [st, cond, depth];
    try {
      if (k === words.length) {
        for (const [name, value] of env) this.setVar(st, name, value, cond);
        return { fetch: false, cat: false };
      }
      const lists = this.argvLists(words.slice(k), st, depth);
      let from: PipeFrom = { fetch: false, cat: false };
      for (const argv of lists) {
        if (argv.length === 0) continue;
        const cmd: Command = { argv, env, stdin, dirs: st.dirs, xargs: null };
        const fetchBefore = this.fetch;
        from = runProgram(cmd, this);
        if (this.fetch !== fetchBefore) from = { ...from, fetch: true };
      }
      return from;
    } finally {
      [this.#st, this.#cond, this.#depth] = saved;
    }
  }

  /** The argument lists of a command's words: one per combination of their values (bounded). */
  argvLists(words: Word[], st: State, depth: number): Field[][] {
    let lists: Field[][] = [[]];
    for (const w of words) {
      const alts = this.expand(w, st, depth);
      if (alts.length === 1) {
        for (const l of lists) l.push(...alts[0]);
        continue;
      }
      const next: Field[][] = [];
      for (const l of lists) for (const a of alts) next.push([...l, ...a]);
      if (next.length > MAX_ALTERNATIVES) {
        this.markUnpinnable(`too many possible values of ${construct(w.raw)}`);
        for (const l of lists) l.push(...alts[0]);
        continue;
      }
      lists = next;
    }
    return lists;
  }

  // Resolution: words to candidate paths.

  /** Adds `text` (absolute, or relative to each of `dirs` and to the root) as a candidate. */
  addRelative(text: string, dirs: Dirs): void {
    if (text === "" || this.files.length >= MAX_CANDIDATES) return this.addFile(text);
    // A word already added from the same folders adds nothing new (a command of many equal words).
    let done = this.#added.get(dirs);
    if (done === undefined) this.#added.set(dirs, done = new Set());
    if (done.has(text)) return;
    done.add(text);
    if (/^(?:https?|ftp):\/\/|^git\+/.test(text)) return;
    if (text.startsWith("/")) return this.addFile(text);
    this.addFile(`${this.ctx.root}/${text}`);
    if ("list" in dirs) { for (const d of dirs.list) this.addFile(`${d}/${text}`); }
  }

  addFile(raw: string): void {
    if (raw === "") return;
    if (this.files.length >= MAX_CANDIDATES) {
      this.markUnpinnable(`more than ${MAX_CANDIDATES} words that may name files`);
      return;
    }
    const path = normalPath(raw);
    if (this.#seen.has(path)) return;
    this.#seen.add(path);
    this.files.push(path);
  }

  /** The absolute paths a field's glob matches, against each possible folder (null: no glob). */
  globMatches(f: Field, dirs: Dirs): string[] | null {
    if (f.glob === null) return null;
    const bases = f.glob.startsWith("/") ? [""] : [this.ctx.root, ...("list" in dirs ? dirs.list : [])];
    const out: string[] = [];
    const list = (d: string) => {
      if (++this.#listings <= MAX_LISTINGS) return this.ctx.fs.list(d);
      this.markUnpinnable(`globs listing more than ${MAX_LISTINGS} folders`);
      return null;
    };
    for (const b of uniq(bases)) {
      const matches = expandGlob(b === "" ? f.glob : `${quoteGlob(b)}/${f.glob}`, list);
      if (matches) out.push(...matches);
    }
    return out.length ? out : null;
  }

  // The sink the program models write into (src/shell/programs.ts).

  /** A word naming a file: `run` (the program, a script) makes an unknown value unpinnable. */
  path(f: Field, role: "run" | "data", dirs: Dirs, suffixes: readonly string[] = [""]): void {
    if (f.unknown !== null && role === "run") this.markUnpinnable(f.unknown);
    // Another view of some folder (the run's cwd, an open file): what it leads to is not known here.
    if (role === "run" && /^\/(?:proc|dev\/fd)\/|^\/dev\/stdin$/.test(f.text)) this.markUnpinnable(construct(f.text));
    if (role === "run" && !f.text.startsWith("/") && "unknown" in dirs) this.markUnpinnable(dirs.unknown);
    const matches = this.globMatches(f, dirs);
    const texts = matches ?? [f.glob !== null ? unquoteGlob(f.glob) : f.text];
    for (const t of texts) for (const s of suffixes) this.addRelative(t + s, dirs);
  }

  readonly #defined = new Set<string>();
  /** The loader variables the hook inherits (src/shell/loader_vars.ts), judged as the programs that read them run. */
  #inherited: InheritedLoaders | null = null;

  /** Takes the inherited loader variables: judged now when every program reads them, else when one runs. */
  inherit(vars: readonly { name: string; value: string }[], dirs: Dirs): void {
    this.#inherited = new InheritedLoaders(vars, dirs, this);
  }

  programRuns(name: string): void {
    this.#inherited?.programRuns(name);
  }

  define(name: string): void {
    this.#defined.add(name);
  }

  isDefined(name: string): boolean {
    return this.#defined.has(name);
  }

  resolvesInRoot(prog: Field, cmd: Command): boolean {
    const path = this.variable(cmd, "PATH");
    if (path.unknown !== null) return false;
    for (const value of path.values) {
      for (const entry of value.split(":")) {
        const dirs = this.dirsAt(entry === "" ? "." : entry, cmd.dirs);
        if (!("list" in dirs)) continue;
        for (const d of dirs.list) {
          if (d !== this.ctx.root && !d.startsWith(this.ctx.root + "/")) continue;
          if (this.ctx.fs.list(d)?.includes(prog.text)) return true;
        }
      }
    }
    return false;
  }

  /** A script whose closure its language's model gives: its candidate paths skip the folder fallback. */
  modelledScript(f: Field, dirs: Dirs): void {
    const texts = this.globMatches(f, dirs) ?? [f.text];
    for (const t of texts) {
      if (t === "") continue;
      if (t.startsWith("/")) this.modelled.push(normalPath(t));
      else {
        for (const d of uniq([this.ctx.root, ...("list" in dirs ? dirs.list : [])])) {
          this.modelled.push(normalPath(`${d}/${t}`));
        }
      }
    }
  }

  readonly #scripts = new Set<string>();

  /**
   * A shell script run (`sh x.sh`, `./x.sh`) or sourced (`. x.sh`): its own text is read by this reader
   * (SPEC §3.5 r4), so what it sources or runs is its closure. A script whose text cannot be read to
   * the end (a construct the reader cannot resolve) falls back to the code files of its folder and below.
   */
  shellScript(f: Field, dirs: Dirs, args: Field[], how: "run" | "source"): void {
    if (f.unknown !== null || !("list" in dirs)) return;
    const paths = f.text.startsWith("/") ? [f.text] : uniq([...dirs.list, this.ctx.root].map((d) => `${d}/${f.text}`));
    for (const raw of paths) {
      const path = normalPath(raw);
      const text = this.ctx.fs.readText(path);
      if (text === null) continue;
      if (this.#scripts.has(path)) continue;
      this.#scripts.add(path);
      const before = this.unpinnable;
      this.unpinnable = null;
      // A script run by a new shell sees none of this shell's variables but the environment's (the
      // reader keeps no export marks: it sees none, so what it reads of them is unknown).
      const st = how === "source"
        ? this.#st
        : { ...copyState(this.#st), vars: new Map(), args, argsUnknown: null, zero: f };
      this.read(text, st, this.#depth + 1);
      const failed = this.unpinnable;
      this.unpinnable = before;
      if (failed === null) this.modelled.push(path);
      else this.folders.push({ path: path.slice(0, path.lastIndexOf("/")), why: "package", names: [] });
    }
  }

  /** Candidate texts, each relative to the given bases (or absolute). */
  relative(texts: readonly string[], bases: readonly string[]): void {
    for (const b of bases) for (const t of texts) this.addFile(b === "" ? t : `${b}/${t}`);
  }

  folder(f: Field, why: PinFolder["why"], dirs: Dirs, names: string[] = [], of?: string): void {
    const texts = this.globMatches(f, dirs) ?? [f.text];
    for (const t of texts) {
      if (t === "") continue;
      const bases = t.startsWith("/")
        ? [t]
        : [`${this.ctx.root}/${t}`, ...("list" in dirs ? dirs.list : []).map((d) => `${d}/${t}`)];
      for (const path of uniq(bases)) {
        this.folders.push(of === undefined ? { path, why, names } : { path, why, names, of });
      }
    }
  }

  markUnpinnable(what: string): void {
    this.unpinnable ??= what;
  }

  markFetch(what: string): void {
    this.fetch ??= what;
  }

  /** Reads a command line given as a string (`sh -c`, `eval`, `env -S`, package.json scripts). */
  nested(
    text: string,
    opts: { args?: Field[]; zero?: Field; dirs?: Dirs; subshell?: boolean; pathPrefix?: string } = {},
  ): void {
    const st = opts.subshell === false ? this.#st : copyState(this.#st);
    if (opts.args) [st.args, st.argsUnknown] = [opts.args, null];
    if (opts.zero !== undefined) st.zero = opts.zero;
    if (opts.dirs) st.dirs = opts.dirs;
    if (opts.pathPrefix !== undefined) {
      const path = this.lookup("PATH", st);
      st.vars.set("PATH", { values: path.values.map((p) => `${opts.pathPrefix}:${p}`), unknown: path.unknown });
    }
    this.read(text, st, this.#depth + 1);
  }

  /** The words of a string split as `env -S` and `xargs` split them (quotes and `${VAR}` honoured). */
  split(text: string): Field[] {
    const tokens = lex(text.replaceAll("\n", " "));
    const out: Field[] = [];
    for (const t of tokens) if (t.t === "word") out.push(...this.fields(t.w, this.#st, this.#depth + 1));
    return out;
  }

  /** `cd`, `pushd`, `popd`: the possible current folders after it. */
  chdir(target: Field | null, how: "cd" | "pushd" | "popd"): void {
    const st = this.#st;
    let next: Dirs;
    if (how === "popd") next = st.stack.pop() ?? st.dirs;
    else if (target === null) next = this.ctx.home !== null ? { list: [this.ctx.home] } : { unknown: "cd" };
    else if (target.unknown !== null) next = { unknown: target.unknown };
    else next = this.dirsAt(target.text, st.dirs);
    if (how === "pushd") st.stack.push(st.dirs);
    st.dirs = this.#cond ? unionDirs(st.dirs, next) : next;
  }

  /** The folders a relative or absolute folder name stands for, from `dirs`. */
  dirsAt(text: string, dirs: Dirs): Dirs {
    if (text.startsWith("/")) return { list: [text] };
    if ("unknown" in dirs) return dirs;
    return { list: uniq(dirs.list.map((d) => `${d}/${text}`)) };
  }

  assign(name: string, value: Value): void {
    this.setVar(this.#st, name, value, this.#cond);
  }

  setArgs(args: Field[] | null, what = "set"): void {
    const st = this.#st;
    if (args === null || this.#cond) [st.args, st.argsUnknown] = [[], st.argsUnknown ?? what];
    else [st.args, st.argsUnknown] = [args, null];
  }

  shiftArgs(n: number): void {
    this.#st.args = this.#st.args.slice(n);
  }

  valueOfField(f: Field): Value {
    return { values: [f.text], unknown: f.unknown };
  }

  /** A variable as this command sees it: its own prefix assignments first. */
  variable(cmd: Command, name: string): Value {
    return cmd.env.get(name) ?? this.lookup(name, this.#st);
  }

  readText(path: string): string | null {
    return this.ctx.fs.readText(path);
  }

  /** The root of the layer. */
  get root(): string {
    return this.ctx.root;
  }
}
