/**
 * Claude Code's permission-rule wildcards (SPEC §2.2 `if`), compiled once and matched in linear time:
 * `*` is any text (slashes and newlines included), `\*` a literal star, `\\` a backslash, `**` between
 * slashes any number of folders, and a single trailing ` *` also accepts nothing at all (`git *` matches `git`).
 *
 * A pattern is literal segments between gaps; the text must start with the first segment, end with
 * the last, and hold the others in order. Taking each middle segment at its leftmost place is always
 * right (what follows only needs the text after it, and the leftmost place leaves the most), and each
 * segment is found with a precomputed Knuth–Morris–Pratt table, so one match scans the text once:
 * O(|text|) after an O(|pattern|) compile, whatever the pattern (SPEC §2.2 r3: the cost is bounded).
 * @module
 */

/** A gap between two literal segments: any text, or (from `**` between slashes) nothing or any text ending in `/`. */
type Gap = "any" | "folders";

/** One literal segment with its KMP failure table (built when first searched for). */
type Segment = { text: string; fail: Int32Array | null };

/** A compiled pattern. */
export type Wildcard = {
  /** True when the pattern matches the whole of `text` (already space-folded for a Bash rule). */
  test(text: string): boolean;
};

/** Folds runs of spaces and tabs into one space (Bash rules compare words, not their spacing). */
export function foldSpaces(text: string): string {
  return text.replace(/[ \t]+/g, " ");
}

function failTable(text: string): Int32Array {
  const fail = new Int32Array(text.length);
  let k = 0;
  for (let i = 1; i < text.length; i++) {
    while (k > 0 && text[i] !== text[k]) k = fail[k - 1];
    if (text[i] === text[k]) k++;
    fail[i] = k;
  }
  return fail;
}

/**
 * The first place at or after `from` where `seg` occurs in `text` and `ok(place)` holds, or -1. One
 * pass over the text from `from`: KMP continues after a rejected occurrence without moving back.
 */
function find(seg: Segment, text: string, from: number, ok: (at: number) => boolean): number {
  const p = seg.text;
  const fail = seg.fail ??= failTable(p);
  let k = 0;
  for (let i = from; i < text.length; i++) {
    while (k > 0 && text[i] !== p[k]) k = fail[k - 1];
    if (text[i] === p[k]) k++;
    if (k === p.length) {
      const at = i - p.length + 1;
      if (ok(at)) return at;
      k = fail[k - 1];
    }
  }
  return -1;
}

/** Parses a pattern into segments and the gaps between them (consecutive gaps merged). */
function parse(pattern: string): { segments: string[]; gaps: Gap[]; stars: number } {
  const segments: string[] = [""];
  const gaps: Gap[] = [];
  let stars = 0;
  const gap = (g: Gap) => {
    if (segments[segments.length - 1] === "" && gaps.length > 0) {
      // Two gaps in a row: any text then anything is any text.
      if (g === "any") gaps[gaps.length - 1] = "any";
      return;
    }
    gaps.push(g);
    segments.push("");
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length && (pattern[i + 1] === "*" || pattern[i + 1] === "\\")) {
      segments[segments.length - 1] += pattern[++i];
    } else if (c === "/" && pattern.startsWith("**/", i + 1)) {
      // `/**/` (repeated or not) is one folder wildcard: "/" then nothing or any text ending in "/".
      let j = i;
      while (pattern.startsWith("/**", j) && pattern[j + 3] === "/") {
        j += 3;
        stars += 2;
      }
      segments[segments.length - 1] += "/";
      gap("folders");
      i = j; // at the final "/", which the folder wildcard's own "/" stands for
    } else if (c === "*") {
      stars++;
      gap("any");
    } else segments[segments.length - 1] += c;
  }
  return { segments, gaps, stars };
}

/** Compiles the matcher of `segments` and `gaps` (exactly one more segment than gaps). */
function compileParts(segments: string[], gaps: Gap[]): Wildcard {
  if (gaps.length === 0) {
    const whole = segments[0];
    return { test: (text) => text === whole };
  }
  const first = segments[0];
  const last = segments[segments.length - 1];
  const middle: Segment[] = segments.slice(1, -1).map((text) => ({ text, fail: null }));
  const needed = segments.reduce((n, s) => n + s.length, 0);
  return {
    test(text) {
      if (text.length < needed || !text.startsWith(first)) return false;
      let pos = first.length;
      // A folder gap takes nothing, or text ending in "/".
      const fits = (g: Gap, at: number) => g === "any" || at === pos || text[at - 1] === "/";
      for (let i = 0; i < middle.length; i++) {
        const g = gaps[i];
        const at = find(middle[i], text, pos, (a) => fits(g, a));
        if (at < 0) return false;
        pos = at + middle[i].text.length;
      }
      const end = text.length - last.length;
      return end >= pos && text.endsWith(last) && fits(gaps[gaps.length - 1], end);
    },
  };
}

/**
 * Compiles `pattern` (trimmed; with `collapseSpaces`, runs of spaces and tabs folded, as for Bash
 * rules — the text must then be folded by the caller with {@link foldSpaces}).
 */
export function compileWildcard(pattern: string, collapseSpaces: boolean): Wildcard {
  const p = collapseSpaces ? foldSpaces(pattern.trim()) : pattern.trim();
  const { segments, gaps, stars } = parse(p);
  const full = compileParts(segments, gaps);
  // A single trailing " *" (the only wildcard): the space and its arguments are optional.
  if (stars === 1 && gaps.length === 1 && segments[1] === "" && segments[0].endsWith(" ")) {
    const bare = segments[0].slice(0, -1);
    return { test: (text) => text === bare || full.test(text) };
  }
  return full;
}

/** Compiles and matches once (tests, one-off callers); see {@link compileWildcard}. */
export function wildcardMatches(pattern: string, text: string, collapseSpaces: boolean): boolean {
  return compileWildcard(pattern, collapseSpaces).test(collapseSpaces ? foldSpaces(text) : text);
}
