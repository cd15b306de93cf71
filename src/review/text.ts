/**
 * Terminal text helpers of `review`: measuring text in terminal cells, and
 * cutting, padding or wrapping it to a width. Making untrusted text safe to
 * print is `sanitize` in src/util/terminal_text.ts, shared by every command.
 *
 * Widths follow Unicode: East Asian Width (UAX #11, from `get-east-asian-width`)
 * for one code point, and one glyph per emoji sequence (UTS #51). Text is
 * measured, cut and wrapped by grapheme cluster (UAX #29, `Intl.Segmenter`), so a
 * base letter never loses its combining marks and an emoji sequence is never
 * split. `src/review/text_test.ts` holds the samples, checked against tmux.
 * @module
 */
import { eastAsianWidth } from "get-east-asian-width";

/**
 * Code points that take no cell of their own: combining marks (Mn, Me), format
 * characters (Cf: ZWJ, ZWNJ, ZWSP, word joiner, BOM, emoji tags, …) and the Hangul
 * medial vowels and final consonants, which join the syllable's initial jamo. The
 * soft hyphen (Cf) is the exception: terminals print it as a hyphen (wcwidth 1).
 */
const ZERO_WIDTH = /^(?!\u00ad)[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff\ud7b0-\ud7ff]$/u;

/** A cluster drawn as one emoji: a base that can be an emoji, then VS16, a skin tone or a ZWJ. */
const EMOJI_BASE = /^\p{Emoji}/u;
const EMOJI_SEQUENCE_MARK = /[\ufe0f\u200d\u{1f3fb}-\u{1f3ff}]/u;

/** Printable ASCII: one cell per character, the common case, measured without segmenting. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The characters that join a grapheme cluster with a neighbour (UAX #29: Extend, ZWJ, SpacingMark,
 * the Prepend format characters, regional indicators, Hangul jamo, emoji modifiers). Text without
 * any has one cluster per code point, so it is not segmented: creating an `Intl.Segmenter` costs
 * about 10 ms (ICU data), and segmenting is several times slower than iterating code points.
 */
const JOINS_CLUSTERS = /[\p{M}\p{Cf}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}]/u;

let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of `text` (user-perceived characters). */
function clusters(text: string): Iterable<string> {
  if (!JOINS_CLUSTERS.test(text)) return text;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Terminal cells taken by one code point: 0 for the {@link ZERO_WIDTH} ones, 2 for East Asian Wide and Fullwidth, else 1. */
function codePointWidth(cp: number): number {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  if (ZERO_WIDTH.test(String.fromCodePoint(cp))) return 0;
  return eastAsianWidth(cp);
}

/**
 * Terminal cells taken by one grapheme cluster. An emoji sequence (❤️, 1️⃣, 👍🏽, 👨‍👩‍👧) is one glyph
 * of 2 cells, as UTS #51 and current terminals draw it; any other cluster is the sum of its code
 * points (a base letter and its combining marks: 1; Devanagari कि, whose vowel sign spaces: 2).
 */
function clusterWidth(cluster: string): number {
  const first = cluster.codePointAt(0);
  if (first === undefined) return 0;
  if (cluster.length === 1 || (cluster.length === 2 && first > 0xffff)) return codePointWidth(first);
  if (EMOJI_BASE.test(cluster) && EMOJI_SEQUENCE_MARK.test(cluster)) return 2;
  let w = 0;
  for (const ch of cluster) w += codePointWidth(ch.codePointAt(0)!);
  return w;
}

/** Width of `text` in terminal cells (text without escape sequences). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let w = 0;
  for (const c of clusters(text)) w += clusterWidth(c);
  return w;
}

/** Cuts `text` to at most `width` cells, ending with `…` when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  return prefix(text, width - 1) + "…";
}

/** The longest start of `text` (whole grapheme clusters) that fits `width` cells, with no mark. */
export function prefix(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  for (const c of clusters(text)) {
    const cw = clusterWidth(c);
    if (w + cw > width) break;
    out += c;
    w += cw;
  }
  return out;
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
 *
 * One pass over the text's clusters (each looked at a bounded number of times):
 * the time is linear in the text's length, so a 10 MB log reason wraps in
 * moments instead of measuring the whole rest of the text again for each line.
 */
export function wrap(text: string, width: number, indent = ""): string[] {
  if (width <= displayWidth(indent) + 1) return [truncate(text, Math.max(1, width))];
  const lines: string[] = [];
  const indentRoom = width - displayWidth(indent);
  let prefix = "";
  let room = width;
  /** The clusters of the line being filled, with their widths, and their total width. */
  let line: { c: string; w: number }[] = [];
  let lineWidth = 0;
  const emit = (out: string) => {
    lines.push(prefix + out);
    prefix = indent;
    room = indentRoom;
  };
  /** Ends one line out of `line`: as many clusters as fit, back to the last space if there is one. */
  const emitFull = () => {
    let fit = 0;
    let w = 0;
    while (fit < line.length && w + line[fit].w <= room) w += line[fit++].w;
    // A cluster wider than the whole line (never with room ≥ 2): take it anyway, or nothing would advance.
    if (fit === 0) fit = 1;
    const taken = line.slice(0, fit).map((x) => x.c).join("");
    const space = taken.lastIndexOf(" ");
    if (space > room / 3) {
      // Keep the clusters up to and including that space.
      let len = 0;
      fit = 0;
      while (len < space + 1) len += line[fit++].c.length;
    }
    emit(line.slice(0, fit).map((x) => x.c).join("").trimEnd());
    line = line.slice(fit);
    lineWidth = line.reduce((sum, x) => sum + x.w, 0);
  };
  for (const c of clusters(text)) {
    const w = clusterWidth(c);
    while (line.length > 0 && lineWidth + w > room) emitFull();
    line.push({ c, w });
    lineWidth += w;
    if (line.length === 1 && w > room) emitFull();
  }
  while (lineWidth > room) emitFull();
  emit(line.map((x) => x.c).join(""));
  return lines;
}
