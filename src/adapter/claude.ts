/**
 * Claude Code (`dispatch --protocol claude`), and the Claude hook wire format it shares with Codex
 * (`codex.ts` reuses both mappings here).
 *
 * Input: the host's hook stdin becomes a §5 event. Fields a host does not send are filled with the
 * documented placeholders (`completeInput`), so a host's event never fails for a field it lacks; fields mind does not
 * know are left in so that `validateEvent` drops them with `W_UNKNOWN_INPUT_FIELD`. Tool names stay as the
 * host sent them (Claude Code's `Bash`, `Edit`, `Write`, `Read`…; Codex's `Bash`, `apply_patch`…); mind's
 * aliases (SPEC §4) still let an `apply_patch` matcher see Claude Code's `Edit`.
 *
 * Output: a §9 DispatchResult becomes the host's own hook stdout (both hosts read the same JSON shape:
 * `hookSpecificOutput`, `decision`/`reason`, `continue`/`stopReason`, `systemMessage`). Nothing to say is
 * no output at all.
 * @module
 */
import { EVENT_NAMES, type EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { DispatchResult } from "../schema/result.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { absolute, join } from "../util/paths.ts";
import {
  askAsDenyReason,
  completeInput,
  eventsByHostName,
  type HostAdapter,
  type HostEventMap,
  type InstallSpec,
  type MappedInput,
  noHostHints,
  resultTexts,
} from "./host.ts";
import type { HostHints } from "../engine/types.ts";

/** How Claude Code raises mind's events: under mind's own names; it has no Interrupt. */
export const CLAUDE_EVENTS: HostEventMap = Object.freeze({
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  UserPromptSubmit: "UserPromptSubmit",
  PreToolUse: "PreToolUse",
  PermissionRequest: "PermissionRequest",
  PostToolUse: "PostToolUse",
  PostToolUseFailure: "PostToolUseFailure",
  PreCompact: "PreCompact",
  PostCompact: "PostCompact",
  SubagentStart: "SubagentStart",
  SubagentStop: "SubagentStop",
  Stop: "Stop",
  Interrupt: null,
  Notification: "Notification",
});

const FROM_CLAUDE = eventsByHostName(CLAUDE_EVENTS);

/**
 * Events on which Claude Code and Codex show `hookSpecificOutput.additionalContext` to the model: mind's
 * context events. Async results are only taken on these, so their context is never consumed by an event that
 * cannot deliver it.
 */
export const CLAUDE_CONTEXT_EVENTS: ReadonlySet<EventName> = new Set(
  EVENT_NAMES.filter((e) => EVENTS[e].contextLimit === "context"),
);

/**
 * Maps a Claude-format host's hook input (already parsed JSON) to a §5 event: `fromHost` is the host's
 * event map reversed (`eventsByHostName`), `cwd` fills a missing `cwd`. An event name the host's map
 * lacks is `ignore`; only a non-object or a missing `hook_event_name` is an error.
 */
export function mapClaudeFormatInput(
  fromHost: ReadonlyMap<string, EventName>,
  raw: unknown,
  cwd: string,
): MappedInput {
  if (!isObject(raw)) return { kind: "error", message: "stdin is not a JSON object" };
  const name = raw.hook_event_name;
  if (typeof name !== "string" || name === "") {
    return { kind: "error", message: "the host's hook input has no hook_event_name" };
  }
  const event = fromHost.get(name);
  if (event === undefined) return { kind: "ignore", event: name };
  const input: JsonObject = { ...raw, hook_event_name: event };
  const sent = { ...input };
  return { kind: "event", event, input: completeInput(event, input, raw, cwd), sent };
}

/**
 * A Claude-dialect hook's own `allow` goes to Claude Code as its decision (SPEC §8.1): what the hook
 * meant there, with Claude Code's permission rules applying as they would without mind. (Its `ask` is
 * mind's own `ask` decision since r3.)
 */
function forwardDecision(hso: JsonObject, hints: HostHints): void {
  if (hints.permissionDecision === null) return;
  hso.permissionDecision = hints.permissionDecision;
  if (hints.permissionDecisionReason !== null) hso.permissionDecisionReason = hints.permissionDecisionReason;
}

/**
 * A rewrite as Claude Code takes it: the whole tool input. A Claude-dialect hook's rewrite already is
 * (SPEC §8.1); a mind hook's may hold only the fields it changed, put over the original input.
 */
function claudeRewrite(updated: JsonObject, hostInput: JsonObject, hints: HostHints): JsonObject {
  if (hints.wholeRewrite) return updated;
  return { ...(isObject(hostInput.tool_input) ? hostInput.tool_input : {}), ...updated };
}

/**
 * Maps a dispatch result to a Claude-format host's hook stdout object, or null when there is nothing to
 * say. `hostInput` is the host's own event (the original `tool_input` for Claude Code's whole-object rewrite).
 */
export function mapClaudeFormatOutput(
  host: "claude" | "codex",
  event: EventName,
  result: DispatchResult,
  hostInput: JsonObject,
  hints: HostHints = noHostHints(),
): JsonObject | null {
  const out: JsonObject = {};
  const hso: JsonObject = { hookEventName: event };
  const { messages, contexts } = resultTexts(result);
  if (contexts.length > 0 && CLAUDE_CONTEXT_EVENTS.has(event)) hso.additionalContext = contexts.join("\n\n");

  switch (EVENTS[event].control) {
    case "tool-permission":
      if (result.decision === "deny" || (result.decision === "ask" && host === "codex")) {
        // Codex has no ask (it fails a hook that answers one): the ask reaches it as a deny that says so.
        hso.permissionDecision = "deny";
        hso.permissionDecisionReason = result.decision === "ask"
          ? askAsDenyReason(result.reason)
          : result.reason ?? "Blocked by hook.";
      } else if (result.decision === "ask") {
        // Claude Code asks (and, without a terminal, refuses with the reason); the hook's own reason, or none
        // so that Claude Code words its own (SPEC §8.1 r3).
        hso.permissionDecision = "ask";
        const own = hints.permissionDecision === "ask" ? hints.permissionDecisionReason : result.reason;
        if (own !== null) hso.permissionDecisionReason = own;
        if (result.updatedInput) hso.updatedInput = claudeRewrite(result.updatedInput, hostInput, hints);
      } else if (result.decision === "allow" && result.updatedInput) {
        if (host === "claude") {
          // mind's allow means "rewrite", not "approve": Claude Code's "allow" would also skip its permission
          // rules, so the rewrite goes out without a decision and the host still checks the new call. Claude
          // Code replaces tool_input whole, and a mind hook may return only the fields it changed — a
          // Claude-dialect hook's rewrite already is the whole input (SPEC §8.1).
          hso.updatedInput = claudeRewrite(result.updatedInput, hostInput, hints);
          forwardDecision(hso, hints);
        } else {
          // Codex, like mind, takes a rewrite only as allow + updatedInput.
          hso.permissionDecision = "allow";
          hso.updatedInput = result.updatedInput;
        }
      } else if (host === "claude") forwardDecision(hso, hints);
      break;
    case "permission-request":
      if (result.decision === "deny") {
        hso.decision = { behavior: "deny", message: result.reason ?? "Blocked by hook." };
      } else if (result.decision === "allow") {
        hso.decision = { behavior: "allow" };
      }
      break;
    case "block":
      if (result.decision === "block") {
        out.decision = "block";
        out.reason = result.reason ?? "Blocked by hook.";
      } else if (result.decision === "stop" && host === "codex" && result.reason !== null) {
        // Codex reads a stop's model feedback from `reason` (else stopReason), as mind does (§8);
        // Claude Code ends the turn on continue: false and has no such feedback field.
        out.reason = result.reason;
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
  if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
  return Object.keys(out).length > 0 ? out : null;
}

const install: InstallSpec = {
  program: "claude",
  folder: (scope, env, cwd) => {
    if (scope.project !== undefined) return { path: join(scope.project, ".claude"), named: false };
    if (env.CLAUDE_CONFIG_DIR) return { path: absolute(env.CLAUDE_CONFIG_DIR, cwd), named: true };
    return { path: join(env.HOME ?? env.USERPROFILE ?? cwd, ".claude"), named: false };
  },
  file: (scope) => scope.project !== undefined && scope.local ? "settings.local.json" : "settings.json",
  layout: "groups",
  commandField: "command",
  handler: (_event, command) => ({ type: "command", command }),
  emptyFile: () => ({}),
  notByDefault: [],
  local: true,
  advice: (_path, project) => [
    `Claude Code reads hooks when a session starts: restart running sessions (/hooks lists them).`,
    ...(project ? [`Claude Code asks to trust a project folder before running its hooks.`] : []),
    `mind hooks still need their own trust: run mind-hooks review.`,
  ],
};

/** Claude Code. */
export const CLAUDE: HostAdapter = {
  host: "claude",
  events: CLAUDE_EVENTS,
  mapInput: (raw, cwd) => mapClaudeFormatInput(FROM_CLAUDE, raw, cwd),
  mapOutput: (event, result, hostInput, hints) => mapClaudeFormatOutput("claude", event, result, hostInput, hints),
  contextEvents: CLAUDE_CONTEXT_EVENTS,
  install,
};
