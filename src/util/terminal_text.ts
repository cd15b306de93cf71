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
 * Control characters (C0, DEL, C1), bidi controls (U+061C, U+200E/F, U+202A–202E, U+2066–2069)
 * and the Unicode line and paragraph separators (U+2028/2029).
 */
// deno-lint-ignore no-control-regex -- control characters are exactly what is matched
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Replaces every character a terminal would act on (see {@link UNSAFE}) with a visible escape. */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** Sanitises each of `lines` and joins them with line breaks: the form every command prints. */
export function terminalLines(lines: readonly string[]): string {
  return lines.map(sanitize).join("\n");
}

/** A text as one short line: whitespace runs (line breaks included) become one space; cut at `max` code points with `…`. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
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
