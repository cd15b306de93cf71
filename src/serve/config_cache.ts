/**
 * The configuration cache of `serve` (SPEC §13): one loaded catalog per set of discovery options,
 * re-read when any file it depends on changes, so a `trust` done in another terminal applies to the
 * next event. Every request stats the watched paths (synchronously: a dozen stats cost tens of
 * microseconds, less than handing them to the thread pool) and compares mtime, ctime, size and
 * inode — an atomic rename, as the state writer does, always changes the inode — and the content of
 * the files (SPEC §13 r4: a same-size edit within one clock tick is seen).
 *
 * The watched paths are the catalog's `files` (every file read or that would be read), the
 * `.mind` candidates between the cwd and the project root (a project created later), and the
 * plugins folder (a plugin installed after it was enabled).
 *
 * Pinned files (SPEC §3.5) are not configuration: every dispatch checks the matched hooks' pins
 * again, and one file-hash cache (by size, mtime, ctime and inode) shared by every catalog of the
 * process keeps that to a stat per file while nothing changes.
 * @module
 */
import { type Catalog, type ConfigOptions, loadCatalog } from "../config/discovery.ts";
import { ok, type Result } from "../util/result.ts";
import { join, searchDirs } from "../util/paths.ts";
import { FileHashCache } from "../trust/pins.ts";

/** Catalogs kept at most (least recently used dropped first). */
const MAX_ENTRIES = 64;
/**
 * A file modified this close to (or after) the start of a load may have changed while it was read
 * with an mtime the signature cannot tell apart; such an entry is re-read once more on next use
 * (the "racy clean" rule of git's index).
 */
const RACY_MS = 50;

// node:fs's existsSync answers for a missing path in ~1 µs, a failing Deno.statSync in ~20 µs. It is
// imported dynamically: a static import of a node: module starts Deno's Node compatibility layer
// (~20 ms), and the dispatch bundle (scripts/bundle.ts) lifts the static imports of every module it
// holds, serve's too, to its top, where every dispatch would pay for them.
const { existsSync } = await import("node:fs");

type Entry = {
  catalog: Catalog;
  watch: string[];
  signature: string;
  racy: boolean;
};

/** Files up to this size are compared by content too; a configuration file is far smaller. */
const CONTENT_MAX = 1024 * 1024;

