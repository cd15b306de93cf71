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
 */
export async function recordStopDispatch(
  home: string,
  sessionId: string,
  counterKey: string,
  blocked: boolean,
  cap: number,
): Promise<{ allowed: boolean; count: number }> {
  const path = guardPath(home, sessionId);
  const counters = await readCounters(path);
  const count = blocked ? (counters[counterKey] ?? 0) + 1 : 0;
  if (count === 0) delete counters[counterKey];
  else counters[counterKey] = count;
  try {
    await Deno.mkdir(join(home, "tmp", "stop_guard"), { recursive: true });
    await Deno.writeTextFile(path, JSON.stringify(counters));
  } catch {
    // Without a writable home the guard cannot count; blocks then stand, as without a guard.
  }
  return { allowed: count <= cap, count };
}

/** Removes a session's guard file (session end). */
export async function clearStopGuard(
  home: string,
  sessionId: string,
): Promise<void> {
  await Deno.remove(guardPath(home, sessionId)).catch(() => {});
}
