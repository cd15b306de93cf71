/**
 * Adapter mode (`dispatch --protocol claude|codex`): the two host protocols mind-hooks can stand in for,
 * and the pure mappings between a host's own hook wire format and mind's (SPEC §5 input, §9 result).
 *
 * Input: the host's hook stdin becomes a §5 event. Fields a host does not send are filled with the
 * documented placeholders below, so a host's event never fails for a field it lacks; fields mind does not
 * know are left in so that `validateEvent` drops them with `W_UNKNOWN_INPUT_FIELD`. Tool names stay as the
 * host sent them (Claude Code's `Bash`, `Edit`, `Write`, `Read`…; Codex's `Bash`, `apply_patch`…); mind's
 * aliases (SPEC §4) still let an `apply_patch` matcher see Claude Code's `Edit`.
 *
 * Output: a §9 DispatchResult becomes the host's own hook stdout (both hosts read the same JSON shape:
 * `hookSpecificOutput`, `decision`/`reason`, `continue`/`stopReason`, `systemMessage`). Nothing to say is
 * no output at all.
 * @module
 */
import type { JsonObject } from "../events/types.ts";
import { CONTEXT_EVENTS, EVENT_NAMES, type EventName, isEventName } from "../events/names.ts";
import { INPUT_SCHEMAS } from "../generated/schemas.ts";
import { PERMISSION_MODES } from "../events/common.ts";
import type { DispatchResult } from "../dispatch/result.ts";

/** A host whose hook protocol mind-hooks speaks. */
export type Host = "claude" | "codex";

/** The hosts, as `--protocol` and `install` spell them. */
export const HOSTS: readonly Host[] = ["claude", "codex"];

/** A host's display name, for messages. */
export const HOST_NAMES: Record<Host, string> = { claude: "Claude Code", codex: "Codex" };

/**
 * The events each host raises that mind also has: `install` registers exactly these. Claude Code has no
 * `Interrupt`; Codex has raised one since 0.150 (its release notes: "Interrupt hooks", an active turn
 * interrupted; input session_id, turn_id, transcript_path, cwd, model, permission_mode; output only an
 * optional systemMessage), which is mind's Interrupt. The hosts' other events (`Notification`,
 * `StopFailure`, `PostToolUseFailure`, …) have no mind counterpart and are answered with nothing.
 */
export const HOST_EVENTS: Record<Host, readonly EventName[]> = {
  claude: EVENT_NAMES.filter((e) => e !== "Interrupt"),
  codex: EVENT_NAMES,
};

/**
 * The placeholder put in a required string field the host did not send (`model` for Claude Code, a
 * `turn_id` when no `prompt_id` stands in for it, a missing `tool_use_id`, `agent_id`, `agent_type`).
 * Documented in the README ("Claude Code and Codex"); a hook can test for it.
 */
export const UNKNOWN = "unknown";

/** Result of mapping a host's stdin. */
export type MappedInput =
  | { kind: "event"; event: EventName; input: JsonObject }
  | { kind: "ignore"; event: string }
  | { kind: "error"; message: string };

const SESSION_SOURCES = ["startup", "resume", "clear", "compact"];
const TRIGGERS = ["manual", "auto"];
/** The events whose §5 input requires `field` (from the generated input schemas, so never out of step). */
function requiring(field: string): ReadonlySet<EventName> {
  return new Set(EVENT_NAMES.filter((e) => (INPUT_SCHEMAS[e].required ?? []).includes(field)));
}
const NEEDS_TURN = requiring("turn_id");
const NEEDS_MODE = requiring("permission_mode");

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Maps a host's hook input (already parsed JSON) to a §5 event. `cwd` fills a missing `cwd`.
 * An event name mind lacks is `ignore`; only a non-object or a missing `hook_event_name` is an error.
 */
