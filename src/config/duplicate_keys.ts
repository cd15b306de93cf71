/**
 * Repeated keys in a JSON (or JSONC) object. `JSON.parse` and jsonc-parser both keep the last of a
 * repeated key, so the last is what runs; a reader of the file may well see the first. Every
 * repeat becomes a `W_DUPLICATE_KEY` warning, at any depth (an event name, a handler's `command`),
 * with keys compared after unescaping (`"\u0063ommand"` is `"command"`).
 *
 * One linear pass, no recursion (a hostile file may nest deeply), run only on text that already
 * parsed, so it need not report syntax errors.
 * @module
 */

/** One repeated key: where the repeat and the first occurrence start (UTF-16 offsets of the key's quote). */
export type DuplicateKey = {
  key: string;
  /** The enclosing object's path, e.g. `hooks.PreToolUse[0]` (`""` for the root). */
  path: string;
  offset: number;
  firstOffset: number;
};

type Frame =
  | { kind: "object"; keys: Map<string, number>; expectKey: boolean; key: string | null; label: string }
  | { kind: "array"; index: number; label: string };

/** The path label of a child of `parent` (the value under its current key or index). */
function childLabel(parent: Frame | undefined): string {
  if (!parent) return "";
  if (parent.kind === "array") return `${parent.label}[${parent.index}]`;
  const k = parent.key ?? "";
  const plain = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
  return parent.label === "" ? plain : `${parent.label}.${plain}`;
}

/** End (exclusive) of the string starting with the quote at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    // The quote is escaped when an odd number of backslashes precede it.
    let k = q - 1;
    while (k > i && text.charCodeAt(k) === 0x5c) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Every repeated key of `text` (JSON with comments and trailing commas allowed), in text order. */
export function duplicateKeys(text: string): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    // Whitespace, digits and literals need no look: only quotes, slashes and structure do.
    if (
      code !== 0x22 && code !== 0x2f && code !== 0x7b && code !== 0x7d && code !== 0x5b && code !== 0x5d &&
      code !== 0x2c
    ) {
      i++;
      continue;
    }
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === "object" && top.expectKey) {
        const raw = text.slice(i + 1, end - 1);
        let key = raw;
        if (raw.includes("\\")) {
          try {
            key = JSON.parse(text.slice(i, end));
          } catch { /* the raw text, then */ }
        }
        const first = top.keys.get(key);
        if (first === undefined) top.keys.set(key, i);
        else out.push({ key, path: top.label, offset: i, firstOffset: first });
        top.key = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
    } else if (c === "{") {
      stack.push({ kind: "object", keys: new Map(), expectKey: true, key: null, label: childLabel(top) });
      i++;
    } else if (c === "[") {
      stack.push({ kind: "array", index: 0, label: childLabel(top) });
      i++;
    } else if (c === "}" || c === "]") {
      stack.pop();
      i++;
    } else if (c === ",") {
      if (top?.kind === "object") top.expectKey = true;
      else if (top?.kind === "array") top.index++;
      i++;
    } else {
      i++;
    }
  }
  return out;
}
