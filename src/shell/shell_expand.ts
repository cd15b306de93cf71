/**
 * Expansion for the command reader (SPEC §3.5 r3): a word's parts (src/shell/shell_syntax.ts) to the
 * fields the command gets, with the shell's state as far as the reader follows it — variables as sets
 * of possible values (an assignment under a condition adds a value), `$PWD` and `$(pwd)` the possible
 * current folders, `$(git rev-parse --show-toplevel)` the root, `$0`/`$1`… of `sh -c`, `${V:-default}`
 * and `${V:+alt}`; field splitting of unquoted expansions; and the glob pattern of each field. `$(…)`
 * bodies are read as commands of their own (by the reader that extends {@link Expander}); their output,
 * like any value that cannot be known, is *unknown* and names the construct that made it so.
 * @module
 */
import { MAX_NESTING, type Part, type Word } from "./shell_syntax.ts";
import { quoteGlob } from "./glob.ts";
import type { Dirs } from "./reader_types.ts";
import type { ReadContext } from "./shell_reader.ts";

/** One word after expansion: its text, its glob pattern (when it has an unquoted glob character), and
 * the construct whose value is unknown in it (its text then holds the rest, best effort). */
export type Field = { text: string; glob: string | null; unknown: string | null };

/** A variable's possible values (best effort when `unknown` names what is not known). */
export type Value = { values: string[]; unknown: string | null };

/** At most this many values per variable and argument lists per simple command. */
export const MAX_ALTERNATIVES = 16;
/** Constructs are quoted in messages at most this long. */
const MAX_CONSTRUCT = 80;
const GIT_TOPLEVEL = /^\s*git\s+rev-parse\s+--show-toplevel\s*$/;
const PWD = /^\s*pwd(?:\s+-[LP])?\s*$/;
/** `dirname "$0"`: the folder of the running script (SPEC §3.5 r4: a script's own text is read). */
const DIRNAME0 = /^\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\})"?\s*$/;
/** `cd "$(dirname "$0")" && pwd`: the same folder, absolute. */
const CD_DIRNAME0 =
  /^\s*cd\s+(?:--\s+)?"?\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\})"?\s*\)"?\s*(?:&&|;)\s*pwd(?:\s+-P)?\s*$/;

/** The shell's state as far as the reader follows it. */
export type State = {
  vars: Map<string, Value>;
  dirs: Dirs;
  stack: Dirs[];
  /** `$1`, `$2`, … (each with what is unknown in it). */
  args: Field[];
  /** Set when `$1`… cannot be known (inside a function, after `set` of unknown words): the construct. */
  argsUnknown: string | null;
  zero: Field;
};

/**
 * The state a command starts in. Its folder is the cwd, and the root too: trust happens without an
 * event (the root stands for the cwd then), so at dispatch what the root resolves stays in the set
 * and only what the run's cwd adds is new (SPEC §3.5 r3).
 */
/** `$0` of the hook's own shell: `sh`, `bash` or `$SHELL` as the runner starts it — its folder is not known. */
const TOP_ZERO: Field = known("sh");

export function initialState(ctx: ReadContext): State {
  const dirs = ctx.cwd === ctx.root ? [ctx.root] : [ctx.cwd, ctx.root];
  return { vars: new Map(), dirs: { list: dirs }, stack: [], args: [], argsUnknown: null, zero: TOP_ZERO };
}

export function copyState(s: State): State {
  return { ...s, vars: new Map(s.vars), stack: [...s.stack] };
}

/** A construct as quoted in a message: one line, bounded. */
export function construct(raw: string): string {
  const one = raw.replace(/\s+/g, " ").trim();
  return one.length > MAX_CONSTRUCT ? one.slice(0, MAX_CONSTRUCT - 1) + "…" : one;
}

/** A field of known text. */
export function known(text: string): Field {
  return { text, glob: null, unknown: null };
}

/** Expands words in a state; the reader that extends it reads `$(…)` bodies and collects what is unknown. */
export abstract class Expander {
  readonly ctx: ReadContext;

  constructor(ctx: ReadContext) {
    this.ctx = ctx;
  }

  /** Reads a command line (a `$(…)` body) in `st`, `depth` levels down. */
  abstract read(text: string, st: State, depth: number): void;

