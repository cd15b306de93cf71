/**
 * Session end (SPEC §10, §7.2): kill the session's unfinished async hooks,
 * discard their undelivered output, delete the session's spill folder and
 * env file (SPEC §7.1), and forget the Stop loop counters. Shared by the `SessionEnd` dispatch,
 * `mind-hooks session-end` and `serve`.
 * @module
 */
import { endSessionAsync } from "./async.ts";
import { removeSessionSpill } from "../output/spill.ts";
import { clearStopGuard } from "./stop_guard.ts";
import { removeSessionEnvFile } from "./env_file.ts";

/** What session end did. */
export type SessionEndReport = { killedAsync: number };

/**
 * Ends a session's engine-side state. Never throws. Without a home (a dispatch, SPEC §1 r3) there is
 * nothing of the session in it: only the spill folder (in the temp dir) goes.
 */
export async function endSession(home: string | null, tempDir: string, sessionId: string): Promise<SessionEndReport> {
  const { killed } = home === null
    ? { killed: 0 }
    : await endSessionAsync(home, sessionId).catch(() => ({ killed: 0 }));
  await removeSessionSpill(tempDir, sessionId).catch(() => {});
  if (home === null) return { killedAsync: killed };
  await clearStopGuard(home, tempDir, sessionId);
  await removeSessionEnvFile(home, sessionId);
  return { killedAsync: killed };
}
