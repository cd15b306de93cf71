/**
 * Plan and verify: what an edit of the trust state needs, and the checks around it. Each change is
 * a {@link FieldOp} (set or remove one field of one table); ops that change nothing are dropped (so
 * a no-op never trips over a layout the splicer refuses), and the tables of the others must be
 * editable by a splice: not written as inline values, not inside an array of tables, not a table
 * where a value is expected. The document must be valid TOML within the nesting bound before it is
 * edited, and the edited text is re-parsed with smol-toml (the reader discovery uses) and compared,
 * value by value, with the intended document: a layout mistake can only ever refuse a write, never
 * corrupt a file.
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { MAX_NESTING, TOO_DEEP, tooDeepPath } from "../util/nesting.ts";
import { pathKey } from "../util/toml_tree.ts";
import { type HeaderItem, type KvItem, type Layout, TomlEditRefusal, tomlLayout } from "./state_layout.ts";
import { spliceOps, tomlKeyPath } from "./state_splice.ts";

/** Why a state write failed: the file (or the edit's result) is not valid TOML or has a shape the
 * writer will not edit (`parse`), or the file system refused (`io`). */
export type StateWriteError = { kind: "parse"; message: string } | { kind: "io"; message: string };

/** Outcome of a pure text edit: the new document text, or why it was refused. */
export type TextEditResult = { ok: true; text: string } | { ok: false; error: StateWriteError };

/** A value the writer sets: a boolean, a string, or an inline table of strings (`trusted_files`, §3.5). */
export type FieldValue = boolean | string | Readonly<Record<string, string>>;

/** Set (`value` defined) or remove (`undefined`) `field` of the table at path `table`. */
export type FieldOp = { table: string[]; field: string; value: FieldValue | undefined };

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
  const needed = ops.filter((op) => !deepEqual(lookup(current, [...op.table, op.field]), op.value));
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
    index.kvAt.set(pathKey(kv.path), kv);
    const sectionLength = kv.path.length - kv.rel.length;
    for (let n = 1; n < kv.path.length; n++) {
      const id = pathKey(kv.path.slice(0, n));
      index.kvUnder.set(id, kv);
      if (n > sectionLength) index.lastDottedUnder.set(id, kv);
    }
  }
  for (const h of doc.headers) {
    if (h.array) index.arrayAt.set(pathKey(h.path), h);
    for (let n = 1; n <= h.path.length; n++) {
      const id = pathKey(h.path.slice(0, n));
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
    const kv = index.kvAt.get(pathKey(prefix));
    if (kv !== undefined) {
      throw new TomlEditRefusal(
        `${tomlKeyPath(kv.path)} is written as an inline value at line ${doc.lineOf(kv.start)}; ` +
          `rewrite it as [${tomlKeyPath(table)}] tables to let mind-hooks edit it`,
      );
    }
    const h = index.arrayAt.get(pathKey(prefix));
    if (h !== undefined) {
      throw new TomlEditRefusal(
        `${tomlKeyPath(h.path)} is an array of tables (line ${doc.lineOf(h.start)}); cannot edit ${tomlKeyPath(table)}`,
      );
    }
  }
  const under = index.kvUnder.get(pathKey(full)) ?? index.headerAtOrUnder.get(pathKey(full));
  if (under !== undefined) {
    throw new TomlEditRefusal(`${tomlKeyPath(full)} is a table (line ${doc.lineOf(under.start)}), expected a value`);
  }
}

// Verify: the checks before and after an edit.

/** The first line of an error's message. */
export function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}

/** Null when `text` is valid TOML, else "does not parse at line L, column C: reason". */
export function checkToml(text: string): string | null {
  try {
    // The bound discovery reads with (SPEC §15): a file it refuses is not edited either.
    if (tooDeepPath(parseToml(text, { maxDepth: MAX_NESTING }))) return TOO_DEEP;
    return null;
  } catch (e) {
    return describeParseError(e);
  }
}

/** A smol-toml error as `does not parse at line L, column C: reason`. */
function describeParseError(e: unknown): string {
  const reason = errorText(e).replace(/^Invalid TOML document:\s*/, "");
  const { line, column } = (e ?? {}) as { line?: unknown; column?: unknown };
  if (typeof line === "number" && typeof column === "number") {
    return `does not parse at line ${line}, column ${column}: ${reason}`;
  }
  return `does not parse: ${reason}`;
}

/** The value at `path` in parsed TOML, or undefined. */
export function lookup(root: unknown, path: string[]): unknown {
  let cur = root;
  for (const k of path) {
    if (!isPlainTable(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Re-parses the result and checks that the only difference from the original values is the
 * intended one: the last line of defence against a layout mistake (a refused write beats a
 * corrupted config). `expected` (the original's values) is consumed. */
function verifyEdit(expected: Record<string, unknown>, newText: string, ops: FieldOp[]): void {
  let actual: Record<string, unknown>;
  try {
    actual = parseToml(newText) as Record<string, unknown>;
  } catch (e) {
    throw new TomlEditRefusal(`internal error: the edited document ${describeParseError(e)}; not written`);
  }
  for (const op of ops) {
    const t = walkCreate(expected, op.table);
    if (op.value === undefined) delete t[op.field];
    else t[op.field] = typeof op.value === "object" ? { ...op.value } : op.value;
  }
  const tables = ops.map((op) => op.table);
  pruneEmpty(expected, tables);
  pruneEmpty(actual, tables);
  if (!deepEqual(expected, actual)) {
    throw new TomlEditRefusal("internal error: the edit would change other values of the file; not written");
  }
}

function walkCreate(root: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let cur = root;
  for (const k of path) {
    // Prototype-free, like the parser's tables, so no key is special.
    if (!isPlainTable(cur[k])) cur[k] = Object.create(null);
    cur = cur[k] as Record<string, unknown>;
  }
  return cur;
}

/** Drops empty tables along the given paths, deepest first: empty tables carry no data, and
 * whether an emptied `[hooks.state]` parent survives is a layout matter, not a value change. Each
 * path is checked once (`hooks.state` may hold thousands of keys). */
function pruneEmpty(root: Record<string, unknown>, tables: string[][]): void {
  const paths = new Map<string, string[]>();
  for (const t of tables) {
    for (let n = 1; n <= t.length; n++) paths.set(pathKey(t.slice(0, n)), t.slice(0, n));
  }
  for (const path of [...paths.values()].sort((a, b) => b.length - a.length)) {
    const parent = lookup(root, path.slice(0, -1));
    if (!isPlainTable(parent)) continue;
    const leaf = parent[path[path.length - 1]];
    if (isPlainTable(leaf) && isEmpty(leaf)) delete parent[path[path.length - 1]];
  }
}

/** Emptiness without listing the keys (`hooks.state` may hold thousands). */
function isEmpty(table: Record<string, unknown>): boolean {
  for (const _ in table) return false;
  return true;
}

/** A table of parsed TOML (not an array or a date). */
function isPlainTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.constructor === b.constructor &&
      Object.is(a.getTime(), b.getTime()) && dateText(a) === dateText(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isPlainTable(a) && isPlainTable(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The TOML spelling of a parsed date (offset, local date or local time kept apart). */
function dateText(d: Date): string {
  try {
    return d.toISOString();
  } catch {
    return String(d);
  }
}
