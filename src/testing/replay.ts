/**
 * Replaying recorded events (SPEC §16): each event the user's sessions recorded is dispatched again
 * through the engine's one entry against a prepared run (today's configuration in a throw-away copy of
 * the project, src/testing/copy_run.ts), and its decision then is compared with its decision now:
 * `PreToolUse Bash "git push --force": allowed then, denied now by .mind/hooks.json:PreToolUse:0:1`.
 * Used by `mind-hooks test --replay` and by review's `r`.
 * @module
 */
import { engineDispatch } from "../engine/dispatch.ts";
import type { RecordedEvent } from "../session/recording.ts";
import type { DispatchResult } from "../schema/result.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { messageLine } from "../util/terminal_text.ts";
import { copiedRun, type PreparedRun } from "./copy_run.ts";
import type { HomeSettings } from "../engine/settings.ts";
import type { Result } from "../util/result.ts";

/** One recorded event replayed: its decision then and now, and the hook that decided now. */
export type Replayed = {
  event: RecordedEvent;
  /** A short description: `PreToolUse Bash "git push --force"`. */
  what: string;
  then: DispatchResult["decision"];
  now: DispatchResult["decision"] | undefined;
  /** The key (the real project's) of the hook whose run decided now, or null. */
  by: string | null;
  /** Why it could not be dispatched again, or null. */
  error: string | null;
  changed: boolean;
};

/** The words of a decision in a sentence (`allowed`, `denied`, …). */
export function decisionWord(decision: DispatchResult["decision"] | undefined): string {
  switch (decision) {
    case "deny":
      return "denied";
    case "block":
      return "blocked";
    case "ask":
      return "asked";
    case "stop":
      return "stopped";
    case "allow":
      return "allowed (rewritten)";
    default:
      return "allowed";
  }
}

/** `PreToolUse Bash "git push --force"`, `UserPromptSubmit "deploy it"`, `Stop`. */
export function describeEvent(event: JsonObject): string {
  const name = typeof event.hook_event_name === "string" ? event.hook_event_name : "?";
  const input = isObject(event.tool_input) ? event.tool_input : {};
  const subject = [input.command, input.file_path, input.cmd, event.prompt].find((v) => typeof v === "string");
  const tool = typeof event.tool_name === "string" ? ` ${event.tool_name}` : "";
  const text = typeof subject === "string"
    ? ` ${JSON.stringify(subject.length > 80 ? subject.slice(0, 79) + "…" : subject)}`
    : "";
  return `${name}${tool}${text}`;
}

/** The run that decided a result: the first blocked one (a deny or block), else none. */
function decidingRun(result: DispatchResult): string | null {
  return result.runs.find((r) => r.status === "blocked")?.key ?? null;
}

/**
 * Dispatches each recorded event again against `run`: its cwd moved into the copy, its session one of
 * the replay's own (a replay must not count towards a real session's Stop guard or async results).
 */
export async function replay(events: readonly RecordedEvent[], run: PreparedRun, session: string): Promise<Replayed[]> {
  const out: Replayed[] = [];
  for (const e of events) {
    const what = describeEvent(e.event);
    const cwd = typeof e.event.cwd === "string" ? e.event.cwd : run.settings.cwd ?? "";
    const input = { ...e.event, cwd: run.copy ? run.copy.inCopy(cwd) : cwd, session_id: session };
    let now: DispatchResult | null = null;
    let error: string | null = null;
    try {
      const outcome = await engineDispatch(input, run.settings);
      if (outcome.ok) now = outcome.result;
      else error = outcome.error;
    } catch (err) {
      error = `internal error: ${messageLine(err)}`;
    }
    const by = now ? decidingRun(now) : null;
    out.push({
      event: e,
      what,
      then: e.decision,
      now: now?.decision,
      by: by && run.copy ? run.copy.realKey(by) : by,
      error,
      changed: now !== null && now.decision !== e.decision,
    });
  }
  return out;
}

/** One replayed event as a line: `… : allowed then, denied now by KEY` (`key` shows a key for people). */
export function replayLine(r: Replayed, key: (k: string) => string): string {
  if (r.error !== null) return `${r.what}: ${decisionWord(r.then)} then, not replayed: ${r.error}`;
  const by = r.changed && r.by !== null ? ` by ${key(r.by)}` : "";
  const same = r.changed ? "" : " (unchanged)";
  return `${r.what}: ${decisionWord(r.then)} then, ${decisionWord(r.now)} now${by}${same}`;
}

/**
 * The run a replay dispatches in: today's configuration in a throw-away copy of the project, the hooks
 * that run today — and `alsoTrusted`, a hook as if it were trusted (review's `r`) — and no other.
 */
export async function prepareReplay(settings: HomeSettings, alsoTrusted: string | null): Promise<Result<PreparedRun>> {
  return await copiedRun(
    settings,
    (h, v) => v.skip === null || (h.key === alsoTrusted && v.skip !== "disabled"),
    false,
  );
}

/** What a replay found, counted: how many events, how many changed, and how many are now denied or blocked. */
export function replaySummary(replayed: readonly Replayed[]): { events: number; changed: number; stopped: number } {
  const changed = replayed.filter((r) => r.changed);
  return {
    events: replayed.length,
    changed: changed.length,
    stopped: changed.filter((r) => r.now === "deny" || r.now === "block" || r.now === "stop").length,
  };
}
