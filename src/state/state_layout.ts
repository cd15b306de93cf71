/**
 * Locate: the line layout of a `config.toml` for the trust-state writer, read from the one TOML
 * syntax tree (src/util/toml_tree.ts). Every line of the document is one item: a table header, a
 * key/value line (a value spanning several lines is one item), a comment line or a blank line, each
 * with the offsets of its first byte and of the byte after its line ending. The writer splices
 * whole items, so everything it does not touch is kept byte for byte.
 * @module
 */
import { keySegments, parseTomlTree } from "../util/toml_tree.ts";

/** A table header line: `[a.b]` or `[[a.b]]`. */
export type HeaderItem = {
  kind: "header";
  /** The key path as written in the header (array indexes are not part of it). */
  path: string[];
  array: boolean;
  start: number;
  end: number;
  /** The comment ending the header line (from its `#`, without the line ending), or null. */
  comment: string | null;
};

/** A key/value line (or lines, for a value that spans several). */
export type KvItem = {
  kind: "kv";
  /** Full key path (section header + dotted key). */
  path: string[];
  /** Key path as written on the line. */
  rel: string[];
  /** Inside an `[[array.of.tables]]` section: its path is not addressable by name. */
  inArrayTable: boolean;
  /** The line, from its first byte to just after its line ending. */
  start: number;
  end: number;
  valueStart: number;
  valueEnd: number;
  indent: string;
  /** The comment ending the line (from its `#`, without the line ending), or null. */
  comment: string | null;
};

/** A line holding only a comment, or only spaces. */
export type TriviaItem = { kind: "blank" | "comment"; start: number; end: number };

/** One line (or multi-line key/value) of the document. */
export type Item = HeaderItem | KvItem | TriviaItem;

/** The layout of one document (or of one chunk of it: the writer reads chunks on their own). */
export type Layout = {
  items: Item[];
  headers: HeaderItem[];
  kvs: KvItem[];
  /** Line ending for inserted lines: the file's own (its first line ending decides). */
  eol: string;
  /** The 1-based line of an offset. */
  lineOf(offset: number): number;
};

/** Thrown to refuse an edit; the writer returns its message as a `parse` error, file unchanged. */
export class TomlEditRefusal extends Error {
  /**
   * Creates a refusal.
   *
   * @param message one line saying what was refused and why.
   */
  constructor(message: string) {
    super(message);
    this.name = "TomlEditRefusal";
  }
}

/** Whether two key paths are the same. */
export function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether `path` is `prefix` or below it. */
export function startsWith(path: string[], prefix: string[]): boolean {
  return path.length >= prefix.length && prefix.every((x, i) => x === path[i]);
}

/**
 * The line layout of `text`, which the caller has already checked with the TOML reader. A text
 * the syntax tree cannot read is refused (the writer never guesses at a layout).
 */
export function tomlLayout(text: string): Layout {
  const items = layoutItems(text);
  const firstNl = text.indexOf("\n");
  return {
    items,
    headers: items.filter((i): i is HeaderItem => i.kind === "header"),
    kvs: items.filter((i): i is KvItem => i.kind === "kv"),
    eol: firstNl > 0 && text[firstNl - 1] === "\r" ? "\r\n" : "\n",
    lineOf: (offset) => text.slice(0, offset).split("\n").length,
  };
}

/** A header or key/value line before its line items are made: where its own text ends. */
type Element =
  | { kind: "header"; path: string[]; array: boolean; from: number; last: number }
  | {
    kind: "kv";
    path: string[];
    rel: string[];
    inArrayTable: boolean;
    from: number;
    last: number;
    valueStart: number;
  };

function layoutItems(text: string): Item[] {
  const bom = text.startsWith("\uFEFF") ? 1 : 0;
  const items: Item[] = [];
  let pos = bom;
  for (const el of elements(text)) {
    const start = Math.max(bom, text.lastIndexOf("\n", el.from - 1) + 1);
    trivia(text, pos, start, items);
    const { comment, end } = restOfLine(text, el.last);
    if (el.kind === "header") {
      items.push({ kind: "header", path: el.path, array: el.array, start, end, comment });
    } else {
      items.push({
        kind: "kv",
        path: el.path,
        rel: el.rel,
        inArrayTable: el.inArrayTable,
        start,
        end,
        valueStart: el.valueStart,
        valueEnd: el.last,
        indent: text.slice(start, el.from),
        comment,
      });
    }
    pos = end;
  }
  trivia(text, pos, text.length, items);
  return items;
}

/** The headers and key/value lines of the document, in order, from its syntax tree. */
function elements(text: string): Element[] {
  let tree;
  try {
    tree = parseTomlTree(text);
  } catch (e) {
    const { lineNumber, message } = e as { lineNumber?: number; message?: string };
    const at = typeof lineNumber === "number" ? ` at line ${lineNumber}` : "";
    throw new TomlEditRefusal(`unsupported TOML layout${at}: ${String(message ?? e).split("\n")[0]}`);
  }
  const out: Element[] = [];
  const keyValue = (kv: import("../util/toml_tree.ts").AST.TOMLKeyValue, section: string[], inArray: boolean) => {
    const rel = keySegments(kv.key);
    out.push({
      kind: "kv",
      path: [...section, ...rel],
      rel,
      inArrayTable: inArray,
      from: kv.range[0],
      last: kv.value.range[1],
      valueStart: kv.value.range[0],
    });
  };
  for (const node of tree.body[0].body) {
    if (node.type === "TOMLKeyValue") {
      keyValue(node, [], false);
      continue;
    }
    const array = node.kind === "array";
    const path = keySegments(node.key);
    // Only spaces stand between the key and the closing bracket(s) of a header.
    const close = text.indexOf("]", node.key.range[1]) + (array ? 2 : 1);
    out.push({ kind: "header", path, array, from: node.range[0], last: close });
    // `[a.b]` after `[[a]]` is a table inside the array's last element: its resolved key has an index.
    const inArray = node.resolvedKey.some((k) => typeof k === "number");
    for (const kv of node.body) keyValue(kv, path, inArray);
  }
  return out;
}

/** The rest of a header or key/value line after its own text: an optional comment, the line ending. */
function restOfLine(text: string, from: number): { comment: string | null; end: number } {
  const nl = text.indexOf("\n", from);
  const end = nl < 0 ? text.length : nl + 1;
  const lineEnd = nl < 0 ? text.length : text[nl - 1] === "\r" ? nl - 1 : nl;
  const hash = text.slice(from, lineEnd).search(/\S/);
  // What follows the value on its line is spaces and a comment: the tree has read the whole text.
  return { comment: hash < 0 ? null : text.slice(from + hash, lineEnd), end };
}

/** The comment and blank lines between `from` and `to` (both line starts, or the end of the text). */
function trivia(text: string, from: number, to: number, items: Item[]): void {
  let pos = from;
  while (pos < to) {
    const nl = text.indexOf("\n", pos);
    const end = nl < 0 || nl + 1 > to ? to : nl + 1;
    const kind = /^[ \t]*(?:\r?\n)?$/.test(text.slice(pos, end)) ? "blank" : "comment";
    items.push({ kind, start: pos, end });
    pos = end;
  }
}
