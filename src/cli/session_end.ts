/**
 * `mind-hooks session-end --session ID [--home DIR] [--temp-dir DIR]` (SPEC §10, §7.2): what a
 * host runs when a session ends without a `SessionEnd` dispatch (or in addition to one). Kills the
 * session's unfinished async hooks, discards their undelivered output, deletes the session's
 * spilled outputs and resets its Stop loop counters. Safe to repeat.
 * @module
 */
import { MissingArgument, type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { endSession } from "../session/end.ts";
import { spillDir } from "../output/spill.ts";
import { sanitize } from "../util/terminal_text.ts";

/** Runs the command; returns the exit code. */
export async function sessionEndCommand({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length > 0) {
    throw new UsageError(`session-end: unexpected argument ${JSON.stringify(positionals[0])}`);
  }
  const sessionId = options.session;
  if (typeof sessionId !== "string") throw new MissingArgument("session-end needs --session ID");
  if (sessionId === "") throw new UsageError("--session must not be empty");
  const { home, tempDir } = cliSettings(options);
  const { killedAsync } = await endSession(home, tempDir, sessionId);
  const hooks = `${killedAsync} running async hook${killedAsync === 1 ? "" : "s"} killed`;
  console.log(sanitize(
    `session ${JSON.stringify(sessionId)} ended: ${hooks}, undelivered async output discarded, ` +
      `spilled outputs removed (${spillDir(tempDir, sessionId)})`,
  ));
  return 0;
}