/** FNV-1a of `bytes`: a same-size edit within one clock tick changes it (SPEC §13 r4). */
function contentHash(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/**
 * The signature of one path: missing, or its identity and change marks, and for a file its content:
 * an edit that keeps the size within one tick of the clock keeps every mark but the content.
 */
function statSignature(path: string): string {
  // Most watched paths do not exist; a failing Deno.statSync builds an exception (~20 µs),
  // existsSync answers in ~1 µs.
  if (!existsSync(path)) return "-";
  try {
    const s = Deno.statSync(path);
    const marks = `${s.mtime?.getTime() ?? 0}/${s.ctime?.getTime() ?? 0}/${s.size}/${s.ino ?? 0}`;
    if (!s.isFile) return `${marks}/d`;
    return `${marks}/f/${s.size <= CONTENT_MAX ? contentHash(Deno.readFileSync(path)) : "large"}`;
  } catch {
    return "-";
  }
}

/** The signature of a list of paths. */
function signatureOf(paths: readonly string[]): string {
  let out = "";
  for (const p of paths) out += statSignature(p) + "|";
  return out;
}

/** Whether any of `paths` was modified at or after `since` (ms), less the racy margin. */
function modifiedSince(paths: readonly string[], since: number): boolean {
  for (const p of paths) {
    if (!existsSync(p)) continue;
    try {
      const m = Deno.statSync(p).mtime?.getTime();
      if (m !== undefined && m >= since - RACY_MS) return true;
    } catch {
      // missing: nothing to be racy about
    }
  }
  return false;
}

/** `.mind` candidates from `cwd` up to the filesystem root (a project marker created later). */
function projectCandidates(cwd: string): string[] {
  return searchDirs(cwd).map((dir) => join(dir, ".mind"));
}

/** The cache key of a set of discovery options (the environment is fixed for a serve process). */
export function optionsKey(opts: ConfigOptions): string {
  return JSON.stringify([
    opts.home,
    opts.cwd,
    opts.profile ?? null,
    opts.overrides ?? [],
    opts.hooksFiles ?? [],
    opts.requirements ?? null,
    opts.bypassTrust === true,
  ]);
}

/** A load in progress, and when it started (on the cache's own clock). */
type Loading = { startedAt: number; done: Promise<Result<Catalog>> };

/** Loaded catalogs by options, re-read on change. */
export class CatalogCache {
  readonly #entries = new Map<string, Entry>();
  readonly #loading = new Map<string, Loading>();
  readonly #onLoad: (catalog: Catalog) => void;
  readonly #loadCatalog: (opts: ConfigOptions) => Promise<Result<Catalog>>;
  /** The hashes of pinned files, for every catalog of this process. */
  readonly #pinned = new FileHashCache();
  #loads = 0;
  /** Orders requests and load starts: a request may share only a load that started after it came. */
  #clock = 0;

  /**
   * @param onLoad called with every freshly loaded catalog (serve opens its MCP servers there)
   * @param load how a catalog is loaded (tests hold a load back to interleave a write with it)
   */
  constructor(
    onLoad: (catalog: Catalog) => void = () => {},
    load: (opts: ConfigOptions) => Promise<Result<Catalog>> = loadCatalog,
  ) {
    this.#onLoad = onLoad;
    this.#loadCatalog = load;
  }

  /** The hashes of pinned files this cache keeps (a handed-over catalog checks its pins with it). */
  get pinCache(): FileHashCache {
    return this.#pinned;
  }

  /** How many times a configuration was (re)loaded (diagnostics and tests). */
  get loads(): number {
    return this.#loads;
  }

  /** Every cached catalog. */
  catalogs(): Catalog[] {
    return [...this.#entries.values()].map((e) => e.catalog);
  }

  /** The cached catalog of `key` when no watched path changed since it was loaded, else null. */
  #fresh(key: string): Catalog | null {
    const entry = this.#entries.get(key);
    if (!entry || entry.racy || signatureOf(entry.watch) !== entry.signature) return null;
    // Map order is the LRU order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.catalog;
  }

  /**
   * The catalog for `opts`, from the cache when no watched path changed. Concurrent requests with
   * the same options share a load, but only one that started after the request came: a load that
   * was already reading may have read a file before the last write (a config.toml trusting the new
   * hooks.json, read as the old one), so a later request waits for it and then looks again — at the
   * cache, which that load's racy-clean check keeps from answering stale, or at a load of its own.
   */
  get(opts: ConfigOptions): Promise<Result<Catalog>> {
    const key = optionsKey(opts);
    const cached = this.#fresh(key);
    return cached ? Promise.resolve(ok(cached)) : this.#fromLoad(key, opts, ++this.#clock);
  }

  async #fromLoad(key: string, opts: ConfigOptions, arrived: number): Promise<Result<Catalog>> {
    while (true) {
      const loading = this.#loading.get(key);
      if (loading && loading.startedAt > arrived) return await loading.done;
      if (loading) {
        await loading.done;
        const cached = this.#fresh(key);
        if (cached) return ok(cached);
        continue;
      }
      const startedAt = ++this.#clock;
      const done = this.#load(key, opts).finally(() => {
        if (this.#loading.get(key)?.done === done) this.#loading.delete(key);
      });
      this.#loading.set(key, { startedAt, done });
      return await done;
    }
  }

  async #load(key: string, opts: ConfigOptions): Promise<Result<Catalog>> {
    const started = Date.now();
    const loaded = await this.#loadCatalog(opts);
    this.#loads++;
    if (!loaded.ok) {
      this.#entries.delete(key);
      return loaded;
    }
    const catalog = loaded.value;
    catalog.pinCache = this.#pinned;
    const watch = [...new Set([...catalog.files, ...projectCandidates(opts.cwd), join(opts.home, "plugins")])];
    const signature = signatureOf(watch);
    const racy = modifiedSince(watch, started);
    this.#entries.delete(key);
    this.#entries.set(key, { catalog, watch, signature, racy });
    while (this.#entries.size > MAX_ENTRIES) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#onLoad(catalog);
    return loaded;
  }
}
