/**
 * Gemini CLI (`dispatch --protocol gemini`), as measured on `@google/gemini-cli` 0.61.0 against a loopback
 * mock model (README: "Gemini CLI and Copilot CLI").
 *
 * Input: `BeforeTool`/`AfterTool`/`BeforeAgent`/`AfterAgent`/`PreCompress` and the session events arrive as
 * mind's `PreToolUse`/`PostToolUse`/`UserPromptSubmit`/`Stop`/`PreCompact`/`SessionStart`/`SessionEnd`
 * ({@link GEMINI_EVENTS}). Gemini's tools reach mind hooks under the names they are written for
 * (`run_shell_command` → `Bash`, `replace` → `Edit`, `write_file` → `Write`, `read_file` → `Read`, an MCP
 * tool → `mcp__<server>__<tool>`); AfterAgent's `prompt_response` becomes `last_assistant_message`. An
 * AfterTool of a tool that failed (`tool_response.error`) is not mind's PostToolUse (it runs after a
 * successful call only) and is answered with nothing. Gemini sends no `permission_mode`, model, turn or
 * tool-use id: the documented placeholders stand in.
 *
 * Output: a deny is top-level `decision: "deny"` + `reason` (on BeforeTool, AfterTool, BeforeAgent and, as
 * the continuation prompt, AfterAgent); an ask is Gemini's own `decision: "ask"` + `reason`; a rewrite is `hookSpecificOutput.tool_input`, the complete arguments
 * in Gemini's parameter names; context goes in `hookSpecificOutput.additionalContext` on SessionStart,
 * BeforeAgent and AfterTool, the only events that show it (elsewhere a system message says it was dropped).
 * @module
 */
import { EVENT_NAMES, type EventName } from "../events/names.ts";
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
} from "./host.ts";
import { HOST_DISPLAY_NAMES } from "./host_names.ts";
import { GEMINI_HOOK_EVENTS, GEMINI_TOOLS } from "../dialect/gemini.ts";
import { hostEventNames } from "../dialect/common.ts";

/** The Gemini dialect's event map (src/dialect/gemini.ts) by mind event: one source for both directions. */
const GEMINI_HOST_NAMES = hostEventNames(GEMINI_HOOK_EVENTS);

/** How Gemini CLI raises mind's events (it has no approval, tool-failure, compaction-end, subagent or interrupt event). */
export const GEMINI_EVENTS: HostEventMap = Object.freeze(
  Object.fromEntries(EVENT_NAMES.map((e) => [e, GEMINI_HOST_NAMES.get(e) ?? null])) as Record<EventName, string | null>,
);

const FROM_GEMINI = eventsByHostName(GEMINI_EVENTS);

/** Gemini CLI's built-in tools by Claude Code's names: the Gemini dialect's table (src/dialect/gemini.ts). */
export { GEMINI_TOOLS };

/** Gemini's own input fields mind has no use for (left out rather than dropped with a warning each time). */
const HOST_ONLY = ["timestamp", "mcp_context", "original_request_name"];

/** The events on which Gemini CLI shows hook context to the model. */
const CONTEXT_EVENTS: ReadonlySet<EventName> = new Set(["SessionStart", "UserPromptSubmit", "PostToolUse"]);

/** Maps Gemini CLI's hook stdin to a §5 event. */
export function mapGeminiInput(raw: unknown, cwd: string): MappedInput {
  if (!isObject(raw)) return { kind: "error", message: "stdin is not a JSON object" };
  const name = raw.hook_event_name;
  if (typeof name !== "string" || name === "") {
    return { kind: "error", message: "the host's hook input has no hook_event_name" };
  }
  const event = FROM_GEMINI.get(name);
  if (event === undefined) return { kind: "ignore", event: name };
  const input: JsonObject = { ...raw, hook_event_name: event };
  for (const k of HOST_ONLY) delete input[k];
  if (EVENTS[event].matcher.kind === "tool") {
    if (event === "PostToolUse" && isObject(raw.tool_response) && raw.tool_response.error) {
      // The tool failed: mind's PostToolUse runs after a successful call only (SPEC §5).
      return { kind: "ignore", event: name };
    }
    Object.assign(input, toMindTool(GEMINI_TOOLS, raw.tool_name, raw.tool_input));
    const mcp = isObject(raw.mcp_context) ? raw.mcp_context : null;
    if (mcp && typeof mcp.server_name === "string" && typeof mcp.tool_name === "string") {
      // Claude Code's and Codex's spelling, which mind's MCP matchers (`mcp__server__.*`) are written for.
      input.tool_name = `mcp__${mcp.server_name}__${mcp.tool_name}`;
    }
  }
  if (event === "Stop") {
    if (typeof raw.prompt_response === "string") input.last_assistant_message = raw.prompt_response;
    delete input.prompt;
    delete input.prompt_response;
  }
  const sent = { ...input };
  return { kind: "event", event, input: completeInput(event, input, raw, cwd), sent };
}