  /** Notes a construct that cannot be resolved to files. */
  abstract markUnpinnable(what: string): void;

  /** A word's fields, its alternatives merged (for words whose position does not matter). */
  fields(w: Word, st: State, depth: number): Field[] {
    return this.expand(w, st, depth).flat();
  }

  /**
   * Expands a word: its alternatives (one per possible value of the variables in it), each a list
   * of fields (field splitting of unquoted expansions). `$(…)` bodies are read as commands.
   */
  expand(w: Word, st: State, depth: number): Field[][] {
    // The common word: literal text only, one field (no allocation beyond it).
    if (w.parts.length === 1 && w.parts[0].k === "lit") {
      const { text, q } = w.parts[0];
      if (q) return [[{ text, glob: null, unknown: null }]];
      if (text !== "" && !text.includes("{")) {
        return [[{ text, glob: /[*?[]/.test(text) ? text : null, unknown: null }]];
      }
    }
    let alts: Partial[] = [{ fields: [], cur: null }];
    for (const part of w.parts) {
      if (part.k === "lit") {
        // bash and zsh (a user's $SHELL) expand `{a,b}` and `{1..3}`; sh leaves them: both are read.
        const braced = part.q ? null : braceAlternatives(part.text);
        if (braced === null) {
          for (const p of alts) appendLit(p, part.text, part.q);
          continue;
        }
        const next: Partial[] = [];
        for (const p of alts) {
          for (const v of [part.text, ...braced]) {
            const c: Partial = { fields: [...p.fields], cur: p.cur ? { ...p.cur } : null };
            appendLit(c, v, false);
            next.push(c);
          }
        }
        if (next.length > MAX_ALTERNATIVES) {
          this.markUnpinnable(`too many possible values of ${construct(w.raw)}`);
          for (const p of alts) appendLit(p, part.text, false);
        } else alts = next;
        continue;
      }
      if (part.k === "tilde") {
        const home = part.user === "" ? this.ctx.home : null;
        for (const p of alts) {
          if (home !== null) appendLit(p, home, true);
          else cur(p).unknown ??= construct(`~${part.user}`);
        }
        continue;
      }
      const value = this.partValue(part, st, depth);
      const q = part.k !== "deep" && part.q;
      if (value.unknown !== null) { for (const p of alts) cur(p).unknown ??= value.unknown; }
      // A changed IFS splits unquoted values where the reader does not: nobody can tell the words.
      const ifs = q ? undefined : st.vars.get("IFS");
      if (ifs !== undefined) { for (const p of alts) cur(p).unknown ??= "IFS (a changed word splitting)"; }
      if (value.values.length === 1) {
        for (const p of alts) appendValue(p, value.values[0], q);
        continue;
      }
      const next: Partial[] = [];
      for (const p of alts) {
        for (const v of value.values) {
          const c: Partial = { fields: [...p.fields], cur: p.cur ? { ...p.cur } : null };
          appendValue(c, v, q);
          next.push(c);
        }
      }
      if (next.length > MAX_ALTERNATIVES) {
        this.markUnpinnable(`too many possible values of ${construct(w.raw)}`);
        for (const p of alts) appendValue(p, value.values[0], q);
      } else alts = next;
    }
    for (const p of alts) end(p);
    return alts.map((p) => p.fields);
  }

  /** The value of a list of parts as one string each (assignments, here-documents: no splitting). */
  valueOf(parts: Part[], st: State, depth: number, raw: string): Value {
    const alts = this.expand({ parts: parts.map((p) => quoted(p)), raw }, st, depth);
    const values = alts.map((fields) => fields.map((f) => f.text).join(" "));
    const unknown = alts.flat().find((f) => f.unknown !== null)?.unknown ?? null;
    return { values: values.length ? values : [""], unknown };
  }

  /** The value of one expansion part; `$(…)` bodies are read as commands of their own. */
  partValue(part: Exclude<Part, { k: "lit" } | { k: "tilde" }>, st: State, depth: number): Value {
    switch (part.k) {
      case "deep":
        return { values: [""], unknown: `nesting deeper than ${MAX_NESTING} levels` };
      case "arith":
        return { values: [""], unknown: construct(part.raw) };
      case "sub": {
        if (!part.proc && GIT_TOPLEVEL.test(part.body)) return { values: [this.ctx.root], unknown: null };
        if (!part.proc && PWD.test(part.body)) return dirsValue(st.dirs);
        if (!part.proc && (DIRNAME0.test(part.body) || CD_DIRNAME0.test(part.body))) {
          const zero = st.zero.text;
          const dir = zero.includes("/") ? zero.slice(0, zero.lastIndexOf("/")) || "/" : ".";
          if (st.zero.unknown !== null) return { values: [""], unknown: st.zero.unknown };
          if (st.zero === TOP_ZERO) return { values: [""], unknown: construct(part.raw) };
          if (!CD_DIRNAME0.test(part.body) || dir.startsWith("/")) return { values: [dir], unknown: null };
          const at = "list" in st.dirs ? st.dirs.list.map((d) => dir === "." ? d : `${d}/${dir}`) : null;
          return at === null ? { values: [""], unknown: construct(part.raw) } : { values: uniq(at), unknown: null };
        }
        // A subshell: what it changes stays inside.
        this.read(part.body, copyState(st), depth + 1);
        return { values: [""], unknown: construct(part.raw) };
      }
      case "var": {
        if (part.op === "other" || part.name === "") return { values: [""], unknown: construct(part.raw) };
        const v = this.lookup(part.name, st);
        if (part.op === "") return v.unknown === `$${part.name}` ? { ...v, unknown: construct(part.raw) } : v;
        const arg = part.arg ? this.valueOf(part.arg, st, depth + 1, part.raw) : { values: [""], unknown: null };
        if (part.op.endsWith("+")) {
          // `${V:+alt}`: alt when V is set (and not empty).
          if (v.unknown !== null) return { values: arg.values, unknown: construct(part.raw) };
          return { values: uniq(v.values.flatMap((x) => x === "" ? [""] : arg.values)), unknown: arg.unknown };
        }
        if (part.op.endsWith("-") || part.op.endsWith("=")) {
          // `${V:-default}`: the default when V is unset or empty.
          if (v.unknown !== null) return { values: arg.values, unknown: construct(part.raw) };
          const values = uniq(v.values.flatMap((x) => x === "" ? arg.values : [x]));
          return { values, unknown: v.values.includes("") ? arg.unknown : null };
        }
        return v.unknown === `$${part.name}` ? { ...v, unknown: construct(part.raw) } : v;
      }
    }
  }

  /** A variable's value in `st`. */
  lookup(name: string, st: State): Value {
    if (/^\d+$/.test(name) || name === "@" || name === "*" || name === "#") {
      if (name === "0") return { values: [st.zero.text], unknown: st.zero.unknown };
      if (st.argsUnknown !== null) return { values: [""], unknown: st.argsUnknown };
      if (name === "#") return { values: [String(st.args.length)], unknown: null };
      const picked = name === "@" || name === "*" ? st.args : st.args.slice(Number(name) - 1, Number(name));
      return { values: [picked.map((f) => f.text).join(" ")], unknown: picked.find((f) => f.unknown)?.unknown ?? null };
    }
    const own = st.vars.get(name);
    if (own !== undefined) return own;
    if (name === "PWD") return dirsValue(st.dirs);
    if (Object.hasOwn(this.ctx.vars, name)) return { values: [this.ctx.vars[name]], unknown: null };
    if (name === "HOME" && this.ctx.home !== null) return { values: [this.ctx.home], unknown: null };
    if (name === "PATH" || name === "PYTHONPATH" || name === "CDPATH") {
      return { values: [this.ctx.env[name] ?? ""], unknown: null };
    }
    return { values: [""], unknown: `$${name}` };
  }

  /** Sets a variable: replaces its value, or under a condition adds to its possible values. */
  setVar(st: State, name: string, value: Value, cond: boolean): void {
    if (!cond) {
      st.vars.set(name, value);
      return;
    }
    const prev = this.lookup(name, st);
    const values = uniq([...prev.values, ...value.values]);
    if (values.length > MAX_ALTERNATIVES) {
      st.vars.set(name, { values: value.values, unknown: `too many possible values of $${name}` });
    } else st.vars.set(name, { values, unknown: prev.unknown ?? value.unknown });
  }
}

/**
 * The words a brace expansion makes of `text` (`a{b,c}d` → `abd`, `acd`; `{1..3}`), or null when it
 * has none. Bounded: past {@link MAX_ALTERNATIVES} words, the first ones.
 */
export function braceAlternatives(text: string): string[] | null {
  const open = text.indexOf("{");
  if (open < 0) return null;
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < text.length && close < 0; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) close = i;
    else if (text[i] === "," && depth === 1) commas.push(i);
  }
  if (close < 0) return null;
  const head = text.slice(0, open);
  const tail = text.slice(close + 1);
  const body = text.slice(open + 1, close);
  let items: string[];
  if (commas.length > 0) {
    items = [];
    let from = open + 1;
    for (const c of [...commas, close]) {
      items.push(text.slice(from, c));
      from = c + 1;
    }
  } else {
    const range = /^(-?\d+)\.\.(-?\d+)$|^([A-Za-z])\.\.([A-Za-z])$/.exec(body);
    if (!range) {
      const rest = braceAlternatives(tail);
      return rest === null ? null : rest.map((r) => head + "{" + body + "}" + r);
    }
    const [a, b] = range[1] !== undefined
      ? [Number(range[1]), Number(range[2])]
      : [range[3].charCodeAt(0), range[4].charCodeAt(0)];
    items = [];
    for (let x = a; items.length < MAX_ALTERNATIVES && (a <= b ? x <= b : x >= b); x += a <= b ? 1 : -1) {
      items.push(range[1] !== undefined ? String(x) : String.fromCharCode(x));
    }
  }
  const out: string[] = [];
  for (const item of items) {
    for (const word of braceAlternatives(head + item + tail) ?? [head + item + tail]) {
      if (out.length >= MAX_ALTERNATIVES) return out;
      out.push(word);
    }
  }
  return out;
}

