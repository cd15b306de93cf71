/**
 * The Stop loop guard (SPEC §8): counts consecutive blocking `Stop` (and
 * `SubagentStop`, per `agent_id`) dispatches of a session; past the cap,
 * further blocks are ignored with `W_STOP_LOOP_CAP` until a dispatch of that
 * event does not block. The counters live in a small JSON file per session so
 * that one-shot dispatches share them.
 *
 * The guard never fails open in silence (SPEC §6 r4): when the home's counter
 * cannot be read or written (its lock held past 2 s by a frozen process, a full
 * disk, a bad path), the session is counted in a fallback file under the temp
 * directory, `<temp>/mind-hooks-<uid>/stop/<session>`, so the cap still
 * applies; only when that fails too does the block stand uncounted. Either way
 * the caller gets the reason, said as `W_STOP_GUARD_UNAVAILABLE`.
 * @module
 */
import { join, userTempFolder } from "../util/paths.ts";
import { safeSessionSegment } from "../util/session_id.ts";
import { LOCK_WAIT_MS, withFileLock } from "../util/file_lock.ts";
import { OWNER_ONLY, writeFileAtomic } from "../util/atomic_file.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { messageLine } from "../util/terminal_text.ts";
import { prepareSpillFolder } from "../output/spill_folder.ts";

/** Path of a session's guard file. */
export function guardPath(home: string, sessionId: string): string {
  return join(
    home,
    "tmp",
    "stop_guard",
    `${safeSessionSegment(sessionId)}.json`,
  );
}

/** The temp directory's folder of this user's fallback counters, and the session's file in it. */
export function fallbackGuardPaths(tempDir: string, sessionId: string): { root: string; dir: string; file: string } {
  const root = userTempFolder(tempDir);
  const dir = join(root, "stop");
  return { root, dir, file: join(dir, safeSessionSegment(sessionId)) };
}

/** How long the fallback's own lock is waited for: the home's lock already took up to 2 s. */
const FALLBACK_LOCK_WAIT_MS = 500;

/** What one Stop dispatch recorded: whether its block may stand, the count, and why the home could not count. */
export type StopRecord = {
  allowed: boolean;
  count: number;
  /**
   * Null when the home's counter was used. Else the `W_STOP_GUARD_UNAVAILABLE` line: counted in the
   * fallback file (`counted: true`, the cap still applies) or not at all (the block stands uncounted).
   */
  unavailable: { line: string; counted: boolean } | null;
};

/** The counters in `path`: none when it does not exist; a failure when it cannot be read as counters. */
async function readCounters(path: string): Promise<Result<Record<string, number>>> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return ok({});
    return fail(`${path} cannot be read (${messageLine(e)})`);
  }
  try {
    const data = JSON.parse(text);
    if (data && typeof data === "object" && !Array.isArray(data)) return ok(data);
  } catch { /* said below */ }
  // Reading a damaged file as no counts would silently lift the cap: it counts elsewhere instead.
  return fail(`${path} does not hold the counters`);
}

/** One read-modify-write of the counters in `path`: the new count of `counterKey`. Throws on I/O errors. */
async function bump(path: string, counterKey: string, blocked: boolean): Promise<number> {
  const read = await readCounters(path);
  if (!read.ok) throw new Error(read.error);
  const counters = read.value;
  const before = Object.hasOwn(counters, counterKey) ? counters[counterKey] : 0;
  const count = blocked ? (typeof before === "number" ? before : 0) + 1 : 0;
  if (count === 0) delete counters[counterKey];
  else counters[counterKey] = count;
  await writeFileAtomic(path, JSON.stringify(counters), { mode: OWNER_ONLY });
  return count;
}

/** Counts under the lock `lock`, waited for at most `waitMs`; the count, or why not (one line). */
async function countLocked(
  lock: string,
  path: string,
  counterKey: string,
  blocked: boolean,
  waitMs: number,
): Promise<Result<number>> {
  try {
    const locked = await withFileLock(lock, () => bump(path, counterKey, blocked), waitMs);
    return locked;
  } catch (e) {
    return fail(messageLine(e));
  }
}

/**
 * Records one dispatch of a Stop-like event and says whether its block may
 * stand: `allowed` is false once the consecutive count exceeds `cap`.
 *
 * The read-modify-write of the session's counters runs under one lock per home
 * (`tmp/stop_guard/.lock`, src/util/file_lock.ts), waited for at most 2 s:
 * parallel subagents of one session, in separate processes or in one `serve`,
 * would otherwise each read the same counts and lose each other's increments
 * (and blocks past the cap would stand). The counters are replaced atomically,
 * so a crash leaves the old ones or the new ones. When the home cannot count,
 * the fallback file does (see the module comment).
 */
export async function recordStopDispatch(
  home: string,
  tempDir: string,
  sessionId: string,
  counterKey: string,
  blocked: boolean,
  cap: number,
): Promise<StopRecord> {
  const dir = join(home, "tmp", "stop_guard");
  let counted: Result<number>;
  try {
    await Deno.mkdir(dir, { recursive: true });
    counted = await countLocked(join(dir, ".lock"), guardPath(home, sessionId), counterKey, blocked, LOCK_WAIT_MS);
  } catch (e) {
    counted = fail(`${dir} cannot be made (${messageLine(e)})`);
  }
  if (counted.ok) return { allowed: counted.value <= cap, count: counted.value, unavailable: null };
  const why = counted.error;
  const fallback = await countInFallback(tempDir, sessionId, counterKey, blocked);
  if (!fallback.ok) {
    // The block stands — a hook's block is never dropped — but the cap cannot apply: said, not silent.
    const line =
      `mind-hooks: the Stop loop guard cannot count (${why}; fallback: ${fallback.error}): this stop is not counted and the loop cap does not apply`;
    return { allowed: true, count: 0, unavailable: { line, counted: false } };
  }
  const line = `mind-hooks: the Stop loop guard cannot count in the home (${why}): counted in ${
    fallbackGuardPaths(tempDir, sessionId).file
  } instead; the loop cap still applies`;
  return { allowed: fallback.value <= cap, count: fallback.value, unavailable: { line, counted: true } };
}

/**
 * Counts in `<temp>/mind-hooks-<uid>/stop/<session>`. The temp directory is shared with other users:
 * its folders are used only as real folders of this user (src/output/spill_folder.ts, as the spill
 * root), so a planted link or folder is refused, never followed.
 */
async function countInFallback(
  tempDir: string,
  sessionId: string,
  counterKey: string,
  blocked: boolean,
): Promise<Result<number>> {
  const { root, dir, file } = fallbackGuardPaths(tempDir, sessionId);
  try {
    const refused = await prepareSpillFolder(root, dir);
    if (refused !== null) return fail(refused);
  } catch (e) {
    return fail(`${dir} cannot be made (${messageLine(e)})`);
  }
  return await countLocked(join(dir, ".lock"), file, counterKey, blocked, FALLBACK_LOCK_WAIT_MS);
}

/** Removes a session's guard file and its fallback (session end). */
export async function clearStopGuard(
  home: string,
  tempDir: string,
  sessionId: string,
): Promise<void> {
  await Deno.remove(guardPath(home, sessionId)).catch(() => {});
  await Deno.remove(fallbackGuardPaths(tempDir, sessionId).file).catch(() => {});
}