/** Maps a dispatch result to Gemini CLI's hook stdout object, or null when there is nothing to say. */
export function mapGeminiOutput(event: EventName, result: DispatchResult, hostInput: JsonObject): JsonObject | null {
  const hostEvent = GEMINI_EVENTS[event] ?? event;
  const out: JsonObject = {};
  const hso: JsonObject = { hookEventName: hostEvent };
  const { messages, contexts } = resultTexts(result);
  if (contexts.length > 0) {
    if (CONTEXT_EVENTS.has(event)) hso.additionalContext = contexts.join("\n\n");
    else messages.push(droppedContext(HOST_DISPLAY_NAMES.gemini, hostEvent, "SessionStart, BeforeAgent and AfterTool"));
  }
  const deny = (reason: string | null) => {
    out.decision = "deny";
    out.reason = reason ?? "Blocked by hook.";
  };
  switch (EVENTS[event].control) {
    case "tool-permission":
      if (result.decision === "deny") deny(result.reason);
      else if (result.decision === "ask") {
        // Gemini CLI's own ask (SPEC §8.1 r3): it asks the user; headless, the call does not run.
        out.decision = "ask";
        out.reason = result.reason ?? "Blocked by hook.";
      }
      if ((result.decision === "allow" || result.decision === "ask") && result.updatedInput) {
        // Gemini runs the tool with these arguments instead of the model's (keys left out are dropped).
        hso.tool_input = toHostInput(GEMINI_TOOLS, hostInput.tool_name, hostInput.tool_input, result.updatedInput);
      }
      break;
    case "block":
      if (result.decision === "block") deny(result.reason);
      break;
    case "continuation":
      // AfterAgent's deny + reason sends the reason as a new user turn.
      if (result.decision === "block" && result.continuationPrompt !== null) deny(result.continuationPrompt);
      break;
    case "permission-request":
    case "none":
      break;
  }
  if (!result.continue) {
    out.continue = false;
    // Gemini shows a stop's reason to the model (AfterTool) and the user: mind's feedback first (§8).
    const why = EVENTS[event].control === "block" ? result.reason ?? result.stopReason : result.stopReason;
    if (why !== null) out.stopReason = why;
  }
  if (messages.length > 0) out.systemMessage = messages.join("\n");
  if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
  return Object.keys(out).length > 0 ? out : null;
}

/** Gemini CLI. */
export const GEMINI: HostAdapter = {
  host: "gemini",
  events: GEMINI_EVENTS,
  mapInput: (raw, cwd) => mapGeminiInput(raw, cwd),
  mapOutput: mapGeminiOutput,
  contextEvents: CONTEXT_EVENTS,
  install: {
    program: "gemini",
    folder: (scope, env, cwd) => {
      if (scope.project !== undefined) return { path: join(scope.project, ".gemini"), named: false };
      // GEMINI_CLI_HOME stands in for the home folder; .gemini/ under it is still the CLI's own.
      const home = env.GEMINI_CLI_HOME ? absolute(env.GEMINI_CLI_HOME, cwd) : env.HOME ?? env.USERPROFILE ?? cwd;
      return { path: join(home, ".gemini"), named: false };
    },
    file: () => "settings.json",
    layout: "groups",
    commandField: "command",
    // `name` shows in Gemini's warnings and trust list; `timeout` is in milliseconds.
    handler: (event, command) => ({
      type: "command",
      command,
      name: "mind-hooks",
      timeout: hostTimeoutSeconds(event) * 1000,
    }),
    emptyFile: () => ({}),
    // PreCompress fires before every model request (trigger "auto"), compressing or not.
    notByDefault: ["PreCompact"],
    local: false,
    advice: (_path, project) => [
      `Gemini CLI reads hooks when it starts: restart running sessions (/hooks lists them).`,
      ...(project
        ? [
          `Gemini CLI runs a project's hooks only in a trusted folder, and warns once when it first sees them.`,
        ]
        : []),
      `mind hooks still need their own trust: run mind-hooks review.`,
    ],
  },
};
