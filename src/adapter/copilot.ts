/**
 * GitHub Copilot CLI (`dispatch --protocol copilot`), as measured on `@github/copilot` 1.0.102 against a
 * loopback mock model (README: "Gemini CLI and Copilot CLI").
 *
 * Input: Copilot has two payload dialects, chosen by how the event is spelled in its settings. The
 * PascalCase events `install` registers (`PreToolUse`, `Stop`, …) send Claude-like snake_case fields with
 * Claude Code's tool names (`Bash`, `Edit`, `Write`, `Read`) but Copilot's own parameters (`path`,
 * `old_str`, `new_str`, `file_text`); `permissionRequest` always sends the camelCase form (`hookName`,
 * `sessionId`, `toolName: "bash"`, `toolInput`), as every camelCase event does (`toolArgs`, `toolResult`,
 * no event name at all on most of them: `dispatch --event NAME` then names it). Both are read; tools reach
 * mind hooks under the names they are written for, parameters under Claude Code's names.
 *
 * Output, in the form both dialects read: a deny is top-level `permissionDecision: "deny"` +
 * `permissionDecisionReason` (an ask the same with Copilot's own `"ask"`); a rewrite is `modifiedArgs`, the complete arguments in Copilot's parameter
 * names, without a decision (Copilot's "allow" would approve, mind's means "rewrite"); PermissionRequest
 * answers `behavior` + `message`; PostToolUse, UserPromptSubmit and Stop block with `decision: "block"` +
 * `reason` (on Stop: the continuation prompt); context is top-level `additionalContext`. Copilot CLI shows
 * no hook `systemMessage` and ignores `continue: false`; both are still sent — and on sessionStart the
 * messages also go to stderr with exit 2, which Copilot shows as a warning (its stdout is still read).
 * @module
 */
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { DispatchResult } from "../schema/result.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { absolute, join } from "../util/paths.ts";
import {
  completeInput,
  droppedContext,
  eventsByHostName,
  type HostAdapter,
  type HostEventMap,
  hostTimeoutSeconds,
  type MappedInput,
  resultTexts,
  toHostInput,
  toMindTool,
  type ToolTable,
} from "./host.ts";
import { HOST_DISPLAY_NAMES } from "./host_names.ts";

/**
 * How Copilot CLI raises mind's events: under mind's names in the PascalCase spelling `install`
 * registers, and its camelCase `permissionRequest` (it has no compaction-end or interrupt event).
 */
export const COPILOT_EVENTS: HostEventMap = Object.freeze({
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  UserPromptSubmit: "UserPromptSubmit",
  PreToolUse: "PreToolUse",
  PermissionRequest: "permissionRequest",
  PostToolUse: "PostToolUse",
  PostToolUseFailure: "PostToolUseFailure",
  PreCompact: "PreCompact",
  PostCompact: null,
  SubagentStart: "SubagentStart",
  SubagentStop: "SubagentStop",
  Stop: "Stop",
  Interrupt: null,
  Notification: "Notification",
});

const FROM_COPILOT = eventsByHostName(COPILOT_EVENTS);

const EDIT = new Map([["path", "file_path"], ["old_str", "old_string"], ["new_str", "new_string"]]);
const CREATE = new Map([["path", "file_path"], ["file_text", "content"]]);
const VIEW = new Map([["path", "file_path"]]);

/**
 * Copilot's tools as mind hooks know them, by their camelCase names and by the Claude Code names the
 * PascalCase events already use (whose parameters are still Copilot's). `edit` is also the permission
 * kind of any file change (`create` included), whose input is `{file_path, diff}`.
 */
export const COPILOT_TOOLS: ToolTable = new Map([
  ["bash", { name: "Bash", params: new Map() }],
  ["Bash", { name: "Bash", params: new Map() }],
  ["edit", { name: "Edit", params: EDIT }],
  ["Edit", { name: "Edit", params: EDIT }],
  ["create", { name: "Write", params: CREATE }],
  ["Write", { name: "Write", params: CREATE }],
  ["view", { name: "Read", params: VIEW }],
  ["Read", { name: "Read", params: VIEW }],
]);

