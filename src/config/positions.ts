/**
 * Where things sit in configuration files: the line and column of a hook
 * handler or of the value a warning is about, for `list`, `review` and
 * `validate` (SPEC §2.2 "warnings naming file, line and column", §14 "its file
 * and line").
 *
 * Discovery works on parsed values and keeps no positions (it is on the
 * dispatch hot path); what it keeps is the value path of every handler and of
 * every warning, set where they are made. Here, only when a person asks, each
 * file is re-read once into a map from value path (`["hooks","PreToolUse",0,
 * "hooks",1]`) to offset: TOML through the one syntax tree
 * (src/util/toml_tree.ts), hooks.json through jsonc-parser's `parseTree`
 * (imported lazily). Positions are best effort: a file that changed or no
 * longer parses yields "no line", never a wrong answer or a crash.
 * @module
 */
import { lineStarts, MAX_CONFIG_BYTES, positionAt } from "./files.ts";
import type { Warning } from "./warnings.ts";
import type { ValuePath } from "../util/json.ts";
import { tooDeepOffset } from "../util/nesting.ts";
import { parseTomlTree, pathKey, valueOffsets } from "../util/toml_tree.ts";

/** A 1-based line and column. */
export type Position = { line: number; column: number };

/** Offsets of every table, key and array element of a TOML document (keys: JSON of the value path). */
export function tomlOffsets(text: string): Map<string, number> {
  // The parser recurses into arrays and inline tables: deep text gets no positions (SPEC §15).
  if (tooDeepOffset(text) >= 0) return new Map();
  try {
    return valueOffsets(parseTomlTree(text));
  } catch {
    return new Map();
  }
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

/** The file a hook source or warning source is in: `<manifest>#<n>` (an inline plugin manifest
 * entry) is its manifest; `cli-override` is in none. */
function fileOf(source: string): string | null {
  return source === "cli-override" ? null : source.replace(/#\d+$/, "");
}

/**
 * Looks up positions in configuration files, reading and indexing each file
 * at most once.
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

  /**
   * Position of the value at `path` (from the file's root) in the file `source` names, falling
   * back to the nearest enclosing value that was found; null when none is.
   */
  async locate(source: string, path: ValuePath): Promise<Position | null> {
    const file = fileOf(source);
    const idx = file === null ? null : await this.#load(file);
    if (!idx) return null;
    for (let len = path.length; len >= 1; len--) {
      const off = idx.offsets.get(pathKey(path.slice(0, len)));
      if (off !== undefined) return positionAt(idx.lineStarts, off);
    }
    return null;
  }

  /** Position of one handler: its value path in the file its source names (a handler made by
   * hand, without one, is looked for where a hooks file keeps it). */
  handler(
    h: { sourcePath: string; path?: ValuePath; event: string; groupIndex: number; handlerIndex: number },
  ): Promise<Position | null> {
    return this.locate(h.sourcePath, h.path ?? ["hooks", h.event, h.groupIndex, "hooks", h.handlerIndex]);
  }

  /** Adds line and column to the warnings that have a value path but no position yet. */
  async enrich(warnings: readonly Warning[]): Promise<Warning[]> {
    return await Promise.all(warnings.map(async (w) => {
      if (w.line !== undefined || w.path === undefined) return w;
      const pos = await this.locate(w.source, w.path);
      return pos ? { ...w, line: pos.line, column: pos.column } : w;
    }));
  }
}
