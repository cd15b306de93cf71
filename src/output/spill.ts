/**
 * Large output spilling (§10): model-visible text above a handler's `additionalContextLimit` is
 * saved in full to a per-session temp folder, and the model gets a head + tail preview with one
 * middle line naming the omitted size and the saved path.
 *
 * @module
 */

import { absolute, isAbsolutePath, join } from "../util/paths.ts";
import { safeSessionSegment } from "../util/session_id.ts";
import { prepareSpillFolder, type Refusal, removeSpillFolder } from "./spill_folder.ts";

/**
 * The default `additionalContextLimit`, in approximate tokens. §10 also applies it to PostToolUse
 * feedback and continuation prompts (the design text lets a handler's own limit govern the latter;
 * the caller picks the limit, this module only applies it).
 */

/** Bytes per approximate token (§10: UTF-8 bytes / 4, rounded up). */
const BYTES_PER_TOKEN = 4;

/** How far before a byte cut a line break may pull the cut, as a share of that side's budget:
 * ending the head on a whole line reads better, but not at the price of losing most of it. */
const LINE_SNAP_SHARE = 0.2;

/** Outcome of {@link spillIfLarge}. */
export type SpillResult = {
  /** The text to hand on: the original, or the preview when spilled. */
  text: string;
  /** True when the input was over the limit and `text` is a preview. */
  spilled: boolean;
  /** Where the full text was saved; `null` when not spilled or the file could not be written. */
  path: string | null;
  /** Approximate tokens of the original input. */
  tokens: number;
  /** Why the spill folder was refused (a symlink, not a folder, another user's; one line), else null. */
  refused: Refusal;
};

/** Options of {@link spillIfLarge}. */
export type SpillOptions = {
  /** Limit in approximate tokens; 0 means never spill. */
  limit: number;
  /** Root of spilled outputs (`--temp-dir`). */
  tempDir: string;
  /** Owning session; any string, it is sanitized before it names a folder. */
  sessionId: string;
};

/**
 * Number of bytes `text` takes in UTF-8, counted without encoding it. A lone surrogate counts 3
 * bytes, as TextEncoder writes it as U+FFFD.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Approximate tokens of a text: its UTF-8 bytes divided by 4, rounded up (§10).
 *
 * @param text any text
 * @returns `ceil(utf8 bytes / 4)`
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / BYTES_PER_TOKEN);
}

/**
 * The folder holding a session's spilled outputs: `<tempDir>/hook_outputs/<safe session id>`.
 *
 * @param tempDir root of spilled outputs
 * @param sessionId any session id (sanitized with `safeSessionSegment`)
 */
export function spillDir(tempDir: string, sessionId: string): string {
  return join(spillRoot(tempDir), safeSessionSegment(sessionId));
}

/** The root of every session's spill folder: `<tempDir>/hook_outputs`. */
export function spillRoot(tempDir: string): string {
  // Absolute, because the path is shown to the model, which may read it from another directory.
  // Deno.cwd() only for a relative root: a narrowed run may not read the process's cwd.
  const root = join(tempDir, "hook_outputs");
  return isAbsolutePath(root) ? root : absolute(root, Deno.cwd());
}

/**
 * Spills `text` when it is over `opts.limit` approximate tokens.
 *
 * At or under the limit (or with limit 0) the text comes back unchanged. Over it, the full text is
 * written to `<tempDir>/hook_outputs/<safe session id>/<uuid>.txt` (owner-only permissions: it may
 * hold secrets until the session ends) and `text` is a preview of about `limit` tokens: the head, one
 * middle line with the omitted tokens/bytes and the saved path, and the tail. When the file cannot be
 * written the preview is returned all the same, with `path: null` and no path in the middle line.
 * Cuts fall on code point boundaries (never inside a UTF-8 sequence or a surrogate pair), and on
 * grapheme boundaries when one is near.
 *
 * @param text the model-visible text (additionalContext, plain stdout, feedback)
 * @param opts the limit, the temp root and the owning session
 * @returns the text to deliver, whether it was spilled, the saved path and the input's tokens
 */
