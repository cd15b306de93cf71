/**
 * Splice: the text edits of the trust-state writer. Lines are inserted, replaced or removed at the
 * offsets the layout gives (src/state/state_layout.ts); only the lines of a touched table change,
 * and every comment, blank line, key order, quoting style and line ending elsewhere is kept.
 * @module
 */
import { pathKey } from "../util/toml_tree.ts";
import {
  type HeaderItem,
  type KvItem,
  type Layout,
  samePath,
  startsWith,
  TomlEditRefusal,
  tomlLayout,
} from "./state_layout.ts";
import type { DocIndex, FieldOp, FieldValue } from "./state_plan.ts";

/** A header's lines up to the next header (or the lines before the first header). */
type Chunk = {
  header: HeaderItem | undefined;
  text: string;
  /** Its table became empty: the header is gone, `text` holds the lines kept after it. */
  removed: boolean;
  /** New tables to insert after this chunk's own keys, in order. */
  newTables: string[][];
};

/**
 * Applies `ops` (checked by the planner: every table is editable) to `text`, whose layout is `doc`
 * and `index`. One chunk per table header (plus the lines before the first one): each change only
 * touches the chunk of its own table (or, for a new table, the chunk it is inserted after), so a
 * patch of 1,000 keys costs small per-table work and every other chunk is copied through untouched.
 */
export function spliceOps(text: string, doc: Layout, index: DocIndex, ops: FieldOp[]): string {
  // Chunks, and which chunk holds each key line.
  const chunks: Chunk[] = [];
  const chunkOfHeader = new Map<string, Chunk>();
  const chunkOfKv = new Map<KvItem, Chunk>();
  let current: Chunk = { header: undefined, text: "", removed: false, newTables: [] };
  let from = 0;
  chunks.push(current);
  for (const item of doc.items) {
    if (item.kind === "header") {
      current.text = text.slice(from, item.start);
      from = item.start;
      current = { header: item, text: "", removed: false, newTables: [] };
      chunks.push(current);
      if (!item.array) chunkOfHeader.set(pathKey(item.path), current);
    } else if (item.kind === "kv") {
      chunkOfKv.set(item, current);
    }
  }
  current.text = text.slice(from);

  // Group the ops by table, keeping their order (enabled before trusted_hash).
  const groups = new Map<string, FieldOp[]>();
  for (const op of ops) {
    const id = pathKey(op.table);
    groups.set(id, [...(groups.get(id) ?? []), op]);
  }

  const creations: FieldOp[][] = [];
  for (const [id, group] of groups) {
    const own = chunkOfHeader.get(id);
    const lastDotted = index.lastDottedUnder.get(id);
    if (own !== undefined) {
      for (const op of group) own.text = applyFieldOp(own.text, op, doc.eol);
      const left = tomlLayout(own.text);
      // An emptied table goes, unless comments belong to it (on its header line or right under
      // it): then the header stays with them, as an empty table (SPEC §3.3: every comment is kept).
      if (!index.headerUnder.has(id) && left.kvs.length === 0 && !hasOwnComments(left)) {
        own.removed = true;
        own.text = textAfterHeader(own.text);
      }
    } else if (lastDotted !== undefined) {
      const chunk = chunkOfKv.get(lastDotted)!;
      for (const op of group) chunk.text = applyFieldOp(chunk.text, op, doc.eol);
    } else {
      // Nothing to remove from a table that does not exist.
      const block = group.filter((op) => op.value !== undefined);
      if (block.length > 0) creations.push(block);
    }
  }

  // New tables: after the last table of the same parent (state tables stay together), else after
  // the last table under a shorter common prefix (a first state table lands after the other
  // `[hooks…]` tables), else at the end of the file.
  const atEnd: string[][] = [];
  for (const group of creations) {
    const table = group[0].table;
    const lines = [`[${tomlKeyPath(table)}]`, ...group.map((op) => `${op.field} = ${tomlValue(op.value!)}`)];
    let anchor: Chunk | undefined;
    for (let n = table.length - 1; n >= 1 && anchor === undefined; n--) {
      const prefix = table.slice(0, n);
      anchor = chunks.findLast((c) => !c.removed && c.header !== undefined && startsWith(c.header.path, prefix));
    }
    if (anchor !== undefined) anchor.newTables.push(lines);
    else atEnd.push(lines);
  }
  for (const chunk of chunks) {
    if (chunk.newTables.length > 0) {
      chunk.text = insertBlocks(chunk.text, sectionEnd(tomlLayout(chunk.text)), chunk.newTables, doc.eol);
    }
  }
  const last = chunks[chunks.length - 1];
  if (atEnd.length > 0) last.text = insertBlocks(last.text, last.text.length, atEnd, doc.eol);

  return assemble(chunks);
}

