/**
 * The one atomic file writer: the new content goes to a sibling temp file, which is fsynced and
 * renamed over the target, and the folder is fsynced where the platform allows it. A reader, or a
 * crash (even `kill -9` or a power loss after the call returned), sees the old file or the new one,
 * never a torn one. Used for the trust state (`config.toml`), the hosts' settings files written by
 * `install`, the trusted-definition store and the one-shot async results.
 *
 * Windows: a rename over a file that another process holds open (an editor, a virus scanner)
 * fails for a moment with "access denied"; the replace is retried for up to about a second. No
 * folder fsync there (folders cannot be opened), and no mode or owner changes.
 * @module
 */

/** Options of {@link writeFileAtomic}. */
export type AtomicWriteOptions = {
  /**
   * The exact mode of the file, whether it exists or not (an owner-only file: {@link OWNER_ONLY}).
   * Without it an existing file keeps its mode and owner, and a new one gets {@link newFileMode}.
   */
  mode?: number;
  /** The exact mode of a file that did not exist; default 0o644 narrowed by the umask. */
  newFileMode?: number;
  /**
   * The sibling temp file to write. Default: a fresh name (`.<name>.<pid>.<random>.tmp`). A caller
   * that serializes its writers with a lock may pass its one fixed name (`atomicTempPath`, which the
   * sandbox grants exactly); a file left there by a killed writer is replaced.
   */
  tempPath?: string;
};

/** Owner read and write only: files holding trust decisions, server tables or hook output. */
export const OWNER_ONLY = 0o600;

/** How long a Windows replace is retried while another process holds the target open. */
const WINDOWS_RETRY_MS = [10, 20, 40, 80, 160, 320, 500];

const IS_WINDOWS = Deno.build.os === "windows";

/**
 * Replaces `target` with `data` atomically (see the module comment). The target's folder must
 * exist. Throws the file system's error, after removing the temp file; the target is then unchanged.
 *
 * @param target the file to replace (a symlink is replaced by a file: pass its real path to write through it).
 * @param data the new content; a string is written as UTF-8.
 * @param options modes and the temp file name.
 */
export async function writeFileAtomic(
  target: string,
  data: Uint8Array | string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let existing: Deno.FileInfo | null = null;
  try {
    existing = await Deno.stat(target);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const mode = options.mode ??
    (existing?.mode != null ? existing.mode & 0o7777 : options.newFileMode);
  const tmp = options.tempPath ??
    `${target.slice(0, lastSeparator(target) + 1)}${tempNamePrefix(target)}${Deno.pid}.${randomHex()}.tmp`;
  if (options.tempPath !== undefined) await bestEffort(() => Deno.remove(tmp));
  try {
    const file = await Deno.open(tmp, { write: true, createNew: true, mode: mode ?? 0o644 });
    try {
      let off = 0;
      while (off < bytes.length) off += await file.write(bytes.subarray(off));
      await file.sync();
    } finally {
      file.close();
    }
    if (!IS_WINDOWS) {
      // The mode given at creation is narrowed by the umask: set it exactly.
      if (mode !== undefined) await bestEffort(() => Deno.chmod(tmp, mode));
      if (options.mode === undefined && existing?.uid != null && existing.gid != null) {
        // Keeps the owner when root edits a user's file; fails harmlessly otherwise.
        const { uid, gid } = existing;
        await bestEffort(() => Deno.chown(tmp, uid, gid));
      }
    }
    await replace(tmp, target);
  } catch (e) {
    await bestEffort(() => Deno.remove(tmp));
    throw e;
  }
  if (!IS_WINDOWS) await syncFolder(folderOf(target));
}

/**
 * Removes the temp files of `target` that writers killed before their rename left behind, once
 * they are older than `olderThanMs` (the caller holds the target's lock; the age keeps it from
 * removing one that a writer reaching the file through a differently spelled path is filling).
 * Only names this writer makes are touched: `.<name>.<pid>.tmp` and `.<name>.<pid>.<hex>.tmp`.
 * Best effort.
 */
export async function removeStaleTemps(target: string, olderThanMs: number): Promise<void> {
  const dir = folderOf(target);
  const prefix = tempNamePrefix(target);
  const now = Date.now();
  await bestEffort(async () => {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.startsWith(prefix) || !entry.name.endsWith(".tmp")) continue;
      if (!/^\d+(\.[0-9a-f]+)?$/.test(entry.name.slice(prefix.length, -".tmp".length))) continue;
      const path = dir === "." ? entry.name : dir + entry.name; // `dir` ends with its separator
      await bestEffort(async () => {
        const st = await Deno.stat(path);
        if (st.mtime !== null && now - st.mtime.getTime() > olderThanMs) await Deno.remove(path);
      });
    }
  });
}

/** `.<name>.`: how the name of every temp file of `target` starts. */
export function tempNamePrefix(target: string): string {
  return `.${target.slice(lastSeparator(target) + 1)}.`;
}

/** The folder of `target`, with its separator (`/`, `C:\`), or `.` for a bare name. */
function folderOf(target: string): string {
  const i = lastSeparator(target);
  return i < 0 ? "." : target.slice(0, i + 1);
}

function lastSeparator(path: string): number {
  const slash = path.lastIndexOf("/");
  return IS_WINDOWS ? Math.max(slash, path.lastIndexOf("\\")) : slash;
}

/** Renames `from` over `to`; on Windows retries while another process holds `to` open. */
async function replace(from: string, to: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.rename(from, to);
      return;
    } catch (e) {
      const transient = e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.Busy;
      if (!IS_WINDOWS || !transient || attempt >= WINDOWS_RETRY_MS.length) throw e;
      await new Promise((r) => setTimeout(r, WINDOWS_RETRY_MS[attempt]));
    }
  }
}

/** Makes a rename in `dir` durable. Best effort: a folder the sandbox does not let us open is skipped. */
async function syncFolder(dir: string): Promise<void> {
  await bestEffort(async () => {
    const d = await Deno.open(dir, { read: true });
    try {
      await d.sync();
    } finally {
      d.close();
    }
  });
}

function randomHex(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function bestEffort(f: () => Promise<unknown>): Promise<void> {
  try {
    await f();
  } catch { /* optional step; the write is correct without it */ }
}
