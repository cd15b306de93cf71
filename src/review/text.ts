/**
 * Terminal text helpers of `review`: measuring text in terminal cells, and
 * cutting, padding or wrapping it to a width. Making untrusted text safe to
 * print is `sanitize` in src/util/terminal_text.ts, shared by every command.
 * @module
 */

/** Terminal cells taken by one code point: 0 for combining marks, 2 for wide (CJK, fullwidth, emoji), else 1. */
export function charWidth(cp: number): number {
  if (cp === 0) return 0;
  if (
    (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xfe20 && cp <= 0xfe2f) || cp === 0x200b || cp === 0x200d
  ) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}

/** Width of `text` in terminal cells (text without escape sequences). */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** Cuts `text` to at most `width` cells, ending with `…` when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}

/** Cuts or pads `text` to exactly `width` cells. */
export function fit(text: string, width: number): string {
  const t = truncate(text, width);
  return t + " ".repeat(Math.max(0, width - displayWidth(t)));
}

/**
 * Wraps `text` into lines of at most `width` cells, breaking at spaces when it
 * can and inside a word when a word is longer than a line. Continuation lines
 * get `indent` (counted in the width).
 */
export function wrap(text: string, width: number, indent = ""): string[] {
  if (width <= displayWidth(indent) + 1) return [truncate(text, Math.max(1, width))];
  const lines: string[] = [];
  let rest = text;
  let prefix = "";
  while (true) {
    const room = width - displayWidth(prefix);
    if (displayWidth(rest) <= room) {
      lines.push(prefix + rest);
      return lines;
    }
    // Take as many characters as fit, then back off to the last space if there is one.
    let taken = "";
    let w = 0;
    for (const ch of rest) {
      const cw = charWidth(ch.codePointAt(0)!);
      if (w + cw > room) break;
      taken += ch;
      w += cw;
    }
    const space = taken.lastIndexOf(" ");
    if (space > room / 3) taken = taken.slice(0, space + 1);
    lines.push(prefix + taken.trimEnd());
    rest = rest.slice(taken.length);
    prefix = indent;
  }
}
