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
import { EVENT_NAMES, type EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { HOST_NAMES as HOSTS_LIST, HOST_UNKNOWN, type HostName } from "../events/types.ts";
import { INPUT_SCHEMAS } from "../generated/schemas.ts";
import { PERMISSION_MODES } from "../events/common.ts";
import { type JsonSchema, validateJson } from "../schema/validate.ts";
import type { DispatchResult } from "../schema/result.ts";
import type { HostHints } from "../dispatch/dispatch.ts";

/** Hints that add nothing (a dispatch fills them in). */
export function noHostHints(): HostHints {
  return { permissionDecision: null, permissionDecisionReason: null, wholeRewrite: false };
}

/** A host whose hook protocol mind-hooks speaks. */
export type Host = HostName;

/** The hosts, as `--protocol` and `install` spell them. */
export const HOSTS: readonly Host[] = HOSTS_LIST;

/** A host's display name, for messages. */
export const HOST_NAMES: Record<Host, string> = { claude: "Claude Code", codex: "Codex" };

/** One value per host. */
function perHost<T>(make: (host: Host) => T): Record<Host, T> {
  return Object.fromEntries(HOSTS_LIST.map((host) => [host, make(host)])) as unknown as Record<Host, T>;
}

/**
 * The events each host raises that mind also has (each event's `hosts` fact): `install` registers exactly
 * these. Neither host raises mind's `Interrupt`; Claude Code's other events (`Notification`,
 * `StopFailure`, `PostToolUseFailure`, …) have no mind counterpart and are answered with nothing if they
 * arrive anyway.
 */
export const HOST_EVENTS: Record<Host, readonly EventName[]> = perHost((host) =>
  EVENT_NAMES.filter((e) => EVENTS[e].hosts[host] !== null)
);

/** The mind event a host's own event name stands for, per host. */
const FROM_HOST_EVENT: Record<Host, ReadonlyMap<string, EventName>> = perHost((host) =>
  new Map(EVENT_NAMES.flatMap((e) => {
    const m = EVENTS[e].hosts[host];
    return m ? [[m.event, e] as const] : [];
  }))
);

/**
 * The placeholder put in a required string field the host did not send (`model` for Claude Code, a
 * `turn_id` when no `prompt_id` stands in for it, a missing `tool_use_id`, `agent_id`, `agent_type`).
 * Documented in the README ("Claude Code and Codex"); a hook can test for it.
 */
export const UNKNOWN = HOST_UNKNOWN;

/** Result of mapping a host's stdin. */
export type MappedInput =
  | { kind: "event"; event: EventName; input: JsonObject }
  | { kind: "ignore"; event: string }
  | { kind: "error"; message: string };

/** The events whose §5 input requires `field` (from the generated input schemas, so never out of step). */
function requiring(field: string): ReadonlySet<EventName> {
  return new Set(EVENT_NAMES.filter((e) => (INPUT_SCHEMAS[e].required ?? []).includes(field)));
}
const NEEDS_TURN = requiring("turn_id");
const NEEDS_MODE = requiring("permission_mode");
const NEEDS_MODEL = requiring("model");

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
  const event = FROM_HOST_EVENT[host].get(name);
  if (event === undefined) return { kind: "ignore", event: name };
  const input: JsonObject = { ...raw, hook_event_name: event };
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
  // The event's own placeholders, for a field that is missing or in a form mind does not accept.
  const props = (INPUT_SCHEMAS[event] as JsonSchema).properties ?? {};
  for (const [field, placeholder] of Object.entries(EVENTS[event].hostPlaceholders)) {
    const schema = Object.hasOwn(props, field) ? props[field] : undefined;
    if (input[field] === undefined || (schema && validateJson(schema, input[field]) !== null)) {
      input[field] = placeholder;
    }
  }
  return { kind: "event", event, input };
}

/**
 * Events on which the host shows `hookSpecificOutput.additionalContext` to the model: mind's context
 * events. Async results are only taken on these, so their context is never consumed by an event that
 * cannot deliver it.
 */
export const CONTEXT_CAPABLE: ReadonlySet<EventName> = new Set(
  EVENT_NAMES.filter((e) => EVENTS[e].contextLimit === "context"),
);

/**
 * A Claude-dialect hook's own `allow` or `ask` goes to Claude Code as its decision (SPEC §8.1): what
 * the hook meant there, with Claude Code's permission rules applying as they would without mind.
 */
function forwardDecision(hso: JsonObject, hints: HostHints): void {
  if (hints.permissionDecision === null) return;
  hso.permissionDecision = hints.permissionDecision;
  if (hints.permissionDecisionReason !== null) hso.permissionDecisionReason = hints.permissionDecisionReason;
}

/**
 * Maps a dispatch result to the host's hook stdout object, or null when there is nothing to say.
 * `hostInput` is the host's own event (the original `tool_input` for Claude Code's whole-object rewrite).
 */
export function mapResultToHost(
  host: Host,
  event: EventName,
  result: DispatchResult,
  hostInput: JsonObject,
  hints: HostHints = noHostHints(),
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

  switch (EVENTS[event].control) {
    case "tool-permission":
      if (result.decision === "deny") {
        hso.permissionDecision = "deny";
        hso.permissionDecisionReason = result.reason ?? "Blocked by hook.";
      } else if (result.decision === "allow" && result.updatedInput) {
        if (host === "claude") {
          // mind's allow means "rewrite", not "approve": Claude Code's "allow" would also skip its permission
          // rules, so the rewrite goes out without a decision and the host still checks the new call. Claude
          // Code replaces tool_input whole, and a mind hook may return only the fields it changed — a
          // Claude-dialect hook's rewrite already is the whole input (SPEC §8.1).
          hso.updatedInput = hints.wholeRewrite ? result.updatedInput : {
            ...(isObject(hostInput.tool_input) ? hostInput.tool_input : {}),
            ...result.updatedInput,
          };
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