export async function spillIfLarge(
  text: string,
  opts: SpillOptions,
): Promise<SpillResult> {
  const bytes = utf8Length(text);
  const tokens = estimateTokens(text);
  if (opts.limit <= 0 || tokens <= opts.limit) {
    return { text, spilled: false, path: null, tokens, refused: null };
  }
  const saved = await saveFullText(text, opts.tempDir, opts.sessionId);
  return {
    text: buildPreview(text, bytes, opts.limit, saved.path),
    spilled: true,
    path: saved.path,
    tokens,
    refused: saved.refused,
  };
}

/**
 * Deletes a session's spill folder and everything in it, following no link (src/output/spill_folder.ts);
 * a missing folder is not an error.
 *
 * @param tempDir root of spilled outputs
 * @param sessionId the ending session
 */
export async function removeSessionSpill(
  tempDir: string,
  sessionId: string,
): Promise<void> {
  try {
    await removeSpillFolder(spillRoot(tempDir), spillDir(tempDir, sessionId));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Writes the full text to a fresh file (0600, never an existing name); returns its path, or `null`
 * with the refusal when the folder may not be used, or with none when the write failed. */
async function saveFullText(
  text: string,
  tempDir: string,
  sessionId: string,
): Promise<{ path: string | null; refused: Refusal }> {
  const dir = spillDir(tempDir, sessionId);
  const path = join(dir, `${crypto.randomUUID()}.txt`);
  try {
    const refused = await prepareSpillFolder(spillRoot(tempDir), dir);
    if (refused !== null) return { path: null, refused };
    await writeNewFile(path, text);
    return { path, refused: null };
  } catch {
    // Spilling must never fail the hook run: the caller still gets a bounded preview (§10).
    return { path: null, refused: null };
  }
}

/**
 * Writes `text` to the new file `path` (0600, never an existing name). When the write fails (a full
 * disk), the file it created is removed again: no empty or cut `<uuid>.txt` is left behind (SPEC §6
 * r4). Throws the write's error.
 */
async function writeNewFile(path: string, text: string): Promise<void> {
  const file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  try {
    const bytes = new TextEncoder().encode(text);
    for (let off = 0; off < bytes.length;) off += await file.write(bytes.subarray(off));
  } catch (e) {
    file.close();
    await Deno.remove(path).catch(() => {});
    throw e;
  }
  file.close();
}

/**
 * Head + middle line + tail of `text`, about `limit` tokens in total. If the middle line alone is
 * over the budget (a tiny limit or a very long path) the preview is just that line.
 */
function buildPreview(
  text: string,
  totalBytes: number,
  limit: number,
  path: string | null,
): string {
  const budget = limit * BYTES_PER_TOKEN;
  // The omitted size depends on the cut, and the cut on the middle line's length; the size digits
  // can only shrink as the cut grows, so measuring with the widest possible line is safe.
  const reserve = utf8Length(middleLine(totalBytes, path)) + 2;
  const room = Math.max(0, budget - reserve);
  const headEnd = cutHead(text, Math.ceil(room / 2));
  const tailStart = Math.max(headEnd, cutTail(text, Math.floor(room / 2)));
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const omitted = totalBytes - utf8Length(head) - utf8Length(tail);
  const line = middleLine(omitted, path);
  return joinPreview(head, line, tail);
}

/** The one line between head and tail. */
function middleLine(omittedBytes: number, path: string | null): string {
  const tokens = Math.ceil(omittedBytes / BYTES_PER_TOKEN);
  const size = `${tokens} tokens (${omittedBytes} bytes) omitted`;
  return path === null
    ? `[… ${size}; the full output could not be saved …]`
    : `[… ${size}; full output saved to ${path} …]`;
}

/**
 * Head, middle line and tail, separated by exactly one line break each (none next to an empty side),
 * so the parts can be told apart again. A cut made at a line break drops that break into the
 * omitted part instead of doubling it.
 */
function joinPreview(head: string, line: string, tail: string): string {
  const before = head === "" ? "" : "\n";
  const after = tail === "" ? "" : "\n";
  return `${head}${before}${line}${after}${tail}`;
}

/**
 * End index of the longest head within `maxBytes`. When a line break lies within the last
 * {@link LINE_SNAP_SHARE} of the head, the head ends just before it, so it ends on a whole line.
 */
function cutHead(text: string, maxBytes: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const width = codePointAt(text, i);
    if (bytes + width.bytes > maxBytes) break;
    bytes += width.bytes;
    i += width.units;
  }
  if (i >= text.length) return i;
  const lineBreak = text.lastIndexOf("\n", i); // a break right after the cut counts too
  const kept = lineBreak < 0 ? 0 : bytes - utf8Length(text.slice(lineBreak, i));
  if (lineBreak >= 0 && kept >= maxBytes * (1 - LINE_SNAP_SHARE)) {
    return lineBreak;
  }
  return snapToGrapheme(text, i, "back");
}

/**
 * Start index of the longest tail within `maxBytes`. When a line break lies within the first
 * {@link LINE_SNAP_SHARE} of the tail, the tail starts just after it, on a whole line.
 */
function cutTail(text: string, maxBytes: number): number {
  let bytes = 0;
  let i = text.length;
  while (i > 0) {
    const width = codePointBefore(text, i);
    if (bytes + width.bytes > maxBytes) break;
    bytes += width.bytes;
    i -= width.units;
  }
  if (i <= 0) return 0;
  const lineBreak = text.indexOf("\n", i - 1); // a break right before the cut counts too
  const kept = lineBreak < 0 ? 0 : bytes - utf8Length(text.slice(i, lineBreak + 1));
  if (lineBreak >= 0 && kept >= maxBytes * (1 - LINE_SNAP_SHARE)) {
    return lineBreak + 1;
  }
  return snapToGrapheme(text, i, "forward");
}

/** UTF-8 width and UTF-16 length of the code point starting at `i`. */
function codePointAt(
  text: string,
  i: number,
): { bytes: number; units: number } {
  const unit = text.charCodeAt(i);
  if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) {
    return { bytes: 4, units: 2 };
  }
  return { bytes: unitBytes(unit), units: 1 };
}

