/**
 * The Stop loop guard (SPEC §8): counts consecutive blocking `Stop` (and
 * `SubagentStop`, per `agent_id`) dispatches of a session; past the cap,
 * further blocks are ignored with `W_STOP_LOOP_CAP` until a dispatch of that
 * event does not block. The counters live in a small JSON file per session so
 * that one-shot dispatches share them.
 * @module
 */
import { join } from "../util/paths.ts";
import { safeSessionSegment } from "../util/session_id.ts";
import { withFileLock } from "../util/file_lock.ts";
import { OWNER_ONLY, writeFileAtomic } from "../util/atomic_file.ts";

/** Path of a session's guard file. */
export function guardPath(home: string, sessionId: string): string {
  return join(
    home,
    "tmp",
    "stop_guard",
    `${safeSessionSegment(sessionId)}.json`,
  );
}

async function readCounters(path: string): Promise<Record<string, number>> {
  try {
    const data = JSON.parse(await Deno.readTextFile(path));
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/**
 * Records one dispatch of a Stop-like event and says whether its block may
 * stand: `allowed` is false once the consecutive count exceeds `cap`.
 *
 * The read-modify-write of the session's counters runs under one lock per home
 * (`tmp/stop_guard/.lock`, src/util/file_lock.ts): parallel subagents of one
 * session, in separate processes or in one `serve`, would otherwise each read
 * the same counts and lose each other's increments (and blocks past the cap
 * would stand). The counters are replaced atomically, so a crash leaves the old
 * ones or the new ones.
 */
export async function recordStopDispatch(
  home: string,
  sessionId: string,
  counterKey: string,
  blocked: boolean,
  cap: number,
): Promise<{ allowed: boolean; count: number }> {
  const path = guardPath(home, sessionId);
  const dir = join(home, "tmp", "stop_guard");
  const update = async () => {
    const counters = await readCounters(path);
    const before = Object.hasOwn(counters, counterKey) ? counters[counterKey] : 0;
    const count = blocked ? (typeof before === "number" ? before : 0) + 1 : 0;
    if (count === 0) delete counters[counterKey];
    else counters[counterKey] = count;
    await writeFileAtomic(path, JSON.stringify(counters), { mode: OWNER_ONLY });
    return count;
  };
  try {
    await Deno.mkdir(dir, { recursive: true });
    const locked = await withFileLock(join(dir, ".lock"), update);
    if (locked.ok) return { allowed: locked.value <= cap, count: locked.value };
  } catch {
    // Without a writable home the guard cannot count; blocks then stand, as without a guard.
  }
  return { allowed: true, count: 0 };
}

/** Removes a session's guard file (session end). */
export async function clearStopGuard(
  home: string,
  sessionId: string,
): Promise<void> {
  await Deno.remove(guardPath(home, sessionId)).catch(() => {});
}