/** One alternative of a word under expansion: its finished fields and the one being built. */
type Partial = { fields: Field[]; cur: Builder | null };

function cur(p: Partial): Builder {
  return p.cur ??= { text: "", pattern: "", glob: false, unknown: null, quoted: false };
}

function end(p: Partial): void {
  const b = p.cur;
  if (b && (b.text !== "" || b.quoted || b.unknown !== null)) p.fields.push(built(b));
  p.cur = null;
}

function appendLit(p: Partial, text: string, q: boolean): void {
  const b = cur(p);
  b.text += text;
  if (q) {
    b.pattern += quoteGlob(text);
    b.quoted = true;
  } else {
    b.pattern += text;
    if (/[*?[]/.test(text)) b.glob = true;
  }
}

/** An expansion's value: quoted, as is; unquoted, split into fields at blanks (the default IFS). */
function appendValue(p: Partial, value: string, q: boolean): void {
  if (q) return appendLit(p, value, true);
  const pieces = value.split(/[ \t\n]+/);
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) end(p);
    if (pieces[i] !== "") appendLit(p, pieces[i], false);
  }
}

/** A field under construction. */
type Builder = { text: string; pattern: string; glob: boolean; unknown: string | null; quoted: boolean };

function built(b: Builder): Field {
  return { text: b.text, glob: b.glob ? b.pattern : null, unknown: b.unknown };
}

/** The part as if quoted (assignments and here-documents are neither split nor globbed). */
function quoted(p: Part): Part {
  return p.k === "tilde" || p.k === "deep" ? p : { ...p, q: true };
}

export function dirsValue(d: Dirs): Value {
  return "list" in d ? { values: d.list, unknown: null } : { values: [""], unknown: d.unknown };
}

export function unionDirs(a: Dirs, b: Dirs): Dirs {
  if ("unknown" in a) return a;
  if ("unknown" in b) return b;
  const list = uniq([...a.list, ...b.list]);
  return list.length > MAX_ALTERNATIVES ? { unknown: "too many possible folders (cd)" } : { list };
}

export function join(a: Value, b: Value): Value {
  const values = uniq(a.values.flatMap((x) => b.values.map((y) => x + y))).slice(0, MAX_ALTERNATIVES);
  return { values, unknown: a.unknown ?? b.unknown };
}

export function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
