/**
 * `mind-hooks test --replay SESSION|--since T` (SPEC §16): the recorded events of one session, or of
 * every session since T, dispatched again against today's configuration in a throw-away copy of the
 * project; per event the decision then and now and what changed; exit 1 when a decision changed.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { parseSince } from "./logs.ts";
import { recordedEvents } from "../session/recording.ts";
import { prepareReplay, replay, replayLine, replaySummary } from "../testing/replay.ts";
import { endSession } from "../session/end.ts";
import { sanitize } from "../util/terminal_text.ts";
import { keyShower, testSession } from "./test.ts";

/** Runs `test --replay`/`--since`; returns the exit code. */
export async function testReplay({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length > 0) throw new UsageError("--replay takes no test files");
  const settings = cliSettings(options);
  let since: Date | null = null;
  if (typeof options.since === "string") {
    const t = parseSince(options.since, Date.now());
    if (t === null) {
      throw new UsageError(`--since ${options.since}: expected an ISO-8601 time or a duration such as 10m, 2h, 1d`);
    }
    since = new Date(t);
  }
  const session = typeof options.replay === "string" ? options.replay : null;
  if (session !== null && since !== null) {
    throw new UsageError("give either --replay SESSION or --since TIME, not both");
  }
  const events = await recordedEvents(settings.home, session !== null ? { session } : { since: since! });
  if (events.length === 0) {
    console.log(
      session !== null
        ? sanitize(`no recorded events for session ${JSON.stringify(session)} (is [hooks] record = true?)`)
        : "no recorded events in that time (is [hooks] record = true in config.toml?)",
    );
    return 0;
  }
  const prepared = await prepareReplay(settings, null);
  if (!prepared.ok) throw new UsageError(prepared.error);
  const run = prepared.value;
  const replaySession = testSession();
  try {
    const replayed = await replay(events, run, replaySession);
    const show = keyShower(run.catalog);
    for (const r of replayed) console.log(sanitize(replayLine(r, show)));
    const s = replaySummary(replayed);
    console.log(
      `${s.events} event${s.events === 1 ? "" : "s"} replayed, ${s.changed} decision${
        s.changed === 1 ? "" : "s"
      } changed`,
    );
    return s.changed > 0 ? 1 : 0;
  } finally {
    await endSession(run.settings.home, run.settings.tempDir, replaySession).catch(() => {});
    await run.copy?.dispose();
  }
}
