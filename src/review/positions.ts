/**
 * Where things sit in configuration files: the line and column of a hook
 * handler, a matcher group or a field, for `list`, `review` and `validate`
 * (SPEC §2.2 "warnings naming file, line and column", §14 "its file and line").
 *
 * Discovery works on parsed values and keeps no positions (it is on the
 * dispatch hot path). Here, only when a person asks, each file is re-read and
 * scanned once into a map from value path (`["hooks","PreToolUse",0,"hooks",1]`)
 * to offset: hooks.json through jsonc-parser's `parseTree` (imported lazily),
 * TOML through the small position scanner below, which understands tables,
 * arrays of tables, dotted keys and inline arrays/tables — every way a
 * `[hooks]` table can be written. Positions are best effort: a shape the
 * scanner does not follow yields "no line", never a wrong answer or a crash.
 * @module
 */
import { lineStarts, MAX_CONFIG_BYTES, positionAt } from "../config/files.ts";
import type { Warning } from "../config/warnings.ts";
import { tooDeepOffset } from "../util/nesting.ts";

/** A path to a value inside a parsed file: object keys and array indexes. */
export type ValuePath = (string | number)[];

/** A 1-based line and column. */
export type Position = { line: number; column: number };

const pathKey = (p: ValuePath) => JSON.stringify(p);

/** Offsets of every key and array element of a TOML document (keys: JSON of the value path). */
export function tomlOffsets(text: string): Map<string, number> {
  const out = new Map<string, number>();
  // Parents are recorded too (first sight wins), so `[hooks.state."k"]` also places `hooks.state`.
  const record = (p: ValuePath, off: number) => {
    for (let len = 1; len <= p.length; len++) {
      const k = pathKey(p.slice(0, len));
      if (!out.has(k)) out.set(k, off);
    }
  };
  const aotCounts = new Map<string, number>();
  const n = text.length;
  let i = 0;
  let current: ValuePath = [];

  const skipInline = () => {
    while (i < n && (text[i] === " " || text[i] === "\t")) i++;
  };
  // Whitespace, newlines and comments (inside arrays and, in TOML 1.1, inline tables).
  const skipAll = () => {
    while (i < n) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\r" || c === "\n") i++;
      else if (c === "#") {
        while (i < n && text[i] !== "\n") i++;
      } else break;
    }
  };
  const skipLine = () => {
    while (i < n && text[i] !== "\n") i++;
  };
  const basicStringEnd = (from: number): number => {
    let j = from + 1;
    while (j < n && text[j] !== '"' && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
    return Math.min(n, j + 1);
  };
  const parseKeys = (): ValuePath => {
    const keys: ValuePath = [];
    while (i < n) {
      skipInline();
      const c = text[i];
      if (c === '"') {
        const end = basicStringEnd(i);
        const raw = text.slice(i, end);
        try {
          keys.push(JSON.parse(raw));
        } catch {
          keys.push(raw.slice(1, -1));
        }
        i = end;
      } else if (c === "'") {
        const end = text.indexOf("'", i + 1);
        if (end < 0) return keys;
        keys.push(text.slice(i + 1, end));
        i = end + 1;
      } else {
        const start = i;
        while (i < n && /[A-Za-z0-9_-]/.test(text[i])) i++;
        if (i === start) return keys;
        keys.push(text.slice(start, i));
      }
      skipInline();
      if (text[i] !== ".") return keys;
      i++;
    }
    return keys;
  };
  // Resolves a header's keys to a concrete path: an array of tables on the way means its last element.
  const resolve = (keys: ValuePath, upTo: number): ValuePath => {
    const p: ValuePath = [];
    for (let k = 0; k < upTo; k++) {
      p.push(keys[k]);
      const count = aotCounts.get(pathKey(p));
      if (count !== undefined) p.push(count - 1);
    }
    return p;
  };
  const parseValue = (path: ValuePath, depth: number): void => {
    skipInline();
    const start = i;
    if (depth > 64 || i >= n) return;
    record(path, start);
    const c = text[i];
    if (c === "[") {
      i++;
      let idx = 0;
      while (i < n) {
        skipAll();
        if (text[i] === "]") {
          i++;
          return;
        }
        parseValue([...path, idx++], depth + 1);
        skipAll();
        if (text[i] === ",") i++;
        else if (text[i] !== "]") return; // not TOML we follow: stop, positions stay best effort
      }
    } else if (c === "{") {
      i++;
      while (i < n) {
        skipAll();
        if (text[i] === "}") {
          i++;
          return;
        }
        const keyStart = i;
        const keys = parseKeys();
        skipInline();
        if (keys.length === 0 || text[i] !== "=") return;
        i++;
        record([...path, ...keys], keyStart);
        parseValue([...path, ...keys], depth + 1);
        skipAll();
        if (text[i] === ",") i++;
        else if (text[i] !== "}") return;
      }
    } else if (text.startsWith('"""', i)) {
      let j = i + 3;
      while (j < n && !text.startsWith('"""', j)) j += text[j] === "\\" ? 2 : 1;
      j += 3;
      while (j < n && text[j] === '"') j++;
      i = Math.min(n, j);
    } else if (text.startsWith("'''", i)) {
      const end = text.indexOf("'''", i + 3);
      let j = end < 0 ? n : end + 3;
      while (j < n && text[j] === "'") j++;
      i = j;
    } else if (c === '"') {
      i = basicStringEnd(i);
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      i = end < 0 ? n : end + 1;
    } else {
      while (i < n && !",]}\n#".includes(text[i])) i++;
    }
  };

  while (i < n) {
    skipInline();
    if (i >= n) break;
    const c = text[i];
    if (c === "\n" || c === "\r") {
      i++;
    } else if (c === "#") {
      skipLine();
    } else if (c === "[") {
      const headerStart = i;
      const aot = text[i + 1] === "[";
      i += aot ? 2 : 1;
      const keys = parseKeys();
      if (keys.length === 0) {
        skipLine();
        continue;
      }
      const parent = resolve(keys, keys.length - 1);
      const p: ValuePath = [...parent, keys[keys.length - 1]];
      if (aot) {
        const k = pathKey(p);
        const idx = aotCounts.get(k) ?? 0;
        aotCounts.set(k, idx + 1);
        record(p, headerStart);
        p.push(idx);
      } else {
        const count = aotCounts.get(pathKey(p));
        if (count !== undefined) p.push(count - 1);
      }
      record(p, headerStart);
      current = p;
      skipLine();
    } else {
      const keyStart = i;
      const keys = parseKeys();
      skipInline();
      if (keys.length === 0 || text[i] !== "=") {
        skipLine();
        continue;
      }
      i++;
      const p = [...current, ...keys];
      record(p, keyStart);
      parseValue(p, 0);
      // Anything after the value on its line is a comment (or an error smol-toml already reported).
      skipLine();
    }
  }
  return out;
}