export function mapHostInput(host: Host, raw: unknown, cwd: string): MappedInput {
  if (!isObject(raw)) return { kind: "error", message: "stdin is not a JSON object" };
  const name = raw.hook_event_name;
  if (typeof name !== "string" || name === "") {
    return { kind: "error", message: "the host's hook input has no hook_event_name" };
  }
  if (!isEventName(name) || !HOST_EVENTS[host].includes(name)) return { kind: "ignore", event: name };
  const input: JsonObject = { ...raw };
  const fill = (key: string, value: unknown) => {
    if (input[key] === undefined) input[key] = value;
  };
  fill("session_id", UNKNOWN);
  fill("cwd", cwd);
  if (name !== "SessionEnd") fill("model", UNKNOWN);
  if (NEEDS_TURN.has(name)) {
    // Claude Code has no turn id, but its per-prompt `prompt_id` names the same thing.
    fill("turn_id", typeof raw.prompt_id === "string" && raw.prompt_id !== "" ? raw.prompt_id : UNKNOWN);
  }
  if (NEEDS_MODE.has(name) && !(PERMISSION_MODES as readonly unknown[]).includes(input.permission_mode)) {
    // A mode mind does not know (or none, as Claude Code's SessionStart sends) must not fail the event.
    input.permission_mode = "default";
  }
  switch (name) {
    case "SessionStart":
      if (!SESSION_SOURCES.includes(input.source as string)) input.source = "startup";
      break;
    case "SessionEnd":
      fill("reason", "other");
      break;
    case "UserPromptSubmit":
      fill("prompt", "");
      break;
    case "PreToolUse":
    case "PermissionRequest":
    case "PostToolUse":
      if (!isObject(input.tool_input)) input.tool_input = {};
      if (name !== "PermissionRequest") fill("tool_use_id", UNKNOWN);
      if (name === "PostToolUse") fill("tool_response", null);
      break;
    case "PreCompact":
    case "PostCompact":
      if (!TRIGGERS.includes(input.trigger as string)) input.trigger = "auto";
      break;
    case "SubagentStart":
    case "SubagentStop":
      fill("agent_id", UNKNOWN);
      fill("agent_type", UNKNOWN);
      if (name === "SubagentStop") {
        fill("agent_transcript_path", null);
        fill("stop_hook_active", false);
        fill("last_assistant_message", null);
      }
      break;
    case "Stop":
      fill("stop_hook_active", false);
      fill("last_assistant_message", null);
      break;
  }
  return { kind: "event", event: name, input };
}

/**
 * Events on which the host shows `hookSpecificOutput.additionalContext` to the model: mind's context
 * events. Async results are only taken on these, so their context is never consumed by an event that
 * cannot deliver it.
 */
export const CONTEXT_CAPABLE: ReadonlySet<EventName> = CONTEXT_EVENTS;

/**
 * Maps a dispatch result to the host's hook stdout object, or null when there is nothing to say.
 * `hostInput` is the host's own event (the original `tool_input` for Claude Code's whole-object rewrite).
 */
export function mapResultToHost(
  host: Host,
  event: EventName,
  result: DispatchResult,
  hostInput: JsonObject,
): JsonObject | null {
  const out: JsonObject = {};
  const hso: JsonObject = { hookEventName: event };
  const messages = [...result.systemMessages];
  const contexts = [...result.additionalContext];
  for (const a of result.asyncResults) {
    if (a.systemMessage) messages.push(a.systemMessage);
    if (a.additionalContext) contexts.push(a.additionalContext);
    if (a.status === "failed" && a.reason) messages.push(`async hook ${a.key} failed: ${a.reason}`);
  }
  if (contexts.length > 0 && CONTEXT_CAPABLE.has(event)) hso.additionalContext = contexts.join("\n\n");

  switch (event) {
    case "PreToolUse":
      if (result.decision === "deny") {
        hso.permissionDecision = "deny";
        hso.permissionDecisionReason = result.reason ?? "Blocked by hook.";
      } else if (result.decision === "allow" && result.updatedInput) {
        if (host === "claude") {
          // mind's allow means "rewrite", not "approve": Claude Code's "allow" would also skip its permission
          // rules, so the rewrite goes out without a decision and the host still checks the new call. Claude
          // Code replaces tool_input whole, and a mind hook may return only the fields it changed.
          hso.updatedInput = {
            ...(isObject(hostInput.tool_input) ? hostInput.tool_input : {}),
            ...result.updatedInput,
          };
        } else {
          // Codex, like mind, takes a rewrite only as allow + updatedInput.
          hso.permissionDecision = "allow";
          hso.updatedInput = result.updatedInput;
        }
      }
      break;
    case "PermissionRequest":
      if (result.decision === "deny") {
        hso.decision = { behavior: "deny", message: result.reason ?? "Blocked by hook." };
      } else if (result.decision === "allow") {
        hso.decision = { behavior: "allow" };
      }
      break;
    case "PostToolUse":
      if (result.decision === "block") {
        out.decision = "block";
        out.reason = result.reason ?? "Blocked by hook.";
      } else if (result.decision === "stop" && host === "codex" && result.reason !== null) {
        // Codex reads a stop's model feedback from `reason` (else stopReason), as mind does (§8);
        // Claude Code ends the turn on continue: false and has no such feedback field.
        out.reason = result.reason;
      }
      break;
    case "UserPromptSubmit":
      if (result.decision === "block") {
        out.decision = "block";
        out.reason = result.reason ?? "Blocked by hook.";
      }
      break;
    case "Stop":
    case "SubagentStop":
      if (result.decision === "block" && result.continuationPrompt !== null) {
        out.decision = "block";
        out.reason = result.continuationPrompt;
      }
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
