/**
 * Session id handling shared by the transcript writer (§11) and output spilling (§10).
 *
 * Session ids arrive from hosts and from hook input, so they are untrusted text: they become file
 * and directory names only through {@link safeSessionSegment}.
 *
 * @module
 */

import { sha256Hex } from "./sha256.ts";

export { sha256Hex };

/** Longest segment returned by {@link safeSessionSegment}; leaves room for two segments in one
 * file name (`session-<sid>+agent-<aid>.jsonl`) under the usual 255-byte limit. */
export const MAX_SEGMENT_LENGTH = 96;

/** Hex digits of the SHA-256 suffix: 64 bits keeps accidental collisions out of reach. */
const HASH_HEX_LENGTH = 16;

/**
 * Separates the readable part from the hash suffix. It is outside the kept alphabet, so a segment
 * that was kept verbatim can never contain it and can never equal a hashed one.
 */
const HASH_SEPARATOR = "~";

/** One character outside the kept alphabet (test form). */
const UNSAFE_CHAR = /[^A-Za-z0-9._-]/;
/** Every character outside the kept alphabet (replace form). */
const UNSAFE_CHARS = /[^A-Za-z0-9._-]/g;

/** Names Windows reserves in every directory (with or without an extension). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * Maps any session id to a file-name segment that cannot leave its folder.
 *
 * Ids made only of `[A-Za-z0-9._-]` (every UUID, ULID and `sid_…` id) are kept verbatim when they
 * are at most {@link MAX_SEGMENT_LENGTH} long and are not dot-led, dot-ended or a Windows device name.
 * Anything else is rewritten — unsafe characters become `_`, the readable part is cut — and gets
 * `~` plus a 64-bit SHA-256 prefix of the original id, so the mapping is deterministic and two
 * different ids do not share a segment.
 *
 * @param id the session id as received (any string, including empty)
 * @returns a non-empty segment matching `[A-Za-z0-9._~-]+`, never `.` or `..`
 */
export function safeSessionSegment(id: string): string {
  if (isVerbatimSafe(id)) return id;
  const readable = id.replace(UNSAFE_CHARS, "_").replace(/^\.+/, "_");
  const room = MAX_SEGMENT_LENGTH - HASH_SEPARATOR.length - HASH_HEX_LENGTH;
  return readable.slice(0, room) + HASH_SEPARATOR + shortHash(id);
}

/** True when `id` can be used as a file name unchanged on every supported platform. */
function isVerbatimSafe(id: string): boolean {
  if (id.length === 0 || id.length > MAX_SEGMENT_LENGTH) return false;
  if (UNSAFE_CHAR.test(id)) return false;
  // A leading dot hides the file (and covers `.`/`..`); Windows strips a trailing dot, so
  // `abc.` and `abc` would meet on disk.
  if (id.startsWith(".") || id.endsWith(".")) return false;
  return !WINDOWS_RESERVED.test(id);
}

/**
 * First {@link HASH_HEX_LENGTH} hex digits of SHA-256 over the id's UTF-16 code units. UTF-16 rather
 * than UTF-8 because UTF-8 encoding turns every lone surrogate into U+FFFD, which would make `a\uD800`
 * and `a\uDBFF` hash (and sanitize) alike.
 */
function shortHash(id: string): string {
  const units = new Uint8Array(id.length * 2);
  for (let i = 0; i < id.length; i++) {
    const unit = id.charCodeAt(i);
    units[2 * i] = unit & 0xff; // little-endian, as "utf-16le"
    units[2 * i + 1] = unit >>> 8;
  }
  return sha256Hex(units).slice(0, HASH_HEX_LENGTH);
}

/**
 * Earliest and latest creation times accepted from an id (2000-01-01 to 2200-01-01, UTC). A fixed
 * window rather than "now": the date must not depend on when the id is read, or one session could
 * resolve to two paths; and it rejects most random text that happens to look like a UUIDv7/ULID.
 */
const MIN_ID_TIME_MS = Date.UTC(2000, 0, 1);
const MAX_ID_TIME_MS = Date.UTC(2200, 0, 1);

/** An id must stand on its own: no letter or digit right before or after it. */
const BEFORE = "(?<![0-9A-Za-z])";
const AFTER = "(?![0-9A-Za-z])";
const CROCKFORD = "[0-9A-HJKMNP-TV-Z]";

/** UUIDv7, hyphenated: version nibble 7, RFC 9562 variant `10xx`; groups 1-2 hold the 48-bit time. */
const UUID_V7 = new RegExp(
  `${BEFORE}([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}${AFTER}`,
  "gi",
);
/** UUIDv7 written as 32 hex digits without hyphens; group 1 holds the 48-bit time. */
const UUID_V7_COMPACT = new RegExp(
  `${BEFORE}([0-9a-f]{12})7[0-9a-f]{3}[89ab][0-9a-f]{15}${AFTER}`,
  "gi",
);
/** ULID: 26 Crockford base32 characters; the first 10 (≤ `7ZZZZZZZZZ`) hold the 48-bit time. */
const ULID = new RegExp(
  `${BEFORE}([0-7]${CROCKFORD}{9})${CROCKFORD}{16}${AFTER}`,
  "gi",
);

const CROCKFORD_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The creation date embedded in a session id: the first UUIDv7 (hyphenated or 32 hex digits) or
 * ULID found anywhere in it whose timestamp lies between 2000 and 2200. `null` when there is none.
 *
 * @param id any session id, e.g. `sid_01J8…` or `0190f5c2-…`
 * @returns the UTC instant encoded in the id, or `null`
 */
export function sessionDateFromId(id: string): Date | null {
  const candidates: { index: number; ms: number }[] = [];
  for (const m of id.matchAll(UUID_V7)) {
    candidates.push({ index: m.index, ms: hexMs(m[1] + m[2]) });
  }
  for (const m of id.matchAll(UUID_V7_COMPACT)) {
    candidates.push({ index: m.index, ms: hexMs(m[1]) });
  }
  for (const m of id.matchAll(ULID)) {
    candidates.push({ index: m.index, ms: crockfordMs(m[1]) });
  }
  const valid = candidates
    .filter((c) => c.ms >= MIN_ID_TIME_MS && c.ms < MAX_ID_TIME_MS)
    .sort((a, b) => a.index - b.index);
  return valid.length > 0 ? new Date(valid[0].ms) : null;
}

/** 12 hex digits → milliseconds (48 bits fit exactly in a double). */
function hexMs(hex: string): number {
  return Number.parseInt(hex, 16);
}

/** 10 Crockford base32 digits → milliseconds. */
function crockfordMs(text: string): number {
  let ms = 0;
  for (const ch of text.toUpperCase()) {
    ms = ms * 32 + CROCKFORD_DIGITS.indexOf(ch);
  }
  return ms;
}
