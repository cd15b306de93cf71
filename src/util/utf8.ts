/**
 * Strict UTF-8 for files whose formats require it (TOML, JSON: SPEC §2.1). A lossy decode would
 * turn a stray byte into U+FFFD and read on: a trust store with a byte a Latin-1 editor saved would
 * load as if it were fine, and writers would then refuse it with no way to see why. The first
 * invalid byte is located, so the problem names its line and column.
 * @module
 */
import { fail, ok, type Result } from "./result.ts";

/** The words every refusal of such a file uses. */
export const NOT_UTF8 = "not valid UTF-8";

/** The offset of the first byte of `bytes` that does not start or continue a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const c = bytes[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (need === 0 || i + need >= n) return i; // not a lead byte, or cut short by the end
    const c1 = bytes[i + 1];
    // The second byte's narrower ranges: no overlong forms, no surrogates, nothing past U+10FFFF.
    const [lo, hi] = c === 0xe0
      ? [0xa0, 0xbf]
      : c === 0xed
      ? [0x80, 0x9f]
      : c === 0xf0
      ? [0x90, 0xbf]
      : c === 0xf4
      ? [0x80, 0x8f]
      : [0x80, 0xbf];
    if (c1 < lo || c1 > hi) return i;
    for (let k = 2; k <= need; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * `bytes` decoded as UTF-8 (a leading BOM kept, as the file holds it), or the offset of the first
 * invalid byte and the text before it.
 */
export function decodeUtf8Strict(bytes: Uint8Array): Result<string, { invalidAt: number; before: string }> {
  try {
    return ok(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    const at = Math.max(0, firstInvalidUtf8(bytes));
    return fail({ invalidAt: at, before: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(0, at)) });
  }
}