/** Offsets of every key (for object members) and element (for arrays) of a JSONC document. */
export async function jsonOffsets(text: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  // jsonc-parser recurses; a file that grew deep since discovery read it gets no positions (SPEC §15).
  if (tooDeepOffset(text) >= 0) return out;
  const jsonc = await import("jsonc-parser");
  const root = jsonc.parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return out;
  const walk = (node: import("jsonc-parser").Node, path: ValuePath, at: number, depth: number) => {
    out.set(pathKey(path), at);
    if (depth > 64) return;
    if (node.type === "object") {
      // A repeated key: the parsers keep the last one, so that is the one that runs and is shown.
      const last = new Map<string, import("jsonc-parser").Node>();
      for (const prop of node.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (k && v) last.set(String(k.value), prop);
      }
      for (const [key, prop] of last) walk(prop.children![1], [...path, key], prop.offset, depth + 1);
    } else if (node.type === "array") {
      (node.children ?? []).forEach((el, idx) => walk(el, [...path, idx], el.offset, depth + 1));
    }
  };
  walk(root, [], root.offset, 0);
  return out;
}

type Indexed = { offsets: Map<string, number>; lineStarts: number[] };

/**
 * Looks up positions in configuration files, reading and scanning each file
 * at most once. Sources are hook-key paths: a file, `<manifest>#<n>` for an
 * inline plugin manifest entry, or `cli-override` (no position).
 */
export class PositionIndex {
  #files = new Map<string, Promise<Indexed | null>>();

