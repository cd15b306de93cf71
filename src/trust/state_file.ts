/**
 * The file side of the trust-state writer: the lock, the re-read under it, the checks before and
 * after the edit, and the atomic replace (src/util/atomic_file.ts).
 *
 * Writers take an exclusive `flock` on the sibling `<file>.lock` of the file they really write (a
 * symlinked `config.toml` is written through: its target, and the lock beside it, so writers
 * reaching it through different links share one lock) and re-read the file under it, so
 * concurrent writers in separate processes lose nothing. A lock path that is not a regular file (a
 * FIFO, a directory, a symlink someone planted) is refused.
 * @module
 */
import { folderOf, tempNamePrefix, writeFileAtomic } from "../util/atomic_file.ts";
import { atomicTempPath, dirname } from "../util/paths.ts";
import type { StateWriteError } from "./state_plan.ts";
import { checkToml, errorText } from "./state_verify.ts";

/** Outcome of a write: `changed` is false when the file already held the wanted values (nothing
 * was written, and a missing file was not created). */
export type StateWriteResult = { ok: true; changed: boolean } | { ok: false; error: StateWriteError };

/**
 * Edits a TOML document under the writer lock, atomically. Under the lock the file is re-read; a
 * missing file reads as `""`; a file that is not UTF-8 or not valid TOML is refused. `edit` gets
 * the current text and returns the new one; it may throw (for instance a `TomlEditRefusal`)
 * to refuse, which becomes a `parse` error. A result that is not valid TOML is not written.
 *
 * @param configPath the file to edit; its parent directories are created when missing.
 * @param edit pure function from the current text to the wanted text.
 * @returns whether the file changed, or a `parse` / `io` error (file unchanged).
 */
export async function editTomlFile(
  configPath: string,
  edit: (text: string) => string,
): Promise<StateWriteResult> {
  try {
    await Deno.mkdir(dirname(configPath), { recursive: true });
  } catch (e) {
    return ioError(`cannot create ${dirname(configPath)}`, e);
  }
  // The link may be re-pointed between resolving it and holding the lock: resolve again under the
  // lock, and start over (a few times) if it now leads elsewhere.
  for (let attempt = 0; attempt < RELINK_ATTEMPTS; attempt++) {
    const target = await writeTarget(configPath);
    if (typeof target !== "string") return target;
    const lock = await openLock(`${target}.lock`);
    if (!(lock instanceof Deno.FsFile)) return lock;
    try {
      try {
        await lock.lock(true);
      } catch (e) {
        return ioError(`cannot lock ${target}.lock`, e);
      }
      if ((await writeTarget(configPath)) === target) return await editLocked(target, edit);
    } finally {
      // Closing the descriptor releases the flock as well; unlock first so the release does not
      // depend on when the runtime actually closes it.
      try {
        await lock.unlock();
      } catch { /* closing below releases it anyway */ }
      lock.close();
    }
  }
  return { ok: false, error: { kind: "io", message: `${configPath} keeps being re-linked; not written, try again` } };
}

/** How often {@link editTomlFile} starts over when the config's symlink changes under it. */
const RELINK_ATTEMPTS = 3;

/** The file a write of `configPath` really replaces: its real path (a symlinked config is written
 * through, the link stays), or `configPath` itself when it does not exist yet. */
async function writeTarget(configPath: string): Promise<string | StateWriteResult> {
  try {
    return await Deno.realPath(configPath);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return configPath;
    return ioError(`cannot resolve ${configPath}`, e);
  }
}

/** Opens (creating) the lock file; a path that exists as anything but a regular file is refused:
 * opening a planted FIFO would block forever, and a symlink would lead the lock (and its creation)
 * elsewhere. */
async function openLock(path: string): Promise<Deno.FsFile | StateWriteResult> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) {
      return { ok: false, error: { kind: "io", message: `${path} is not a regular file; refusing it as the lock` } };
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return ioError(`cannot open lock file ${path}`, e);
  }
  try {
    return await Deno.open(path, { read: true, write: true, create: true });
  } catch (e) {
    return ioError(`cannot open lock file ${path}`, e);
  }
}

/** Temp files of a writer killed mid-write are removed by a later writer once they are this old;
 * the age (on top of holding the lock) keeps a writer from deleting a temp file that another
 * writer, reaching the same file through a differently spelled path, is still filling. */
const STALE_TEMP_MS = 60_000;

/** Mode of a newly created config: it holds trust decisions and may hold MCP credentials. */
const NEW_FILE_MODE = 0o600;

/** The edit itself, under the lock; `target` is the resolved file (see {@link writeTarget}). */
async function editLocked(target: string, edit: (text: string) => string): Promise<StateWriteResult> {
  let bytes: Uint8Array | null = null;
  try {
    const info = await Deno.stat(target);
    // Reading a FIFO would block forever, a device would never end: only a regular file is edited.
    if (!info.isFile) {
      return { ok: false, error: { kind: "io", message: `${target} is not a regular file (file unchanged)` } };
    }
    bytes = await Deno.readFile(target);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return ioError(`cannot read ${target}`, e);
  }

  let text = "";
  if (bytes !== null) {
    try {
      // ignoreBOM keeps a leading BOM in the text, so it is written back unchanged.
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return parseError(`${target} is not valid UTF-8; refusing to edit it (file unchanged)`);
    }
  }
  const before = checkToml(text);
  if (before !== null) return parseError(`${target} ${before}; refusing to edit it (file unchanged)`);

  let next: string;
  try {
    next = edit(text);
  } catch (e) {
    return parseError(`cannot edit ${target}: ${errorText(e)} (file unchanged)`);
  }
  if (next === text) return { ok: true, changed: false };
  const after = checkToml(next);
  if (after !== null) return parseError(`edit of ${target} would produce invalid TOML (${after}); not written`);

  try {
    await removeStaleTemps(target);
    // One temp name per process (`atomicTempPath`): the sandbox grants exactly it for a symlinked
    // config, and holding the lock makes it free.
    await writeFileAtomic(target, next, { newFileMode: NEW_FILE_MODE, tempPath: atomicTempPath(target, Deno.pid) });
  } catch (e) {
    return ioError(`cannot write ${target}`, e);
  }
  return { ok: true, changed: true };
}

/** Removes temp files left by writers that died before their rename (we hold the lock). */
async function removeStaleTemps(target: string): Promise<void> {
  const dir = folderOf(target);
  const prefix = tempNamePrefix(target);
  const now = Date.now();
  await bestEffort(async () => {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.startsWith(prefix) || !entry.name.endsWith(".tmp")) continue;
      // Only names this writer makes: `.<base>.<pid>.tmp` (and `.<base>.<pid>.<hex>.tmp` of older versions).
      if (!/^\d+(\.[0-9a-f]+)?$/.test(entry.name.slice(prefix.length, -".tmp".length))) continue;
      const path = dir === "." ? entry.name : dir + entry.name; // `dir` ends with its separator
      await bestEffort(async () => {
        const st = await Deno.stat(path);
        if (st.mtime !== null && now - st.mtime.getTime() > STALE_TEMP_MS) {
          await Deno.remove(path);
        }
      });
    }
  });
}

async function bestEffort(f: () => Promise<unknown>): Promise<void> {
  try {
    await f();
  } catch { /* optional step; the write is correct without it */ }
}

function ioError(what: string, e: unknown): StateWriteResult {
  return { ok: false, error: { kind: "io", message: `${what}: ${errorText(e)}` } };
}

function parseError(message: string): StateWriteResult {
  return { ok: false, error: { kind: "parse", message } };
}
