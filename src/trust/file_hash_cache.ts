/**
 * File hashes by stat signature (SPEC §3.5): the cache that lets an unchanged pinned file cost a stat,
 * not a read and a hash — kept for the process by `serve`, loaded per hook from the home by a one-shot
 * dispatch (src/trust/pin_cache.ts).
 * @module
 */

const HASH = /^sha256:[0-9a-f]{64}$/;

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
  #changed = false;

  /** @param entries cached hashes by path (from {@link FileHashCache.entries}); malformed ones are dropped */
  constructor(entries: Readonly<Record<string, unknown>> = {}) {
    for (const [path, e] of Object.entries(entries)) {
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

  /** Every entry, by path. */
  entries(): Record<string, CachedHash> {
    return Object.fromEntries(this.#entries);
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

function signature(info: Deno.FileInfo): string {
  return `${info.size}/${info.mtime?.getTime() ?? "-"}/${info.ctime?.getTime() ?? "-"}/${info.ino ?? "-"}/${
    info.dev ?? "-"
  }`;
}
