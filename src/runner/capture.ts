/**
 * Bounded capture of a child's output stream: keeps at most `limit` bytes and
 * keeps draining (and discarding) the rest, so a hook that floods stdout can
 * neither block on a full pipe nor grow the engine's memory (SPEC §7.1).
 * @module
 */

/** The captured bytes of one stream. */
export type Captured = { bytes: Uint8Array; truncated: boolean };

/** 1 MiB per stream (SPEC §7.1). */
export const CAPTURE_LIMIT = 1024 * 1024;

/** A capture in progress: `done` resolves when the stream ends or `stop()` is called. */
export type Capture = { done: Promise<Captured>; stop: () => void };

/** Starts capturing `stream`. */
export function capture(
  stream: ReadableStream<Uint8Array>,
  limit = CAPTURE_LIMIT,
): Capture {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const finish = (): Captured => {
    const bytes = new Uint8Array(size);
    let off = 0;
    for (const c of chunks) {
      bytes.set(c, off);
      off += c.length;
    }
    return { bytes, truncated };
  };
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        if (size < limit) {
          const take = Math.min(value.length, limit - size);
          chunks.push(take === value.length ? value : value.subarray(0, take));
          size += take;
          if (take < value.length) truncated = true;
        } else if (value.length > 0) {
          truncated = true;
        }
      }
    } catch {
      // cancelled by stop(), or the pipe broke: what was read is kept
    }
    return finish();
  })();
  return {
    done,
    stop: () => {
      reader.cancel().catch(() => {});
    },
  };
}

/** Decodes UTF-8, replacing invalid sequences and saying whether any were found. */
export function decodeUtf8(
  bytes: Uint8Array,
): { text: string; invalid: boolean } {
  try {
    return {
      text: new TextDecoder("utf-8", { fatal: true }).decode(bytes),
      invalid: false,
    };
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes), invalid: true };
  }
}
