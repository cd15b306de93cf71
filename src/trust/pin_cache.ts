/**
 * The home's cache of a trusted hook's pinned-file hashes (SPEC §3.5), for one-shot dispatches:
 * `$MIND_HOME/hooks/trusted/<sha256 of the key>.hashes.json`, beside the hook's trusted copy, in the
 * owner-only folder (a stranger who could write there could as well write the trust state). Each
 * entry is a true observation — a stat signature and the hash read under it (src/trust/pins.ts,
 * `FileHashCache`) — so an unchanged pinned file costs a stat, not a read and a hash, and a changed
 * one can never look unchanged. Kept small and apart: it is on the dispatch path.
 * @module
 */
import { join } from "../util/paths.ts";
import { sha256Hex } from "../util/sha256.ts";

/** The stem of a hook's files under `hooks/trusted/`: the SHA-256 of its key, in hex. */
export function keyFileStem(key: string): string {
  return sha256Hex(new TextEncoder().encode(key));
}

/** Where the hashes of `key`'s pinned files are cached. */
export function pinHashesPath(home: string, key: string): string {
  return join(home, "hooks", "trusted", keyFileStem(key) + ".hashes.json");
}

/** The cached pinned-file hashes of `key` (by path), or none. A damaged file is no cache. Synchronous,
 * like the writer: a small local file costs less so than its promise round trips, on the dispatch path. */
export function readPinHashes(home: string, key: string): Record<string, unknown> {
  try {
    const v = JSON.parse(Deno.readTextFileSync(pinHashesPath(home, key)));
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * Stores the cached pinned-file hashes of `key`. Not atomic on purpose: a torn or interleaved write
 * can only lose entries (the file no longer parses), never make a changed file look unchanged.
 */
export function writePinHashes(home: string, key: string, entries: Record<string, unknown>): void {
  Deno.mkdirSync(join(home, "hooks", "trusted"), { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(pinHashesPath(home, key), JSON.stringify(entries) + "\n", { mode: 0o600 });
}
