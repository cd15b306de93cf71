/**
 * The one TOML syntax tree: toml-eslint-parser's tree of a document, with the source range of every
 * table, key and value and the resolved key of every table (`[[hooks.Stop.hooks]]` resolves to
 * `["hooks", "Stop", 0, "hooks", 1]`). The trust-state writer reads the layout of `config.toml`
 * from it (src/state/state_layout.ts), and `list`, `review` and `validate` find the line and column
 * of a value path in it (src/config/positions.ts).
 *
 * Values are still read with smol-toml everywhere (discovery is on the dispatch hot path, and the
 * writer re-parses every result with it): this module is about where things are, never about what
 * they are worth. It is imported only by the writer and the position index, so a plain `dispatch`
 * never loads the parser (tests/architecture_test.ts).
 * @module
 */
import { type AST, parseTOML } from "toml-eslint-parser";
import type { ValuePath } from "./json.ts";

export type { AST };

/** The deepest array / inline-table nesting the position walk follows (the parser itself recurses). */
const MAX_WALK_DEPTH = 64;

/**
 * Parses `text` into its syntax tree; throws a SyntaxError (with `lineNumber` and `column`) when it
 * is not TOML. Offsets in the tree are offsets in `text`: a leading byte-order mark, which the
 * parser does not accept, is read as the space it stands for.
 */
export function parseTomlTree(text: string): AST.TOMLProgram {
  const source = text.startsWith("\uFEFF") ? " " + text.slice(1) : text;
  try {
    return parseOnce(source);
  } catch (e) {
    // toml-eslint-parser 1.0 builds each string with `String.fromCodePoint(...codePoints)`, which
    // overflows the stack past about 120,000 code points. The layout does not need the string's
    // value, only its range: read it again with every long string written as an empty one of the
    // same length.
    const masked = e instanceof RangeError ? maskLongStrings(source) : null;
    if (masked === null) throw e;
    return parseOnce(masked);
  }
}

function parseOnce(source: string): AST.TOMLProgram {
  // TOML 1.1 (newlines in inline tables, `\e`, `\x..`): what smol-toml, the reader of values, accepts.
  return parseTOML(source, { tomlVersion: "1.1" });
}

/** Strings longer than this are masked by {@link maskLongStrings}. */
const MASK_MIN = 4096;

/**
 * `source` with each string token longer than {@link MASK_MIN} characters replaced by an empty
 * multi-line string of the same length (`"""\⏎   …"""`: a line-ending backslash swallows the
 * rest), so that every offset stays the same; null when there is none. Only string and comment
 * boundaries are followed: in TOML a quote outside a comment always opens a string.
 */
function maskLongStrings(source: string): string | null {
  const parts: string[] = [];
  let last = 0;
  for (let i = 0; i < source.length;) {
    const c = source[i];
    if (c === "#") {
      const nl = source.indexOf("\n", i);
      i = nl < 0 ? source.length : nl;
    } else if (c === '"' || c === "'") {
      const end = stringEnd(source, i);
      if (end - i > MASK_MIN) {
        parts.push(source.slice(last, i), '"""\\\n' + " ".repeat(end - i - 8) + '"""');
        last = end;
      }
      i = end;
    } else i++;
  }
  if (parts.length === 0) return null;
  parts.push(source.slice(last));
  return parts.join("");
}

/** The offset just after the string token that starts at `start` (with up to two quotes of its
 * content next to a closing `"""` or `'''`). */
function stringEnd(source: string, start: number): number {
  const q = source[start];
  const triple = source.startsWith(q.repeat(3), start);
  const delim = triple ? q.repeat(3) : q;
  for (let i = start + delim.length; i < source.length;) {
    if (q === '"' && source[i] === "\\") i += 2;
    else if (source.startsWith(delim, i)) {
      i += delim.length;
      for (let extra = 0; triple && extra < 2 && source[i] === q; extra++) i++;
      return i;
    } else if (!triple && source[i] === "\n") return i;
    else i++;
  }
  return source.length;
}

/** The decoded segments of a dotted key as written (`state."k".enabled` → `["state", "k", "enabled"]`). */
export function keySegments(key: AST.TOMLKey): string[] {
  return key.keys.map((k) => (k.type === "TOMLBare" ? k.name : k.value));
}

/** The map key of a value path in {@link valueOffsets}. */
export function pathKey(path: readonly (string | number)[]): string {
  return JSON.stringify(path);
}

/**
 * The offset of every table, key and array element of a document, by value path ({@link pathKey}):
 * a key/value is placed at its key, an array element at its first character, a table at its header.
 * Parents are placed too, at their first sight (`[hooks.state."k"]` also places `hooks.state`).
 */
export function valueOffsets(tree: AST.TOMLProgram): Map<string, number> {
  const out = new Map<string, number>();
  const record = (path: ValuePath, offset: number) => {
    for (let len = 1; len <= path.length; len++) {
      const k = pathKey(path.slice(0, len));
      if (!out.has(k)) out.set(k, offset);
    }
  };
  const keyValue = (kv: AST.TOMLKeyValue, base: ValuePath, depth: number) => {
    const path = [...base, ...keySegments(kv.key)];
    record(path, kv.key.range[0]);
    value(kv.value, path, depth);
  };
  const value = (node: AST.TOMLContentNode, path: ValuePath, depth: number) => {
    record(path, node.range[0]);
    if (depth >= MAX_WALK_DEPTH) return;
    if (node.type === "TOMLArray") node.elements.forEach((el, i) => value(el, [...path, i], depth + 1));
    else if (node.type === "TOMLInlineTable") { for (const kv of node.body) keyValue(kv, path, depth + 1); }
  };
  for (const item of tree.body[0].body) {
    if (item.type === "TOMLKeyValue") keyValue(item, [], 0);
    else {
      record(item.resolvedKey, item.range[0]);
      for (const kv of item.body) keyValue(kv, item.resolvedKey, 0);
    }
  }
  return out;
}
