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

/** The size of the buffers captures read into. */
const READ_BYTES = 64 * 1024;
/** Read buffers no capture holds now, for the next ones (at most {@link POOL_BOUND}). */
const pool: ArrayBuffer[] = [];
const POOL_BOUND = 16;
let made = 0;

/** How many read buffers this process has made (the pool's test: captures one after another make one). */
export function readBuffersMade(): number {
  return made;
}

/**
 * A read of `stream` into a pooled buffer, reused by each read and by the next captures once this one
 * ended (a byte stream, as a child's pipes are): a default reader allocates 64 KB for every read, two
 * per hook at least, garbage that grew the warm daemon's memory with every hook it ran. What is kept is
 * copied out. A stream that is not a byte stream is read as it comes.
 */
function reusingReader(stream: ReadableStream<Uint8Array>) {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    const reader = stream.getReader();
    return { read: () => reader.read(), cancel: () => reader.cancel(), release: () => {}, copies: false };
  }
  let view: Uint8Array | null = new Uint8Array(pool.pop() ?? (made++, new ArrayBuffer(READ_BYTES)));
  return {
    read: async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
      const r = await byob.read(view!);
      // The buffer comes back (transferred) with every read, the last one included.
      view = r.value ? new Uint8Array(r.value.buffer) : null;
      return r.done ? { done: true, value: undefined } : { done: false, value: r.value! };
    },
    cancel: () => byob.cancel(),
    release: () => {
      if (view !== null && view.buffer.byteLength === READ_BYTES && pool.length < POOL_BOUND) {
        pool.push(view.buffer as ArrayBuffer);
      }
      view = null;
    },
    copies: true,
  };
}

/** Starts capturing `stream`. */
export function capture(
  stream: ReadableStream<Uint8Array>,
  limit = CAPTURE_LIMIT,
): Capture {
  const reader = reusingReader(stream);
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
          // The reused buffer is read into again: what is kept is copied out.
          const kept = take === value.length ? value : value.subarray(0, take);
          chunks.push(reader.copies ? kept.slice() : kept);
          size += take;
          if (take < value.length) truncated = true;
        } else if (value.length > 0) {
          truncated = true;
        }
      }
    } catch {
      // cancelled by stop(), or the pipe broke: what was read is kept
    }
    reader.release();
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
