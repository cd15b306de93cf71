/**
 * The one sanitiser for text printed to a terminal (SPEC §15): every line that `list`, `review`,
 * `trust`, `project`, `transcript show`, `validate`, `doctor`, `session-end` and the error lines of
 * `main.ts` print goes through {@link sanitize}.
 *
 * Why: file names, hook keys, hook commands and transcript payloads come from strangers (a cloned
 * repository, a prompt-injected model). Sent as they are, an escape sequence can repaint the screen
 * (hiding what really runs) or reprogram the terminal, a bidi control can make a command read
 * differently from what runs, and a line separator can forge a line of output. So each such
 * character is shown as a visible escape instead. Machine-readable output (`list --json`, the
 * `dispatch` result) is JSON and never passes through here.
 *
 * Kept tiny and dependency-free: `main.ts` imports it for its error lines.
 * @module
 */

/**
 * What a terminal would act on or not show: control characters (C0, DEL, C1), the Unicode format
 * characters (Cf: bidi controls, zero-width space and joiners, U+FEFF, U+2060, the soft hyphen, tags…),
 * every default-ignorable code point (variation selectors, Hangul fillers, U+034F…), the line and
 * paragraph separators, spaces other than U+0020 (a no-break space looks like a space but is part of a
 * shell word; U+2800 too) and lone surrogates.
 */
const UNSAFE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u2800]/gu;

/**
 * A real line break shows as `␤` (U+2424, the symbol for newline): never as `\n`, which a command may
 * hold literally (`printf 'a\n'`) and which means something else to a shell. A `␤` already in a text is
 * left as it is, so that sanitising twice changes nothing (it can only show a break that is not there).
 */
export const LINE_BREAK_MARK = "\u2424";

/**
 * Replaces every character a terminal would act on or hide (see {@link UNSAFE}) with a visible escape
 * (`\x1b`, `\u200b`, `\u{e0041}`; a line break `␤`, a tab `\t`, a carriage return `\r`).
 */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === "\n") return LINE_BREAK_MARK;
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    const code = c.codePointAt(0)!;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
    return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/** Cuts `text` to `max` code points, marking a cut with `…` (SPEC §14 r3: a cut is always marked). */
export function capped(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max - 1).join("") + "…" : text;
}

/** Sanitises each of `lines` and joins them with line breaks: the form every command prints. */
export function terminalLines(lines: readonly string[]): string {
  return lines.map(sanitize).join("\n");
}

/**
 * A text as one short line: runs of spaces and tabs become one space; cut at `max` code points with `…`.
 * Line breaks stay, for {@link sanitize} to show as `␤` (or JSON to quote): a line break in a command
 * separates commands, so it is never shown as a space; nor is a no-break or zero-width space.
 */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/[ \t]+/g, " ").trim();
  // Walks at most `max` code points: a 10 MB payload is not made into an array of 10 M strings.
  let count = 0;
  let end = 0;
  for (const ch of flat) {
    if (count === max) return flat.slice(0, end) + "…";
    count++;
    end += ch.length;
  }
  return flat;
}

/** The first line of an error's message: an exception from a library or the runtime may span lines. */
export function messageLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n", 1)[0];
}
