/**
 * The one lock helper: an exclusive `flock` on a lock file, held while a read-modify-write runs, so
 * that writers in other processes (and other requests of one `serve`) never lose each other's
 * changes. Used by the trust state writer (`<config>.lock`), the Stop-loop guard, the observation
 * log's rotation and `installs.json`; {@link lockWithin} is the one wait for a lock on an open file
 * (the transcript and log appends, the readers of a followed file).
 *
 * No lock waits without a deadline (SPEC §6 r4): a frozen process holding one (stopped with SIGSTOP,
 * a hung NFS client) must not hang every dispatch of the home. The lock is tried without blocking
 * and tried again until the deadline ({@link LOCK_WAIT_MS} by default); then the caller is told, and
 * decides what its data needs (the Stop guard counts elsewhere, an append fails, a rotation waits for
 * the next write).
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

/** The longest wait for a lock, by default (SPEC §6 r4: the Stop guard's counter lock, 2 s). */
export const LOCK_WAIT_MS = 2000;

/**
 * The deadline of a lock taken by a command a person runs (`trust`, `install`): several of them at
 * once on a loaded machine may queue for longer than a dispatch could wait, and a person can wait.
 */
export const PEOPLE_LOCK_WAIT_MS = 10_000;

/** The first pause between two tries; each pause doubles up to {@link LOCK_POLL_MAX_MS}. */
const LOCK_POLL_FIRST_MS = 1;
const LOCK_POLL_MAX_MS = 25;

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
 * Takes a lock on the open `file` (exclusive, or shared for a reader), waiting at most `waitMs`
 * (monotonic clock): true once held, false when the deadline passed. Errors of the lock call itself
 * are thrown. The tries never block the event loop.
 */
export async function lockWithin(
  file: Deno.FsFile,
  exclusive: boolean,
  waitMs: number = LOCK_WAIT_MS,
): Promise<boolean> {
  const deadline = performance.now() + Math.max(0, waitMs);
  let pause = LOCK_POLL_FIRST_MS;
  while (true) {
    if (await file.tryLock(exclusive)) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    pause = Math.min(pause * 2, LOCK_POLL_MAX_MS);
  }
}

/**
 * Runs `fn` while holding an exclusive lock on `path` (created when missing; its folder must exist),
 * waited for at most `waitMs` (see the module comment). What `fn` throws is thrown, after the lock is
 * released.
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  waitMs: number = LOCK_WAIT_MS,
): Promise<Locked<T>> {
  const opened = await openLock(path);
  if (!opened.ok) return opened;
  const lock = opened.value;
  try {
    try {
      if (!(await lockWithin(lock, true, waitMs))) {
        return fail(`${path} stayed locked by another process for ${Math.round(waitMs / 100) / 10} s`);
      }
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