/** The camelCase spelling of each event `install` registers in PascalCase (and the reverse for permissionRequest). */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["sessionStart", "SessionStart"],
  ["sessionEnd", "SessionEnd"],
  ["userPromptSubmitted", "UserPromptSubmit"],
  ["preToolUse", "PreToolUse"],
  ["postToolUse", "PostToolUse"],
  ["postToolUseFailure", "PostToolUseFailure"],
  ["notification", "Notification"],
  ["agentStop", "Stop"],
  ["subagentStart", "SubagentStart"],
  ["subagentStop", "SubagentStop"],
  ["preCompact", "PreCompact"],
  ["PermissionRequest", "permissionRequest"],
]);

/** camelCase field → mind's field. */
const CAMEL_FIELDS: ReadonlyMap<string, string> = new Map([
  ["sessionId", "session_id"],
  ["transcriptPath", "transcript_path"],
  ["toolName", "tool_name"],
  ["toolArgs", "tool_input"],
  ["toolInput", "tool_input"],
  ["toolResult", "tool_response"],
]);

/** Copilot's own fields mind has no use for (left out rather than dropped with a warning each time). */
const HOST_ONLY = [
  "hookName",
  "timestamp",
  "initial_prompt",
  "initialPrompt",
  "stop_reason",
  "stopReason",
  "permissionSuggestions",
];

/** The events on which Copilot CLI shows hook context to the model (top-level `additionalContext`). */
const CONTEXT_EVENTS: ReadonlySet<EventName> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
]);

/**
 * Tool arguments, which a camelCase payload may carry as a JSON string (JSON.parse is iterative; the nesting
 * bound is then checked on the whole event, as for every input).
 */
function toolArgs(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    const parsed = JSON.parse(v);
    return isObject(parsed) ? parsed : v;
  } catch {
    return v;
  }
}

/** The host's own event name of a payload: its `hook_event_name`, its `hookName`, else `dispatch --event`. */
function eventNameOf(raw: JsonObject, given: string | undefined): string | undefined {
  for (const v of [raw.hook_event_name, raw.hookName, given]) if (typeof v === "string" && v !== "") return v;
  return undefined;
}

/** Maps Copilot CLI's hook stdin (either dialect) to a §5 event; `given` is `dispatch --event`. */
export function mapCopilotInput(raw: unknown, cwd: string, given?: string): MappedInput {
  if (!isObject(raw)) return { kind: "error", message: "stdin is not a JSON object" };
  const name = eventNameOf(raw, given);
  if (name === undefined) {
    return { kind: "error", message: "the host's hook input names no event (give dispatch --event NAME)" };
  }
  const event = FROM_COPILOT.get(name) ?? FROM_COPILOT.get(ALIASES.get(name) ?? "");
  if (event === undefined) return { kind: "ignore", event: name };
  // Entries, not assignments: a stranger's `__proto__` key stays a plain field (dropped as unknown later).
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const [k, v] of Object.entries(raw)) {
    const field = CAMEL_FIELDS.get(k) ?? (k === "tool_result" ? "tool_response" : k);
    if (seen.has(field) || HOST_ONLY.includes(field)) continue;
    seen.add(field);
    entries.push([field, v]);
  }
  const input: JsonObject = Object.fromEntries(entries);
  input.hook_event_name = event;
  if (EVENTS[event].matcher.kind === "tool") {
    Object.assign(input, toMindTool(COPILOT_TOOLS, input.tool_name, toolArgs(input.tool_input)));
  }
  const sent = { ...input };
  return { kind: "event", event, input: completeInput(event, input, raw, cwd), sent };
}

