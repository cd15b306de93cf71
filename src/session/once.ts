/**
 * Claude Code's `once` (SPEC §2.2 r4): a handler with `once = true` runs at most once per session. The
 * session's record is a file per hook under `$MIND_HOME/sessions/<id>/once/`, made with `createNew` when the
 * hook is about to run, so that two dispatches of one session (or a one-shot run and `serve`) never both
 * run it. Its name is the hook's key and content hash, hashed: a changed hook is a new hook.
 * @module
 */
import { join } from "../util/paths.ts";
import { safeSessionSegment } from "../util/session_id.ts";
import { sha256Hex } from "../util/sha256.ts";

/** The run record's reason of a `once` hook that already ran in the session. */
export const ONCE_REASON = "once";

/**
 * Claims the one run of a `once` hook in `sessionId`: true when this dispatch may run it (and from now
 * on no other may), false when it already ran. A claim that cannot be written (no home, a full disk) lets
 * it run: a guard is never skipped because its bookkeeping failed.
 */
export async function claimOnce(home: string | null, sessionId: string, key: string, hash: string): Promise<boolean> {
  if (home === null) return true;
  const dir = join(home, "sessions", safeSessionSegment(sessionId), "once");
  const file = join(dir, sha256Hex(new TextEncoder().encode(`${key}\u0000${hash}`)));
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const f = await Deno.open(file, { write: true, createNew: true, mode: 0o600 });
    f.close();
    return true;
  } catch (e) {
    return !(e instanceof Deno.errors.AlreadyExists);
  }
}