/** UTF-8 width and UTF-16 length of the code point ending just before `i`. */
function codePointBefore(
  text: string,
  i: number,
): { bytes: number; units: number } {
  const unit = text.charCodeAt(i - 1);
  if (
    isLowSurrogate(unit) && i >= 2 && isHighSurrogate(text.charCodeAt(i - 2))
  ) {
    return { bytes: 4, units: 2 };
  }
  return { bytes: unitBytes(unit), units: 1 };
}

/** UTF-8 width of a single (non-pair) UTF-16 code unit. */
function unitBytes(unit: number): number {
  return unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Code units on each side of a cut that are segmented to find a grapheme boundary. */
const GRAPHEME_WINDOW = 32;
// Created on first use: building a Segmenter loads ICU data (~20 ms), which every dispatch
// would otherwise pay at import time even when nothing is spilled.
let graphemes: Intl.Segmenter | undefined;

/**
 * Moves a code point boundary `i` to the nearest grapheme boundary in `direction` (so an emoji ZWJ
 * sequence or a letter with combining marks is kept whole or dropped whole), staying within the
 * budget: back for a head end, forward for a tail start. Only a small window is segmented, so this
 * costs the same for any text size; without a boundary in the window `i` is kept.
 */
function snapToGrapheme(
  text: string,
  i: number,
  direction: "back" | "forward",
): number {
  const from = Math.max(0, i - GRAPHEME_WINDOW);
  const to = Math.min(text.length, i + GRAPHEME_WINDOW);
  let best = i;
  let found = false;
  for (
    const { index } of (graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(
      text.slice(from, to),
    )
  ) {
    const at = from + index;
    // `from` itself is a real boundary only at the start of the text.
    if (direction === "back" && at <= i && (at > from || from === 0)) {
      [best, found] = [at, true];
    }
    if (direction === "forward" && at >= i && !found) {
      [best, found] = [at, true];
    }
  }
  if (direction === "forward" && !found && to === text.length) {
    return text.length;
  }
  return best;
}
