/**
 * The session's env file (SPEC §7.1, §9): one file per session under `$MIND_HOME/sessions/env/`,
 * handed to SessionStart command hooks as `CLAUDE_ENV_FILE` and `MIND_ENV_FILE`. Hooks append
 * `export NAME=value` lines; the dispatch result's `envFile` names it so the host applies them to
 * its later commands. Owner-only: the lines may hold secrets.
 * @module
 */
import { join } from "../util/paths.ts";
import { safeSessionSegment } from "../util/session_id.ts";

/** Where the env file of `sessionId` lives (nothing is created). */
export function sessionEnvFilePath(home: string, sessionId: string): string {
  return join(home, "sessions", "env", `${safeSessionSegment(sessionId)}.env`);
}

/**
 * The env file of `sessionId`, created empty when missing (with its folder); a resumed session keeps
 * what its hooks wrote before. Throws when it cannot be created.
 */
export async function ensureSessionEnvFile(home: string, sessionId: string): Promise<string> {
  const path = sessionEnvFilePath(home, sessionId);
  await Deno.mkdir(join(home, "sessions", "env"), { recursive: true, mode: 0o700 });
  const file = await Deno.open(path, { write: true, append: true, create: true, mode: 0o600 });
  file.close();
  return path;
}

/** Session end: the env file is no longer needed. Never throws. */
export async function removeSessionEnvFile(home: string, sessionId: string): Promise<void> {
  await Deno.remove(sessionEnvFilePath(home, sessionId)).catch(() => {});
}
