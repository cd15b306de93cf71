/**
 * The common shape of every host adapter (`src/adapter/<host>.ts`) and the pieces they share: the shape of
 * a host's event map (each adapter owns its own) and its reverse lookup, the completion of a mapped
 * input with the documented placeholders, the messages and context of a result, and the translation of a
 * host's tool names and parameters into the names mind hooks are written for.
 * @module
 */
import { EVENT_NAMES, type EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { INPUT_SCHEMAS } from "../generated/schemas.ts";
import { PERMISSION_MODES } from "../events/common.ts";
import { type JsonSchema, validateJson } from "../schema/validate.ts";
import type { DispatchResult } from "../schema/result.ts";
import type { HostHints } from "../engine/types.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { type Host, HOSTS } from "./host_names.ts";

export type { Host } from "./host_names.ts";

/**
 * How one host raises each mind event: the host's own event name, or null when the host has no such
 * event. Every adapter states every event, so adding an event is a type error in each adapter.
 */
export type HostEventMap = Readonly<Record<EventName, string | null>>;

/** Result of mapping a host's stdin. */
export type MappedInput =
  | {
    kind: "event";
    event: EventName;
    /** The §5 event mind's engine reads (what the host did not send filled with placeholders). */
    input: JsonObject;
    /**
     * What the host sent, in mind's names where the adapter translates them, nothing filled in: what the
     * hooks read (issue 33: a field mind does not know reaches them unchanged, nothing is invented).
     */
    sent: JsonObject;
  }
  | { kind: "ignore"; event: string }
  | { kind: "error"; message: string };

/** Where `install` writes: the user's settings, or a project's (`project` absolute), Claude Code's `--local`. */
export type InstallScope = { project?: string; local?: boolean };

/** How `install` registers the delegating entries in one host's settings. */
export type InstallSpec = {
  /** The host's own command, looked for on PATH to tell whether it is installed (`doctor`). */
  program: string;
  /** The host's folder for a scope, and whether the user named it (an env variable): never removed then. */
  folder(scope: InstallScope, env: Record<string, string | undefined>, cwd: string): { path: string; named: boolean };
  /** The hooks file inside that folder (may hold a sub-folder: Copilot's `hooks/mind-hooks.json`). */
  file(scope: InstallScope): string;
  /** `groups`: `{matcher, hooks: [handler]}` per event (Claude Code, Codex, Gemini); `flat`: handlers directly. */
  layout: "groups" | "flat";
  /** The handler field that holds the command line. */
  commandField: "command" | "bash";
  /** Arguments the call for `event` adds after `--protocol <host>` (Copilot CLI's `--event`); none when absent. */
  eventArgs?(event: EventName): string;
  /** The handler registered for `event` running `command` (timeouts in the host's own unit). */
  handler(event: EventName, command: string): JsonObject;
  /** What a new file holds before the hooks; a file left holding only this after uninstall is deleted. */
  emptyFile(scope: InstallScope): JsonObject;
  /** Events mapped but not registered by default. */
  notByDefault: readonly EventName[];
  /** Whether `--local` applies (Claude Code's personal project settings). */
  local: boolean;
  /** What the user must still do, after a successful install. */
  advice(path: string, project: boolean, command: string): string[];
};

/** One host adapter: its wire mappings both ways, and how `install` registers it. */
export type HostAdapter = {
  host: Host;
  /** How the host raises each mind event. */
  events: HostEventMap;
  /**
   * Maps the host's hook input (already parsed JSON) to a §5 event. `cwd` fills a missing `cwd`;
   * `given` is the event name from `dispatch --event` (for a payload that carries none).
   */
  mapInput(raw: unknown, cwd: string, given?: string): MappedInput;
  /**
   * Maps a dispatch result to the host's hook stdout object, or null when there is nothing to say.
   * `hints` carry what a Claude-dialect hook said that mind's result has no field for (SPEC §8.1).
   */
  mapOutput(event: EventName, result: DispatchResult, hostInput: JsonObject, hints: HostHints): JsonObject | null;
  /** Events on which the host shows hook context to the model (async results wait for one of them). */
  contextEvents: ReadonlySet<EventName>;
  /**
   * For a host that shows a hook's `systemMessage` nowhere on `event` but shows the stderr of a hook that
   * exits 2 there as a warning, still reading its stdout (Copilot CLI's sessionStart): the warning text —
   * the adapter then writes it to stderr and exits 2 — or null. Absent: always exit 0.
   */
  warningExit?(event: EventName, result: DispatchResult): string | null;
  install: InstallSpec;
};

/** What a host that cannot ask adds to the reason of an `ask` it receives as a deny (SPEC §8.1 r3). */
export const ASK_AS_DENY = " (this hook asks for your approval)";

/** The deny reason of an `ask` for a host that cannot ask the user (SPEC §8.1 r3). */
export function askAsDenyReason(reason: string | null): string {
  return `${reason ?? "Blocked by hook."}${ASK_AS_DENY}`;
}

/** Host hints that say nothing (the engine's one definition). */
export { noHostHints } from "../engine/types.ts";

/** The events a host's map raises (in mind's event order), with the host's own name. */
export function mappedEvents(events: HostEventMap): readonly { event: EventName; hostEvent: string }[] {
  return EVENT_NAMES.flatMap((event) => {
    const hostEvent = events[event];
    return hostEvent !== null ? [{ event, hostEvent }] : [];
  });
}

/** One value per host. */
export function perHost<T>(make: (host: Host) => T): Record<Host, T> {
  return Object.fromEntries(HOSTS.map((host) => [host, make(host)])) as unknown as Record<Host, T>;
}

/** The reverse of a host's event map: the mind event each of the host's event names stands for. */
export function eventsByHostName(events: HostEventMap): ReadonlyMap<string, EventName> {
  return new Map(mappedEvents(events).map((m) => [m.hostEvent, m.event]));
}

/**
 * The placeholder put in a required string field the host did not send (`model` for Claude Code, a
 * `turn_id` when no `prompt_id` stands in for it, a missing `tool_use_id`, `agent_id`, `agent_type`).
 * Documented in the README; a hook can test for it.
 */
export const UNKNOWN = "unknown";

/**
 * Placeholders for each event's required input fields a host may not send (or sends in a form mind does
 * not accept): `completeInput` puts them in when the field is missing or fails the field's schema.
 */
const PLACEHOLDERS: Readonly<Record<EventName, Readonly<JsonObject>>> = {
  SessionStart: { source: "startup" },
  SessionEnd: { reason: "other" },
  UserPromptSubmit: { prompt: "" },
  PreToolUse: { tool_input: {}, tool_use_id: UNKNOWN },
  PermissionRequest: { tool_input: {} },
  PostToolUse: { tool_input: {}, tool_use_id: UNKNOWN, tool_response: null },
  PostToolUseFailure: { tool_input: {}, tool_use_id: UNKNOWN, error: "" },
  PreCompact: { trigger: "auto" },
  PostCompact: { trigger: "auto" },
  SubagentStart: { agent_id: UNKNOWN, agent_type: UNKNOWN },
  SubagentStop: {
    agent_id: UNKNOWN,
    agent_type: UNKNOWN,
    agent_transcript_path: null,
    stop_hook_active: false,
    last_assistant_message: null,
  },
  Stop: { stop_hook_active: false, last_assistant_message: null },
  Interrupt: {},
  Notification: { message: "", notification_type: UNKNOWN },
};

/** The events whose §5 input requires `field` (from the generated input schemas, so never out of step). */
function requiring(field: string): ReadonlySet<EventName> {
  return new Set(EVENT_NAMES.filter((e) => (INPUT_SCHEMAS[e].required ?? []).includes(field)));
}
const NEEDS_TURN = requiring("turn_id");
const NEEDS_MODE = requiring("permission_mode");
const NEEDS_MODEL = requiring("model");

/**
 * Fills what the host did not send into `input` (already named `event`): `session_id`, `cwd`, `model`,
 * `turn_id` (Claude Code's `prompt_id` stands in for it), a `permission_mode` mind knows, and the event's
 * own placeholders for a field that is missing or in a form mind does not accept. Fields mind does not
 * know are left for `validateEvent` to drop with `W_UNKNOWN_INPUT_FIELD`.
 */
export function completeInput(event: EventName, input: JsonObject, raw: JsonObject, cwd: string): JsonObject {
  const fill = (key: string, value: unknown) => {
    if (input[key] === undefined) input[key] = value;
  };
  fill("session_id", UNKNOWN);
  fill("cwd", cwd);
  if (NEEDS_MODEL.has(event)) fill("model", UNKNOWN);
  if (NEEDS_TURN.has(event)) {
    // Claude Code has no turn id, but its per-prompt `prompt_id` names the same thing.
    fill("turn_id", typeof raw.prompt_id === "string" && raw.prompt_id !== "" ? raw.prompt_id : UNKNOWN);
  }
  if (NEEDS_MODE.has(event) && !(PERMISSION_MODES as readonly unknown[]).includes(input.permission_mode)) {
    // A mode mind does not know (or none, as Claude Code's SessionStart sends) must not fail the event.
    input.permission_mode = "default";
  }
  const props = (INPUT_SCHEMAS[event] as JsonSchema).properties ?? {};
  for (const [field, placeholder] of Object.entries(PLACEHOLDERS[event])) {
    const schema = Object.hasOwn(props, field) ? props[field] : undefined;
    if (input[field] === undefined || (schema && validateJson(schema, input[field]) !== null)) {
      input[field] = placeholder;
    }
  }
  return input;
}

/**
 * The timeout of a delegating entry, in seconds: the longest an event's mind hooks may take by default (its
 * clamp, else its default timeout, SPEC §2.2) and a margin for mind-hooks' own start and reading. A host
 * that kills the entry at its own (shorter) default would cut mind hooks short; when it does kill it, the
 * host goes on as after any timed-out hook.
 */
export function hostTimeoutSeconds(event: EventName): number {
  const t = EVENTS[event].timeout;
  return (t.max ?? t.default) + 30;
}

/** The user messages and model context of a result, its async results' included. */
export function resultTexts(result: DispatchResult): { messages: string[]; contexts: string[] } {
  const messages = [...result.systemMessages];
  const contexts = [...result.additionalContext];
  for (const a of result.asyncResults) {
    if (a.systemMessage) messages.push(a.systemMessage);
    if (a.additionalContext) contexts.push(a.additionalContext);
    if (a.status === "failed" && a.reason) messages.push(`async hook ${a.key} failed: ${a.reason}`);
  }
  return { messages, contexts };
}

/**
 * The message that replaces context a host cannot show on `hostEvent` (so it is never lost silently):
 * `carriers` names the host events that can show it.
 */
export function droppedContext(host: string, hostEvent: string, carriers: string): string {
  return `mind-hooks: additional context of ${hostEvent} hooks was not delivered: ${host} shows hook context ` +
    `only on ${carriers}`;
}

// The tool tables and the call in mind's names are the dialects' (src/dialect/), shared with the adapters.
export type { ToolAlias, ToolTable } from "../dialect/types.ts";
export { toMindTool } from "../dialect/common.ts";
import type { ToolTable } from "../dialect/types.ts";

/**
 * A rewrite (`updated`, in the names mind hooks use) as the complete tool input in the host's own parameter
 * names: the host's original arguments with the rewritten ones put back under their host names, since
 * every host replaces a tool's arguments whole and a mind hook may return only what it changed.
 */
export function toHostInput(table: ToolTable, name: unknown, original: unknown, updated: JsonObject): JsonObject {
  const alias = typeof name === "string" ? table.get(name) : undefined;
  const back = new Map([...(alias?.params ?? new Map<string, string>())].map(([host, mind]) => [mind, host]));
  const renamed = Object.entries(updated).map(([k, v]) => [back.get(k) ?? k, v]);
  return Object.fromEntries([...Object.entries(isObject(original) ? original : {}), ...renamed]);
}
