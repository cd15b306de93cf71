/**
 * Splitting a byte stream into lines in linear time, whatever its chunks: `serve`'s JSON-RPC framing
 * (SPEC §13) and the readers of line files (`logs`, `transcript show`, src/util/follow.ts) alike, so
 * that a line of N bytes costs O(N) to read (SPEC §6 r4, §15) — a 10 MB log line is not a hang.
 * @module
 */
/** What {@link LineSplitter} yields: a line's text (without its line break), or `null` for a line
 * over the limit, which is skipped (reported once, as soon as it passes the limit). */
export type SplitLine = string | null;

/**
 * Splits a byte stream into lines (SPEC §13: one message per line) in O(N) for N bytes: each byte
 * is looked at once when searching for line breaks and copied into the pending line's buffer once;
 * the buffer doubles as it grows, which copies at most twice as much again (≤ 3N in all), however
 * the stream is cut into chunks — one byte per read included, which keeps no object per chunk. A
 * line longer than `maxBytes` is not kept: it yields one `null` when it passes the limit, and its
 * remaining bytes are dropped up to its end, so memory stays bounded.
 *
 * Lines are decoded one by one, which is exact for UTF-8: a line break byte never occurs inside a
 * multi-byte sequence. Invalid bytes become U+FFFD; a BOM is dropped only at the very start.
 */
export class LineSplitter {
  readonly #maxBytes: number;
  /** The pending line: `#buf[0, #size)`. */
  #buf = new Uint8Array(0);
  #size = 0;
  #skipping = false;
  #first = true;
  readonly #decoder = new TextDecoder();
  readonly #decoderKeepingBom = new TextDecoder("utf-8", { ignoreBOM: true });
  /** Bytes searched for line breaks so far (tests check that this is linear). */
  scannedBytes = 0;
  /** Bytes copied so far (tests check that this is linear). */
  copiedBytes = 0;

  /** @param maxBytes the longest line kept, in bytes */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The lines that `chunk` completes, in order. */
  push(chunk: Uint8Array): SplitLine[] {
    const out: SplitLine[] = [];
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      this.scannedBytes += (nl < 0 ? chunk.length : nl + 1) - from;
      this.#keep(chunk.subarray(from, end), out);
      if (nl < 0) break;
      if (this.#skipping) this.#skipping = false;
      else out.push(this.#take());
      from = nl + 1;
    }
    return out;
  }

  /** The last line, when the stream ended without a final line break (else nothing). */
  end(): SplitLine[] {
    if (this.#skipping || this.#size === 0) return [];
    return [this.#take()];
  }

  #keep(part: Uint8Array, out: SplitLine[]): void {
    if (this.#skipping || part.length === 0) return;
    const size = this.#size + part.length;
    if (size > this.#maxBytes) {
      this.#release();
      this.#skipping = true;
      out.push(null);
      return;
    }
    if (size > this.#buf.length) {
      const grown = new Uint8Array(Math.min(this.#maxBytes, Math.max(size, 2 * this.#buf.length, 4096)));
      grown.set(this.#buf.subarray(0, this.#size));
      this.copiedBytes += this.#size;
      this.#buf = grown;
    }
    // A copy: the stream may reuse the chunk's buffer for its next read.
    this.#buf.set(part, this.#size);
    this.#size = size;
    this.copiedBytes += part.length;
  }

  #take(): string {
    const decoder = this.#first ? this.#decoder : this.#decoderKeepingBom;
    this.#first = false;
    const text = decoder.decode(this.#buf.subarray(0, this.#size));
    this.#release();
    return text;
  }

  /** Forgets the pending line; a large buffer is dropped so one long line does not pin its memory. */
  #release(): void {
    this.#size = 0;
    if (this.#buf.length > 1024 * 1024) this.#buf = new Uint8Array(0);
  }
}
