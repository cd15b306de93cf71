/**
 * The CLI layer's `-c KEY=VALUE` overrides (SPEC §1): KEY is a dotted TOML
 * key path (quoted segments allowed), VALUE is a TOML value; a VALUE that is
 * not valid TOML is taken as a plain string, as Codex does.
 * @module
 */
import { parse as parseToml } from "smol-toml";
import type { JsonObject } from "../util/json.ts";
import { MAX_NESTING, TOO_DEEP, tooDeepPath } from "../util/nesting.ts";
import { fail, ok, type Result } from "../util/result.ts";

/** Splits `a."b.c".d` into `["a", "b.c", "d"]`; null when malformed. */
export function splitKeyPath(key: string): string[] | null {
  const parts: string[] = [];
  let i = 0;
  while (i < key.length) {
    let part = "";
    const ch = key[i];
    if (ch === '"' || ch === "'") {
      const end = key.indexOf(ch, i + 1);
      if (end < 0) return null;
      part = ch === '"' ? JSON.parse(key.slice(i, end + 1)) : key.slice(i + 1, end);
      i = end + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(key.slice(i));
      if (!m) return null;
      part = m[0];
      i += part.length;
    }
    parts.push(part);
    if (i < key.length) {
      if (key[i] !== ".") return null;
      i++;
      if (i === key.length) return null;
    }
  }
  return parts.length ? parts : null;
}

/** Parses one VALUE as TOML, falling back to the raw string. */
export function parseOverrideValue(value: string): unknown {
  try {
    const doc = parseToml(`v = ${value}`, { maxDepth: MAX_NESTING }) as Record<string, unknown>;
    return JSON.parse(JSON.stringify(doc.v));
  } catch {
    return value;
  }
}

/** Builds the override object from `-c` values; a failure names the bad one. */
export function buildOverrides(
  items: readonly string[],
): Result<JsonObject> {
  const data: JsonObject = {};
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq <= 0) {
      return fail(`-c expects KEY=VALUE, got ${JSON.stringify(item)}`);
    }
    const path = splitKeyPath(item.slice(0, eq).trim());
    if (!path) {
      return fail(`-c has a malformed key: ${JSON.stringify(item.slice(0, eq))}`);
    }
    let node = data;
    for (const seg of path.slice(0, -1)) {
      // Own properties only: `-c __proto__.x=1` names a key, never Object.prototype (SPEC §15).
      const next = Object.hasOwn(node, seg) ? node[seg] : undefined;
      if (next === null || typeof next !== "object" || Array.isArray(next)) setOwn(node, seg, {});
      node = node[seg] as JsonObject;
    }
    setOwn(node, path[path.length - 1], parseOverrideValue(item.slice(eq + 1).trim()));
    if (tooDeepPath(data)) {
      const key = item.slice(0, eq);
      return fail(`-c ${JSON.stringify(key.length > 60 ? key.slice(0, 60) + "…" : key)} ${TOO_DEEP}`);
    }
  }
  return ok(data);
}

/** Sets an own, enumerable data property, whatever the key (`__proto__` included). */
function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
