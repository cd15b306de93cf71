/**
 * Shell pathname expansion for the command reader (SPEC §3.5 r3): `*`, `?` and `[…]` in unquoted
 * words, matched segment by segment against the folders they name, as `sh` matches them (a leading
 * `.` is matched only by a `.` written out; no match leaves the word as written). Bounded: at most
 * {@link MAX_GLOB_MATCHES} matches and {@link MAX_GLOB_LISTINGS} folder listings per word.
 * @module
 */

/** At most this many matches of one word are kept (the pin bound is lower anyway). */
export const MAX_GLOB_MATCHES = 512;
/** At most this many folders are listed for one word. */
const MAX_GLOB_LISTINGS = 256;

/** Lists a folder's entry names, or null when it is no folder (or cannot be read). */
export type ListFolder = (dir: string) => string[] | null;

/** Whether a pattern (glob characters active, `\` quoting the next one) has a glob character. */
export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "*" || c === "?" || c === "[") return true;
  }
  return false;
}

/** `text` with the glob characters (and `\`) quoted, for a pattern. */
export function quoteGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => "\\" + c);
}

/** The pattern with its quoting removed: the word as the shell passes it when nothing matches. */
export function unquoteGlob(pattern: string): string {
  return pattern.replace(/\\(.)/g, "$1");
}

/**
 * The absolute paths matching an absolute `pattern`, sorted, or null when it has no glob character.
 * `list` reads folders (a folder that cannot be listed matches nothing).
 */
export function expandGlob(pattern: string, list: ListFolder): string[] | null {
  if (!hasGlob(pattern) || !pattern.startsWith("/")) return null;
  const segments = splitSegments(pattern.slice(1));
  let bases = [""];
  let listings = 0;
  for (let s = 0; s < segments.length; s++) {
    const seg = segments[s];
    const last = s === segments.length - 1;
    if (seg === "") continue;
    if (!hasGlob(seg)) {
      bases = bases.map((b) => `${b}/${unquoteGlob(seg)}`);
      continue;
    }
    const re = segmentRegex(seg);
    const next: string[] = [];
    for (const b of bases) {
      if (++listings > MAX_GLOB_LISTINGS) break;
      const names = list(b === "" ? "/" : b);
      if (names === null) continue;
      for (const name of [...names].sort()) {
        if (re.test(name) && (last || list(`${b}/${name}`) !== null)) next.push(`${b}/${name}`);
        if (next.length >= MAX_GLOB_MATCHES) break;
      }
    }
    bases = next;
    if (bases.length === 0) return [];
  }
  return bases;
}

/** Splits a pattern at unquoted `/`. */
function splitSegments(pattern: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) {
      cur += c + pattern[++i];
    } else if (c === "/") {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Whether a name matches one segment's pattern. */
export function matchSegment(pattern: string, name: string): boolean {
  return segmentRegex(pattern).test(name);
}

/** The regular expression of one segment (linear: `*` is `[^/]*`, no nested quantifiers); a class
 * no regular expression accepts (`[z-a]`) matches itself only. */
function segmentRegex(seg: string): RegExp {
  try {
    return segmentRegexOf(seg);
  } catch {
    return new RegExp("^" + unquoteGlob(seg).replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&") + "$", "s");
  }
}

function segmentRegexOf(seg: string): RegExp {
  let re = "^";
  // A leading dot must be matched by a dot written out.
  if (seg[0] !== "." && !(seg[0] === "\\" && seg[1] === ".")) re += "(?!\\.)";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === "\\" && i + 1 < seg.length) {
      re += escapeRe(seg[++i]);
    } else if (c === "*") {
      re += "[^/]*";
      while (seg[i + 1] === "*") i++;
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = seg.indexOf("]", i + 2);
      if (close < 0) {
        re += "\\[";
        continue;
      }
      let body = seg.slice(i + 1, close);
      const negate = body[0] === "!" || body[0] === "^";
      if (negate) body = body.slice(1);
      re += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, (x) => "\\" + x)}]`;
      i = close;
    } else re += escapeRe(c);
  }
  return new RegExp(re + "$", "s");
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(c) ? "\\" + c : c;
}