/** Maps a dispatch result to Copilot CLI's hook stdout object, or null when there is nothing to say. */
export function mapCopilotOutput(event: EventName, result: DispatchResult, hostInput: JsonObject): JsonObject | null {
  const out: JsonObject = {};
  const { messages, contexts } = resultTexts(result);
  if (contexts.length > 0) {
    if (CONTEXT_EVENTS.has(event)) out.additionalContext = contexts.join("\n\n");
    else {
      const hostEvent = COPILOT_EVENTS[event] ?? event;
      messages.push(
        droppedContext(
          HOST_DISPLAY_NAMES.copilot,
          hostEvent,
          "SessionStart, UserPromptSubmit, PreToolUse and PostToolUse",
        ),
      );
    }
  }
  switch (EVENTS[event].control) {
    case "tool-permission":
      if (result.decision === "deny" || result.decision === "ask") {
        // Copilot CLI's own ask (SPEC §8.1 r3): it asks the user; in -p mode it denies with the reason.
        out.permissionDecision = result.decision;
        out.permissionDecisionReason = result.reason ?? "Blocked by hook.";
      }
      if ((result.decision === "allow" || result.decision === "ask") && result.updatedInput) {
        const name = hostInput.tool_name ?? hostInput.toolName;
        const original = toolArgs(hostInput.tool_input ?? hostInput.toolArgs ?? hostInput.toolInput);
        // Copilot replaces the arguments whole with modifiedArgs (a `description` not repeated is gone).
        out.modifiedArgs = toHostInput(COPILOT_TOOLS, name, original, result.updatedInput);
      }
      break;
    case "permission-request":
      if (result.decision === "deny") {
        out.behavior = "deny";
        out.message = result.reason ?? "Blocked by hook.";
      } else if (result.decision === "allow") out.behavior = "allow";
      break;
    case "block":
      if (result.decision === "block") {
        out.decision = "block";
        out.reason = result.reason ?? "Blocked by hook.";
      }
      break;
    case "continuation":
      if (result.decision === "block" && result.continuationPrompt !== null) {
        out.decision = "block";
        out.reason = result.continuationPrompt;
      }
      break;
    case "none":
      break;
  }
  if (!result.continue) {
    out.continue = false;
    if (result.stopReason !== null) out.stopReason = result.stopReason;
  }
  if (messages.length > 0) out.systemMessage = messages.join("\n");
  return Object.keys(out).length > 0 ? out : null;
}

/** Copilot CLI. */
export const COPILOT: HostAdapter = {
  host: "copilot",
  events: COPILOT_EVENTS,
  mapInput: mapCopilotInput,
  mapOutput: mapCopilotOutput,
  contextEvents: CONTEXT_EVENTS,
  // Copilot CLI shows no hook systemMessage; a sessionStart hook that exits 2 has its stderr shown as a
  // warning (`! …` in the terminal, `session.warning` in -p JSON) and its stdout still read.
  warningExit: (event, result) => {
    if (!EVENTS[event].namesSkippedHooks) return null;
    const { messages } = resultTexts(result);
    return messages.length > 0 ? messages.join("\n") : null;
  },
  install: {
    program: "copilot",
    folder: (scope, env, cwd) => {
      if (scope.project !== undefined) return { path: join(scope.project, ".github"), named: false };
      if (env.COPILOT_HOME) return { path: absolute(env.COPILOT_HOME, cwd), named: true };
      return { path: join(env.HOME ?? env.USERPROFILE ?? cwd, ".copilot"), named: false };
    },
    // A repository's hooks are files of their own in .github/hooks/; the user's are in settings.json.
    file: (scope) => scope.project !== undefined ? "hooks/mind-hooks.json" : "settings.json",
    layout: "flat",
    commandField: "bash",
    // A camelCase event's payload may not name its event: the entry does.
    eventArgs: (event) => {
      const hostEvent = COPILOT_EVENTS[event] ?? event;
      return /^[a-z]/.test(hostEvent) ? ` --event ${hostEvent}` : "";
    },
    handler: (event, bash) => ({ type: "command", bash, timeoutSec: hostTimeoutSeconds(event) }),
    emptyFile: (scope) => scope.project !== undefined ? { version: 1 } : {},
    notByDefault: [],
    local: false,
    advice: (_path, project) => [
      `Copilot CLI reads hooks when a session starts: restart running sessions.`,
      ...(project
        ? [`Copilot CLI loads a repository's .github/hooks/ only in a trusted folder (copilot -p: --trust-folder).`]
        : []),
      `mind hooks still need their own trust: run mind-hooks review.`,
    ],
  },
};
