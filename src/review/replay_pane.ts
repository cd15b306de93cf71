/**
 * Review's replay (SPEC §16, key `r`): before a person trusts a hook awaiting trust, the events their sessions
 * recorded (`[hooks] record = true`) of that hook's event are dispatched again against the configuration with that
 * hook trusted — in a throw-away copy of the project (src/testing/) — and the details pane opens with what it would
 * have changed: "against your last 214 tool calls it would have denied 3", and which.
 * @module
 */
import type { HomeSettings } from "../engine/settings.ts";
import { latestEvents } from "../session/recording.ts";
import { endSession } from "../session/end.ts";
import { prepareReplay, replay, type Replayed, replayLine, replaySummary } from "../testing/replay.ts";
import { EVENTS } from "../events/registry.ts";
import type { EventName } from "../events/names.ts";
import { type Row, text } from "./rows.ts";

/** The most recorded events one replay dispatches (the newest): a review waits for them. */
export const REPLAY_LIMIT = 200;

/** What replaying one hook found. */
export type HookReplay = {
  key: string;
  /** `tool calls`, or the event's name (`UserPromptSubmit events`). */
  what: string;
  events: number;
  /** Events whose decision it would have made a deny, block or stop. */
  stopped: number;
  /** Every event whose decision changed, as a line. */
  changed: string[];
  /** Why nothing was replayed (no recordings, a copy that could not be made), or null. */
  none: string | null;
};

/**
 * Replays the recorded events of `event` with the hook `key` trusted. `show` names keys for people. Null when
 * nothing was ever recorded (recording is off): `r` is then only the reload it always was.
 */
export async function replayHook(
  settings: HomeSettings,
  key: string,
  event: EventName,
  show: (key: string) => string,
): Promise<HookReplay | null> {
  const what = EVENTS[event].matcher.kind === "tool" ? "tool calls" : `${event} events`;
  const empty = { key, what, events: 0, stopped: 0, changed: [] };
  const { events, any } = await latestEvents(settings.home, (e) => e.event.hook_event_name === event, REPLAY_LIMIT);
  if (!any) return null;
  if (events.length === 0) return { ...empty, none: `no recorded ${what} to replay` };
  const prepared = await prepareReplay(settings, key);
  if (!prepared.ok) return { ...empty, none: prepared.error };
  const run = prepared.value;
  const session = `mind-hooks-review-replay-${Deno.pid}`;
  let replayed: Replayed[];
  try {
    replayed = await replay(events, run, session);
  } finally {
    await endSession(run.settings.home, run.settings.tempDir, session).catch(() => {});
    await run.copy?.dispose();
  }
  const s = replaySummary(replayed);
  const changed = replayed.filter((r) => r.changed).map((r) => replayLine(r, show));
  return { key, what, events: s.events, stopped: s.stopped, changed, none: null };
}

/** The replay's rows, first in the details pane of the hook it is about. */
export function replayRows(r: HookReplay, width: number): Row[] {
  if (r.none !== null) return [...text(`Replay: ${r.none}`, width, ["dim"]), []];
  const verb = r.stopped === 1 ? "" : "s";
  const head = r.changed.length === 0
    ? `Replay: against your last ${r.events} ${r.what} it would have changed nothing`
    : `Replay: against your last ${r.events} ${r.what} it would have denied ${r.stopped}` +
      (r.changed.length > r.stopped ? ` and changed ${r.changed.length - r.stopped} more` : "") +
      (r.changed.length > 0 ? ` — the call${verb}:` : "");
  const rows: Row[] = text(head, width, ["bold"]);
  for (const line of r.changed) rows.push(...text(`  ${line}`, width, [], "    "));
  rows.push([]);
  return rows;
}
