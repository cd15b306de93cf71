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

/** Ends a session's engine-side state. Never throws. */
export async function endSession(home: string, tempDir: string, sessionId: string): Promise<SessionEndReport> {
  const { killed } = await endSessionAsync(home, sessionId).catch(() => ({ killed: 0 }));
  await removeSessionSpill(tempDir, sessionId).catch(() => {});
  await clearStopGuard(home, sessionId);
  await removeSessionEnvFile(home, sessionId);
  return { killedAsync: killed };
}