  #load(file: string): Promise<Indexed | null> {
    let p = this.#files.get(file);
    if (!p) {
      p = (async () => {
        try {
          const info = await Deno.stat(file);
          if (!info.isFile || info.size > MAX_CONFIG_BYTES) return null;
          const text = await Deno.readTextFile(file);
          const offsets = /\.toml$/i.test(file) ? tomlOffsets(text) : await jsonOffsets(text);
          return { offsets, lineStarts: lineStarts(text) };
        } catch {
          return null;
        }
      })();
      this.#files.set(file, p);
    }
    return p;
  }

  /** The file and value path of the `hooks` object a hook source refers to. */
  async #base(source: string): Promise<{ file: string; base: ValuePath; idx: Indexed } | null> {
    if (source === "cli-override") return null;
    const m = /^(.*)#(\d+)$/.exec(source);
    const file = m ? m[1] : source;
    const idx = await this.#load(file);
    if (!idx) return null;
    if (!m) return { file, base: ["hooks"], idx };
    // Inline plugin manifest entry: `hooks` is an entry or an array of entries; an entry is the
    // event map itself or `{ "hooks": {…} }`.
    const entry: ValuePath = idx.offsets.has(pathKey(["hooks", 0])) ? ["hooks", Number(m[2])] : ["hooks"];
    const base = idx.offsets.has(pathKey([...entry, "hooks"])) ? [...entry, "hooks"] : entry;
    return { file, base, idx };
  }

  #position(idx: Indexed, offset: number): Position {
    return positionAt(idx.lineStarts, offset);
  }

  /**
   * Position of `rel` (a path under the source's `hooks` object, or under the
   * file root when `fromRoot`), falling back to the nearest enclosing value
   * that was found; null when not even the base is known.
   */
  async locate(source: string, rel: ValuePath, fromRoot = false): Promise<Position | null> {
    const b = await this.#base(source);
    if (!b) return null;
    const full = fromRoot ? rel : [...b.base, ...rel];
    for (let len = full.length; len >= (fromRoot ? 1 : b.base.length); len--) {
      const off = b.idx.offsets.get(pathKey(full.slice(0, len)));
      if (off !== undefined) return this.#position(b.idx, off);
    }
    return null;
  }

  /** Position of one handler (`hooks.<event>[group].hooks[handler]`). */
  handler(source: string, event: string, group: number, handler: number): Promise<Position | null> {
    return this.locate(source, [event, group, "hooks", handler]);
  }

  /** Adds line and column to warnings that lack them, when the message says where (`Event[g].hooks[h]: …`). */
  async enrich(warnings: readonly Warning[]): Promise<Warning[]> {
    return await Promise.all(warnings.map(async (w) => {
      if (w.line !== undefined) return w;
      const target = warningTarget(w);
      if (!target) return w;
      const pos = await this.locate(w.source, target.path, target.fromRoot);
      return pos ? { ...w, line: pos.line, column: pos.column } : w;
    }));
  }
}

function unquote(s: string): string {
  try {
    return JSON.parse(s);
  } catch {
    return s.slice(1, -1);
  }
}

/** What a warning's message says it is about, as a value path. */
function warningTarget(w: Warning): { path: ValuePath; fromRoot: boolean } | null {
  const where = /^([A-Za-z]+)\[(\d+)\](?:\.hooks\[(\d+)\])?: (.*)$/s.exec(w.message);
  if (where) {
    const path: ValuePath = [where[1], Number(where[2])];
    if (where[3] !== undefined) path.push("hooks", Number(where[3]));
    const rest = where[4];
    const field = /^unknown field ("(?:[^"\\]|\\.)*") ignored/.exec(rest);
    if (field) path.push(unquote(field[1]));
    else if (w.code === "W_BAD_MATCHER" || w.code === "W_MATCHER_IGNORED") path.push("matcher");
    else {
      const bad = /^([A-Za-z_]+) must be/.exec(rest);
      if (bad) path.push(bad[1]);
      else if (/^additionalContextLimit /.test(rest)) path.push("additionalContextLimit");
      else if (w.code === "W_TIMEOUT_CLAMPED") path.push("timeout");
      else if (w.code === "W_ASYNC_IGNORED") path.push("async");
      else if (w.code === "W_EMPTY_COMMAND") path.push("command");
    }
    return { path, fromRoot: false };
  }
  const event = /^unknown event ("(?:[^"\\]|\\.)*")/.exec(w.message);
  if (event) return { path: [unquote(event[1])], fromRoot: false };
  const list = /^([A-Za-z]+) must be a list of matcher groups/.exec(w.message);
  if (list) return { path: [list[1]], fromRoot: false };
  const root = /^unknown root field ("(?:[^"\\]|\\.)*")/.exec(w.message);
  if (root) return { path: [unquote(root[1])], fromRoot: true };
  if (w.code === "W_STATE_NOT_AUTHORITATIVE") {
    return { path: /^project trust/.test(w.message) ? ["projects"] : ["hooks", "state"], fromRoot: true };
  }
  if (w.code === "W_DEPRECATED_ALIAS") return { path: ["features", "codex_hooks"], fromRoot: true };
  if (/^description must be/.test(w.message)) return { path: ["description"], fromRoot: true };
  return null;
}
