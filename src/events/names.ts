/**
 * The closed list of lifecycle events (SPEC §2.2). Everything else about an
 * event is in its own module (`src/events/<event>.ts`), reached through
 * `registry.ts`.
 * @module
 */
import { didYouMean } from "../util/suggest.ts";

/** Every event mind-hooks dispatches, in the order SPEC §2.2 lists them. */
export const EVENT_NAMES = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "Interrupt",
  "Notification",
] as const;

/** One lifecycle event name. */
export type EventName = typeof EVENT_NAMES[number];

const EVENT_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

/** True when `name` is exactly one of the event names (no case folding, no look-alikes). */
export function isEventName(name: unknown): name is EventName {
  return typeof name === "string" && EVENT_SET.has(name);
}

/**
 * `; did you mean "PreToolUse"?` for a mistyped event name, or `""`: every place a person types an
 * event name (an event's `hook_event_name`, `schema … EVENT`, a hooks file's event keys) says it.
 */
export function eventSuggestion(name: string): string {
  return didYouMean(name, EVENT_NAMES);
}

/** File-name stem of an event, as used for schema files: `PreToolUse` → `pre-tool-use`. */
export function eventFileStem(name: EventName): string {
  return name.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
}
