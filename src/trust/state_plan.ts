/**
 * Plan: what an edit of the trust state needs. Each change is a {@link FieldOp} (set or remove one
 * field of one table); ops that change nothing are dropped (so a no-op never trips over a layout
 * the splicer refuses), and the tables of the others must be editable by a splice: not written as
 * inline values, not inside an array of tables, not a table where a value is expected.
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { type HeaderItem, type KvItem, type Layout, pathId, TomlEditRefusal, tomlLayout } from "./state_layout.ts";
import { spliceOps, tomlKeyPath } from "./state_splice.ts";
import { describeParseError, errorText, lookup, verifyEdit } from "./state_verify.ts";

/** Why a state write failed: the file (or the edit's result) is not valid TOML or has a shape the
 * writer will not edit (`parse`), or the file system refused (`io`). */
export type StateWriteError = { kind: "parse"; message: string } | { kind: "io"; message: string };

/** Outcome of a pure text edit: the new document text, or why it was refused. */
export type TextEditResult = { ok: true; text: string } | { ok: false; error: StateWriteError };

/** Set (`value` defined) or remove (`undefined`) `field` of the table at path `table`. */
export type FieldOp = { table: string[]; field: string; value: boolean | string | undefined };

/**
 * Plans and makes the edit: ops that change nothing are dropped, every table left is checked to be
 * editable, the text is spliced and the result verified.
 */
export function applyOps(text: string, ops: FieldOp[]): TextEditResult {
  let current: Record<string, unknown>;
  try {
    current = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    return refused(`document ${describeParseError(e)}`);
  }
  // Skip ops that change nothing, so a no-op never trips over a layout the splicer refuses (say,
  // enabling a hook whose state sits in an inline table and was never disabled).
  const needed = ops.filter((op) => lookup(current, [...op.table, op.field]) !== op.value);
  if (needed.length === 0) return { ok: true, text };
  try {
    const doc = tomlLayout(text);
    const index = indexDoc(doc);
    for (const op of needed) assertEditable(doc, index, op.table, [...op.table, op.field]);
    const next = spliceOps(text, doc, index, needed);
    verifyEdit(current, next, needed);
    return { ok: true, text: next };
  } catch (e) {
    return refused(errorText(e));
  }
}

function refused(message: string): TextEditResult {
  return { ok: false, error: { kind: "parse", message } };
}

/** Lookups over one scan, so that checking 1,000 ops does not rescan the document. */
export type DocIndex = {
  /** Key line by its full path. */
  kvAt: Map<string, KvItem>;
  /** Some key line strictly under a path. */
  kvUnder: Map<string, KvItem>;
  /** Last key line whose dotted key (not its section header) passes through a path: the table at
   * that path is written with dotted keys in that line's section. */
  lastDottedUnder: Map<string, KvItem>;
  /** Array-of-tables header by its path. */
  arrayAt: Map<string, HeaderItem>;
  /** A header at or under a path. */
  headerAtOrUnder: Map<string, HeaderItem>;
  /** Paths that have a header strictly under them. */
  headerUnder: Set<string>;
};

function indexDoc(doc: Layout): DocIndex {
  const index: DocIndex = {
    kvAt: new Map(),
    kvUnder: new Map(),
    lastDottedUnder: new Map(),
    arrayAt: new Map(),
    headerAtOrUnder: new Map(),
    headerUnder: new Set(),
  };
  for (const kv of doc.kvs) {
    if (kv.inArrayTable) continue;
    index.kvAt.set(pathId(kv.path), kv);
    const sectionLength = kv.path.length - kv.rel.length;
    for (let n = 1; n < kv.path.length; n++) {
      const id = pathId(kv.path.slice(0, n));
      index.kvUnder.set(id, kv);
      if (n > sectionLength) index.lastDottedUnder.set(id, kv);
    }
  }
  for (const h of doc.headers) {
    if (h.array) index.arrayAt.set(pathId(h.path), h);
    for (let n = 1; n <= h.path.length; n++) {
      const id = pathId(h.path.slice(0, n));
      if (!index.headerAtOrUnder.has(id)) index.headerAtOrUnder.set(id, h);
      if (n < h.path.length) index.headerUnder.add(id);
    }
  }
  return index;
}

/** Refuses shapes that a splice cannot edit safely: the table (or a parent) written as an inline
 * table or another value, or inside an array of tables; or the field itself being a table. */
function assertEditable(doc: Layout, index: DocIndex, table: string[], full: string[]): void {
  for (let n = 1; n <= table.length; n++) {
    const prefix = table.slice(0, n);
    const kv = index.kvAt.get(pathId(prefix));
    if (kv !== undefined) {
      throw new TomlEditRefusal(
        `${tomlKeyPath(kv.path)} is written as an inline value at line ${doc.lineOf(kv.start)}; ` +
          `rewrite it as [${tomlKeyPath(table)}] tables to let mind-hooks edit it`,
      );
    }
    const h = index.arrayAt.get(pathId(prefix));
    if (h !== undefined) {
      throw new TomlEditRefusal(
        `${tomlKeyPath(h.path)} is an array of tables (line ${doc.lineOf(h.start)}); cannot edit ${tomlKeyPath(table)}`,
      );
    }
  }
  const under = index.kvUnder.get(pathId(full)) ?? index.headerAtOrUnder.get(pathId(full));
  if (under !== undefined) {
    throw new TomlEditRefusal(`${tomlKeyPath(full)} is a table (line ${doc.lineOf(under.start)}), expected a value`);
  }
}