/** Joins the chunks; where a table was removed, does not leave two blank lines (or a leading or
 * trailing blank line) behind. */
function assemble(chunks: Chunk[]): string {
  let out = "";
  for (const [i, chunk] of chunks.entries()) {
    let piece = chunk.text;
    if (chunk.removed) {
      const atStart = out.replace(/^\uFEFF/, "").length === 0;
      const nextBlankOrEnd = piece.length > 0 ? isBlankLineAt(piece, 0) : i === chunks.length - 1;
      if (!atStart && endsWithBlankLine(out) && nextBlankOrEnd) {
        out = out.slice(0, lastLineStart(out));
      } else if (atStart && piece.length > 0 && isBlankLineAt(piece, 0)) {
        piece = piece.slice(lineEndAt(piece, 0));
      }
    }
    out += piece;
  }
  return out;
}

/** Whether a table's chunk holds comments of its own: on the header line, or in the lines right
 * under it (before the first blank line; comments after a blank line introduce what follows). */
function hasOwnComments(chunk: Layout): boolean {
  const header = chunk.items.findIndex((i) => i.kind === "header");
  if (header < 0) return false;
  if ((chunk.items[header] as HeaderItem).comment !== null) return true;
  for (const item of chunk.items.slice(header + 1)) {
    if (item.kind === "comment") return true;
    if (item.kind === "blank") return false;
  }
  return false;
}

/** The chunk of a removed table without its header line (which holds no comment: see
 * {@link hasOwnComments}). */
function textAfterHeader(chunkText: string): string {
  const header = tomlLayout(chunkText).items.find((i) => i.kind === "header");
  return header === undefined ? chunkText : chunkText.slice(header.end);
}

/** Sets or removes one field inside a chunk that holds its table (as a header or dotted keys). */
function applyFieldOp(text: string, op: FieldOp, eol: string): string {
  const doc = tomlLayout(text);
  const full = [...op.table, op.field];
  const existing = doc.kvs.filter((kv) => !kv.inArrayTable && samePath(kv.path, full));
  if (op.value === undefined) {
    // Delete bottom-up so earlier offsets stay valid (TOML allows only one, but be safe). A comment
    // ending the removed line stays, on a line of its own (SPEC §3.3: every comment is kept).
    for (const kv of existing.reverse()) {
      const line = text.slice(kv.start, kv.end);
      const kept = kv.comment === null ? "" : kv.indent + kv.comment + (line.endsWith("\n") ? eol : "");
      text = text.slice(0, kv.start) + kept + text.slice(kv.end);
    }
    return text;
  }
  const literal = tomlValue(op.value);
  if (existing.length > 0) {
    // Replace only the value: the key's spelling, spacing and trailing comment stay.
    const kv = existing[0];
    return text.slice(0, kv.valueStart) + literal + text.slice(kv.valueEnd);
  }

  const header = doc.headers.find((h) => !h.array && samePath(h.path, op.table));
  if (header !== undefined) {
    const body = doc.kvs;
    // Keep the spec's field order (enabled before trusted_hash) when both end up present.
    const hash = op.field === "enabled" ? body.find((kv) => samePath(kv.rel, ["trusted_hash"])) : undefined;
    if (hash !== undefined) return insertLine(text, hash.start, `${hash.indent}${op.field} = ${literal}`, eol);
    const last = body.at(-1);
    return insertLine(text, last?.end ?? header.end, `${last?.indent ?? ""}${op.field} = ${literal}`, eol);
  }

  // The table exists only through dotted keys (`state."k".enabled = false` under `[hooks]`):
  // add a dotted key next to its siblings, spelled relative to their section.
  const dotted = doc.kvs.filter((kv) =>
    !kv.inArrayTable && startsWith(kv.path, op.table) && kv.path.length > op.table.length
  );
  const lastDotted = dotted.at(-1);
  if (lastDotted === undefined) throw new TomlEditRefusal(`internal error: ${tomlKeyPath(op.table)} not found`);
  const rel = full.slice(lastDotted.path.length - lastDotted.rel.length);
  return insertLine(text, lastDotted.end, `${lastDotted.indent}${tomlKeyPath(rel)} = ${literal}`, eol);
}

