/**
 * The nesting bound (SPEC §15): JSON and TOML values deeper than {@link MAX_NESTING} levels of
 * objects and arrays are refused wherever a stranger can send them (the event on stdin or over
 * JSON-RPC, configuration files, `-c` values, hook output). Everything past that bound would only
 * reach the engine's own recursive code (or a recursive parser) and take the process down with a
 * stack overflow, which the host reads as "no hooks ran".
 *
 * Both checks here are iterative, so they are safe on input of any depth, and they stop at the
 * first level past the bound.
 * @module
 */

/** The deepest nesting accepted: the outermost object or array is level 1. */
export const MAX_NESTING = 64;

/** The sentence every refusal uses. */
export const TOO_DEEP = `nests deeper than ${MAX_NESTING} levels`;

/**
 * The path (keys and indexes) to the first object or array at level `max + 1` of `value`, or null
 * when `value` nests at most `max` levels. Primitives are never visited beyond their parent.
 */
export function tooDeepPath(value: unknown, max: number = MAX_NESTING): (string | number)[] | null {
  if (value === null || typeof value !== "object") return null;
  // Depth-first with an explicit stack; each entry knows its parent so the path can be rebuilt.
  type Frame = { node: object; depth: number; parent: Frame | null; key: string | number | null };
  const stack: Frame[] = [{ node: value, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > max) return pathOf(frame);
    const node = frame.node as Record<string, unknown> | unknown[];
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child = node[i];
        if (child !== null && typeof child === "object") {
          stack.push({ node: child, depth: frame.depth + 1, parent: frame, key: i });
        }
      }
    } else {
      for (const key of Object.keys(node)) {
        const child = node[key];
        if (child !== null && typeof child === "object") {
          stack.push({ node: child, depth: frame.depth + 1, parent: frame, key });
        }
      }
    }
  }
  return null;

  function pathOf(frame: { parent: unknown; key: string | number | null }): (string | number)[] {
    const out: (string | number)[] = [];
    for (let f = frame as { parent: unknown; key: string | number | null } | null; f; f = f.parent as typeof f) {
      if (f.key !== null) out.push(f.key);
    }
    return out.reverse();
  }
}

/** True when `value` nests objects and arrays more than `max` levels deep. */
export function nestsTooDeep(value: unknown, max: number = MAX_NESTING): boolean {
  return tooDeepPath(value, max) !== null;
}

/**
 * The UTF-16 offset of the first `{` or `[` that opens level `max + 1` in JSON or JSONC text, or -1.
 * Strings, `//` and block comments are skipped, so brackets inside them do not count. Used before a
 * recursive parser sees the text, and to name the line of a refusal.
 */
export function tooDeepOffset(text: string, max: number = MAX_NESTING): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      while (i < n && text.charCodeAt(i) !== 0x0a) i++;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return -1;
}

/**
 * A value path as `a.b[0].c` on one line, cut after `max` segments (`…`). A key that is not a plain
 * word is shown quoted with its control and line-separator characters escaped, and cut at 40
 * characters: keys come from the file being refused.
 */
export function formatValuePath(path: readonly (string | number)[], max = 8): string {
  let out = "";
  for (const seg of path.slice(0, max)) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const word = /^[A-Za-z0-9_-]{1,40}$/.test(seg) ? seg : quoteKey(seg);
      out += out === "" ? word : `.${word}`;
    }
  }
  return path.length > max ? out + "…" : out;
}

function quoteKey(key: string): string {
  const cut = key.length > 40 ? key.slice(0, 40) + "…" : key;
  // JSON.stringify escapes C0 controls; U+2028/U+2029, DEL and bidi controls are escaped too.
  return JSON.stringify(cut).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}
