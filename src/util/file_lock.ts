/**
 * The one lock helper: an exclusive `flock` on a lock file, held while a read-modify-write runs, so
 * that writers in other processes (and other requests of one `serve`) never lose each other's
 * changes. Used by the trust state writer (`<config>.lock`), the Stop-loop guard and the
 * observation log's rotation.
 *
 * A lock path that exists as anything but a regular file (a FIFO, a folder, a planted symlink) is
 * refused: opening a FIFO would block forever, and a symlink would lead the lock, and its creation,
 * elsewhere. The lock file itself is kept (removing it while another process waits on it would let
 * a third one lock a new file beside the two).
 * @module
 */
import { messageLine } from "./terminal_text.ts";
import { fail, ok, type Result } from "./result.ts";

/** What {@link withFileLock} gives: `fn`'s value, or why the lock could not be held (one line). */
export type Locked<T> = Result<T>;

/** Opens (creating, owner-only) the lock file, or says why not. */
async function openLock(path: string): Promise<Result<Deno.FsFile>> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) return fail(`${path} is not a regular file; refusing it as the lock`);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return fail(`cannot open lock file ${path}: ${messageLine(e)}`);
  }
  try {
    return ok(await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 }));
  } catch (e) {
    return fail(`cannot open lock file ${path}: ${messageLine(e)}`);
  }
}

/**
 * Runs `fn` while holding an exclusive lock on `path` (created when missing; its folder must exist).
 * The lock is awaited off the event loop, so a long wait never stalls a serving process. What `fn`
 * throws is thrown, after the lock is released.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<Locked<T>> {
  const opened = await openLock(path);
  if (!opened.ok) return opened;
  const lock = opened.value;
  try {
    try {
      await lock.lock(true);
    } catch (e) {
      return fail(`cannot lock ${path}: ${messageLine(e)}`);
    }
    return ok(await fn());
  } finally {
    // Closing the descriptor releases the flock as well; unlock first so the release does not
    // depend on when the runtime actually closes it.
    try {
      await lock.unlock();
    } catch { /* closing below releases it anyway */ }
    lock.close();
  }
}
