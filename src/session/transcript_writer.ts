/**
 * The transcript appender of long-lived processes (`serve`, §11): each file kept open (at most
 * {@link MAX_OPEN_CHANNELS}), appends that arrive during a write coalesced into one locked write.
 * The locking and the one-shot append are src/session/transcript.ts.
 * @module
 */

import { appendLines, openEntryTranscript, openTranscript } from "./transcript.ts";
import { type AppendResult, buildTranscriptLine, ioError, type TranscriptEntry } from "./transcript_line.ts";

const encoder = new TextEncoder();

/** One queued line and the caller waiting for it. */
type Pending = { bytes: Uint8Array; done: (result: AppendResult) => void };

/** Per-file state of a {@link TranscriptWriter}. */
type Channel = {
  entry: TranscriptEntry;
  path: string | null;
  file: Deno.FsFile | null;
  queue: Pending[];
  /** The running drain, if any. */
  draining: Promise<void> | null;
};

/** Open files a writer keeps at most; idle ones beyond it are closed, least recently used first. */
const MAX_OPEN_CHANNELS = 128;

/**
 * Transcript appender for long-lived processes (`serve`).
 *
 * Keeps each transcript open, and coalesces the appends that arrive while a write is in flight into
 * one locked write: lines of one file keep their call order, and the file lock is still taken for
 * every write so other processes' appends stay whole. The promise of each append settles once its
 * line is written (or failed).
 */
export class TranscriptWriter {
  readonly #home: string;
  readonly #channels = new Map<string, Channel>();
  #closed = false;

  /** @param home the application home (`$MIND_HOME`) */
  constructor(home: string) {
    this.#home = home;
  }

  /**
   * Validates and queues one line; see `appendTranscript` (src/session/transcript.ts) for the rules.
   *
   * @param entry the event to record
   * @param now the clock for the timestamp (and "today" when this session's path is first resolved)
   */
  append(entry: TranscriptEntry, now?: Date): Promise<AppendResult> {
    if (this.#closed) {
      return Promise.resolve(ioError(new Error("transcript writer is closed")));
    }
    const at = now ?? new Date();
    const built = buildTranscriptLine(entry, at);
    if (!built.ok) return Promise.resolve(built);
    const channel = this.#channel(entry);
    return new Promise((done) => {
      channel.queue.push({ bytes: encoder.encode(built.value), done });
      channel.draining ??= this.#drain(channel, at);
    });
  }

  /** Waits for queued lines, then closes every file. Later appends fail with an `io` error. */
  async close(): Promise<void> {
    this.#closed = true;
    // A drain keeps going until its queue is empty, so waiting for the current ones is enough.
    await Promise.all(
      [...this.#channels.values()].map((channel) => channel.draining),
    );
    for (const channel of this.#channels.values()) closeQuietly(channel);
    this.#channels.clear();
  }

  /** The channel of an entry's file, marked most recently used. */
  #channel(entry: TranscriptEntry): Channel {
    const key = `${entry.sessionId}\0${entry.agentId ?? ""}`;
    let channel = this.#channels.get(key);
    if (channel) this.#channels.delete(key);
    else channel = { entry, path: null, file: null, queue: [], draining: null };
    this.#channels.set(key, channel); // Map order is the LRU order
    this.#evictIdle();
    return channel;
  }

  /** Closes least recently used idle files while more than {@link MAX_OPEN_CHANNELS} are kept. */
  #evictIdle(): void {
    if (this.#channels.size <= MAX_OPEN_CHANNELS) return;
    for (const [key, channel] of this.#channels) {
      if (this.#channels.size <= MAX_OPEN_CHANNELS) return;
      if (channel.draining || channel.queue.length > 0) continue;
      closeQuietly(channel);
      this.#channels.delete(key);
    }
  }

  /** Writes queued lines, a whole batch per lock, until the queue is empty. */
  async #drain(channel: Channel, now: Date): Promise<void> {
    try {
      while (channel.queue.length > 0) {
        const batch = channel.queue.splice(0);
        settle(batch, await this.#writeBatch(channel, batch, now));
      }
    } finally {
      channel.draining = null;
    }
  }

  async #writeBatch(
    channel: Channel,
    batch: Pending[],
    now: Date,
  ): Promise<AppendResult> {
    try {
      if (channel.path === null) {
        const opened = await openEntryTranscript(
          this.#home,
          channel.entry,
          now,
        );
        [channel.file, channel.path] = [opened.file, opened.path];
      }
      // After an error the handle was dropped; a session keeps the path it first resolved to.
      channel.file ??= openTranscript(channel.path);
      channel.file = await appendLines(
        channel.file,
        channel.path,
        concatBytes(batch),
      );
      return { ok: true, path: channel.path };
    } catch (error) {
      // Drop the handle: the next batch reopens, which recovers from a moved or remounted folder.
      closeQuietly(channel);
      return ioError(error);
    }
  }
}

/** Settles every caller of a batch with the batch's outcome. */
function settle(batch: Pending[], result: AppendResult): void {
  for (const pending of batch) pending.done(result);
}

/** The bytes of a batch as one buffer (one write, one lock). */
function concatBytes(batch: Pending[]): Uint8Array {
  if (batch.length === 1) return batch[0].bytes;
  let length = 0;
  for (const pending of batch) length += pending.bytes.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const pending of batch) {
    out.set(pending.bytes, offset);
    offset += pending.bytes.length;
  }
  return out;
}

/** Closes a channel's file, if open; never throws. */
function closeQuietly(channel: Channel): void {
  try {
    channel.file?.close();
  } catch {
    // Already closed; nothing to release.
  }
  channel.file = null;
}
