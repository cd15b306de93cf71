/**
 * The closed list of lifecycle events (SPEC §2.2) and the per-event facts that
 * the event-agnostic machinery needs without loading an event module.
 * @module
 */

/** Every event mind-hooks dispatches, in the order SPEC §2.2 lists them. */
export const EVENT_NAMES = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "Interrupt",
] as const;

/** One lifecycle event name. */
export type EventName = typeof EVENT_NAMES[number];

const EVENT_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

/** True when `name` is exactly one of the 12 event names (no case folding, no look-alikes). */
export function isEventName(name: unknown): name is EventName {
  return typeof name === "string" && EVENT_SET.has(name);
}

/** Events whose matcher is dropped at discovery (SPEC §4). */
export const MATCHERLESS_EVENTS: ReadonlySet<EventName> = new Set([
  "UserPromptSubmit",
  "Stop",
  "Interrupt",
]);

/** Events that produce model-visible additionalContext, so `additionalContextLimit` applies (SPEC §2.2). */
export const CONTEXT_EVENTS: ReadonlySet<EventName> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "SubagentStart",
]);

/**
 * Events whose block reasons become a continuation prompt; the seed document
 * (000, the tie-breaker) says `additionalContextLimit` also bounds these prompts.
 */
export const CONTINUATION_EVENTS: ReadonlySet<EventName> = new Set([
  "Stop",
  "SubagentStop",
]);

/** Tool events: their matcher subject is the tool name and its aliases. */
export const TOOL_EVENTS: ReadonlySet<EventName> = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
]);

/** File-name stem of an event, as used for schema files: `PreToolUse` → `pre-tool-use`. */
export function eventFileStem(name: EventName): string {
  return name.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
}
