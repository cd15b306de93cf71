/**
 * File hashes by stat signature (SPEC §3.5): the cache that lets an unchanged pinned file cost a stat,
 * not a read and a hash — kept for the process by `serve`, loaded per hook from the home by a one-shot
 * dispatch (src/trust/pin_cache.ts).
 * @module
 */

import { depsHold, type KeptReading, keptReadingOf, type ReadDep } from "../shell/reading_cache.ts";
import type { CommandReading } from "../shell/shell_reader.ts";

const HASH = /^sha256:[0-9a-f]{64}$/;
/** The entry holding the kept readings (no path starts with `#`). */
export const READINGS_KEY = "#readings";

/** One cached file hash: the stat signature it was read under, and the hash. */
export type CachedHash = { signature: string; hash: string };

/**
 * File hashes by stat signature: a file whose size, mtime, ctime, inode and device are unchanged
 * is not read again. ctime cannot be set back by a user (unlike mtime), and an atomic replace
 * changes the inode. A file changed within a second of being read (the clock's and the file
 * system's granularity) is not cached: it is read again next time. `serve` keeps one for the
 * process; a one-shot dispatch loads each matched hook's own from the home (src/config/pinning.ts),
 * so that an unchanged pinned file costs a stat, not a read and a hash.
 */
export class FileHashCache {
  readonly #entries = new Map<string, CachedHash>();
  /** Kept command readings by key (src/shell/reading_cache.ts). */
  readonly #readings = new Map<string, KeptReading>();
  #changed = false;

  readonly #maxReadings: number;

  /**
   * @param entries cached hashes by path (from {@link FileHashCache.entries}); malformed ones are dropped
   * @param maxReadings how many command readings it keeps (a hook's own cache: a few, one per cwd)
   */
  constructor(entries: Readonly<Record<string, unknown>> = {}, maxReadings = MAX_READINGS) {
    this.#maxReadings = maxReadings;
    for (const [path, e] of Object.entries(entries)) {
      if (path === READINGS_KEY) {
        for (const k of Array.isArray(e) ? e : []) {
          const kept = keptReadingOf(k);
          if (kept !== null) this.#readings.set(kept.key, kept);
        }
        continue;
      }
      const c = e as Partial<CachedHash> | null;
      if (typeof c?.signature === "string" && typeof c.hash === "string" && HASH.test(c.hash)) {
        this.#entries.set(path, { signature: c.signature, hash: c.hash });
      }
    }
  }

  /** Whether an entry was added, replaced or dropped since it was made. */
  get changed(): boolean {
    return this.#changed;
  }

  /** Every entry, by path (and the kept readings under {@link READINGS_KEY}). */
  entries(): Record<string, unknown> {
    const out: Record<string, unknown> = Object.fromEntries(this.#entries);
    if (this.#readings.size > 0) out[READINGS_KEY] = [...this.#readings.values()];
    return out;
  }

  /** The kept reading of `key` when every look-up it made still answers the same, else null. */
  reading(key: string): CommandReading | null {
    const kept = this.#readings.get(key);
    if (kept === undefined) return null;
    if (depsHold(kept.deps)) return kept.reading;
    this.#readings.delete(key);
    this.#changed = true;
    return null;
  }

  /** Keeps a reading with the look-ups it made (at most `maxReadings`, the oldest dropped first). */
  storeReading(key: string, deps: ReadDep[], reading: CommandReading): void {
    while (this.#readings.size >= this.#maxReadings && !this.#readings.has(key)) {
      this.#readings.delete(this.#readings.keys().next().value!);
    }
    this.#readings.set(key, { key, deps, reading });
    this.#changed = true;
  }

  /** The cached hash of `path` if `info` still matches it. */
  lookup(path: string, info: Deno.FileInfo): string | undefined {
    const e = this.#entries.get(path);
    return e !== undefined && e.signature === signature(info) ? e.hash : undefined;
  }

  /** Caches `hash` for `path` as read at `readAt` (ms since the epoch), unless it changed too recently. */
  store(path: string, info: Deno.FileInfo, hash: string, readAt: number): void {
    const changed = Math.max(info.mtime?.getTime() ?? Infinity, info.ctime?.getTime() ?? Infinity);
    if (!(changed < readAt - RACY_MS)) {
      if (this.#entries.delete(path)) this.#changed = true;
      return;
    }
    if (this.#entries.size >= MAX_CACHED && !this.#entries.has(path)) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    const sig = signature(info);
    const old = this.#entries.get(path);
    if (old?.signature === sig && old.hash === hash) return;
    this.#entries.set(path, { signature: sig, hash });
    this.#changed = true;
  }
}

const RACY_MS = 1000;
const MAX_CACHED = 16_384;
const MAX_READINGS = 1024;

function signature(info: Deno.FileInfo): string {
  return `${info.size}/${info.mtime?.getTime() ?? "-"}/${info.ctime?.getTime() ?? "-"}/${info.ino ?? "-"}/${
    info.dev ?? "-"
  }`;
}