/** Where a chunk's own lines end: after its last key (or its header) and the comment lines right
 * under it that a blank line closes (they belong to the table), before the blank lines and the
 * comments that lead into the next table. */
function sectionEnd(doc: Layout): number {
  const last = doc.kvs.at(-1) ?? doc.headers[0];
  if (last === undefined) return doc.items.at(-1)?.end ?? 0;
  let end = last.end;
  let trailing = end;
  for (const item of doc.items.slice(doc.items.indexOf(last) + 1)) {
    if (item.kind === "comment") trailing = item.end;
    else {
      if (item.kind === "blank") end = trailing;
      break;
    }
  }
  return end;
}

/** Inserts one line (given without line ending) at a line boundary. At the end of a file that has
 * no final newline, the file keeps having none. */
function insertLine(text: string, at: number, line: string, eol: string): string {
  if (at >= text.length && text.length > 0 && !text.endsWith("\n")) return text + eol + line;
  return text.slice(0, at) + line + eol + text.slice(at);
}

/** Inserts new tables (each a list of lines) at a line boundary, each separated from what
 * precedes it by one blank line. At the end of a file that has no final newline, the file keeps
 * having none. */
function insertBlocks(text: string, at: number, blocks: string[][], eol: string): string {
  const before = text.slice(0, at);
  const after = text.slice(at);
  let lead = "";
  if (before.replace(/^\uFEFF/, "").length > 0) {
    if (!before.endsWith("\n")) lead = eol + eol; // end the last line, then a blank line
    else if (!endsWithBlankLine(before)) lead = eol;
  }
  const atEndWithoutEol = after.length === 0 && text.length > 0 && !text.endsWith("\n");
  const body = blocks.map((lines) => lines.join(eol)).join(eol + eol);
  return before + lead + body + (atEndWithoutEol ? "" : eol) + after;
}

/** Start of the last line of `text` (which ends with a line ending). */
function lastLineStart(text: string): number {
  return text.length < 2 ? 0 : text.lastIndexOf("\n", text.length - 2) + 1;
}

/** Whether the last (complete) line of `text` is blank; only that line is looked at. */
function endsWithBlankLine(text: string): boolean {
  if (!text.endsWith("\n")) return false;
  return /^[ \t]*\r?\n$/.test(text.slice(lastLineStart(text)));
}

function isBlankLineAt(text: string, at: number): boolean {
  return /^[ \t]*(?:\r?\n|$)/.test(text.slice(at, at + 4096)) && lineEndAt(text, at) > at;
}

function lineEndAt(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl + 1;
}

// TOML spelling of what the writer inserts.

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A dotted key path as TOML spells it: bare segments where allowed, else basic strings. */
export function tomlKeyPath(path: string[]): string {
  return path.map((k) => (BARE_KEY.test(k) ? k : tomlString(k))).join(".");
}

/** A TOML boolean, basic string, or one-line inline table of strings (every key quoted: they are paths). */
export function tomlValue(v: FieldValue): string {
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") return tomlString(v);
  const entries = Object.entries(v).map(([k, x]) => `${tomlString(k)} = ${tomlString(x)}`);
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}

/** A TOML basic string; control characters, quotes and backslashes escaped. */
function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20 || c === 0x7f) {
      out += `\\u${c.toString(16).padStart(4, "0")}`;
    } else out += ch;
  }
  return out + '"';
}
