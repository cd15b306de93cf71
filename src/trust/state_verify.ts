/**
 * Verify: the checks around every edit of the trust-state writer. The document must be valid TOML
 * within the nesting bound before it is edited, and the edited text is re-parsed with smol-toml
 * (the reader discovery uses) and compared, value by value, with the intended document: a layout
 * mistake can only ever refuse a write, never corrupt a file.
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { MAX_NESTING, TOO_DEEP, tooDeepPath } from "../util/nesting.ts";
import { pathId, TomlEditRefusal } from "./state_layout.ts";
import type { FieldOp } from "./state_plan.ts";

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
export function describeParseError(e: unknown): string {
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
export function verifyEdit(expected: Record<string, unknown>, newText: string, ops: FieldOp[]): void {
  let actual: Record<string, unknown>;
  try {
    actual = parseToml(newText) as Record<string, unknown>;
  } catch (e) {
    throw new TomlEditRefusal(`internal error: the edited document ${describeParseError(e)}; not written`);
  }
  for (const op of ops) {
    const t = walkCreate(expected, op.table);
    if (op.value === undefined) delete t[op.field];
    else t[op.field] = op.value;
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
    for (let n = 1; n <= t.length; n++) paths.set(pathId(t.slice(0, n)), t.slice(0, n));
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
export function isPlainTable(v: unknown): v is Record<string, unknown> {
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
