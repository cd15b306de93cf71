/**
 * Reading the event a host sends (SPEC §5): a JSON object with a known
 * `hook_event_name`, every required field of that event with the right type.
 * Unknown fields are dropped with `W_UNKNOWN_INPUT_FIELD`; a missing or null
 * `transcript_path` is filled with the session transcript path (§11).
 * @module
 */
import { type EventName, eventSuggestion, isEventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { JsonObject } from "../util/json.ts";
import { INPUT_SCHEMAS } from "../generated/schemas.ts";
import { formatIssue, type JsonSchema, type SchemaIssue, validateAll } from "../schema/validate.ts";
import { type Warning, warning } from "../config/warnings.ts";
import { toCompatTool } from "../matching/tool_names.ts";
import { formatValuePath, TOO_DEEP, tooDeepPath } from "../util/nesting.ts";
import { oneLine, sanitize } from "../util/terminal_text.ts";
import { closest } from "../util/suggest.ts";
import type { EventFacts } from "../events/types.ts";
import type { DispatchResult } from "../schema/result.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { emptyResult } from "./finish.ts";
import type { EventInput, Prepared } from "./types.ts";
import type { DispatchTrace } from "./trace.ts";

/** Parses stdin text as an event; an error is one line naming the problem. */
export function parseEventText(
  text: string,
): Result<unknown> {
  if (text.trim() === "") return fail("stdin is empty: expected one event JSON object");
  try {
    return ok(JSON.parse(text));
  } catch (e) {
    // V8's JSON.parse errors quote a piece of the input, which may hold line breaks or control characters.
    return fail(`stdin is not valid JSON: ${sanitize(oneLine(e instanceof Error ? e.message : String(e), 300))}`);
  }
}

/**
 * What validating an event gave: the event, or the one problem. An event refused for its nesting
 * (SPEC §15) that names a known event also says which, so a tool call can be denied rather than let
 * through unseen by its guards (src/engine/dispatch.ts).
 */
export type EventValidation =
  | { ok: true; value: EventInput }
  | { ok: false; error: string; refused?: { event: EventName; value: JsonObject } };

/** Validates a parsed event. `fillTranscript` supplies §11's path when `transcript_path` is missing. */
export async function validateEvent(
  value: unknown,
  fillTranscript: (sessionId: string, agentId?: string) => Promise<string | null>,
  hostFields?: JsonObject,
): Promise<EventValidation> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "the event must be a JSON object" };
  }
  // Hooks, expansion and logging would otherwise meet this depth in recursive code (SPEC §15).
  const deep = tooDeepPath(value);
  if (deep) {
    const name = (value as JsonObject).hook_event_name;
    const reason = `the event ${TOO_DEEP} (at ${formatValuePath(deep)})`;
    return {
      ok: false,
      error: reason,
      ...(isEventName(name) ? { refused: { event: name, value: value as JsonObject } } : {}),
    };
  }
  const obj = value as JsonObject;
  const name = obj.hook_event_name;
  if (name === undefined) {
    return { ok: false, error: "hook_event_name is required" };
  }
  if (!isEventName(name)) {
    return {
      ok: false,
      error: `unknown event ${JSON.stringify(name)} in hook_event_name${
        typeof name === "string" ? eventSuggestion(name) : ""
      }`,
    };
  }
  const schema = INPUT_SCHEMAS[name] as JsonSchema;
  const known = knownFields(name, obj, schema);
  const { input, typos } = known;
  // Adapter mode: the host's fields are its own, not a mistake to warn about on every event (issue 33).
  const warnings = hostFields === undefined ? known.warnings : [];
  const transcriptFilled = await fillTranscriptPath(name, input, fillTranscript);
  const issues = validateAll(schema, input, MAX_COUNTED);
  if (issues.length > 0) {
    // Every problem at once: a host author fixes the event in one go, not one field per try.
    return { ok: false, error: `invalid ${name} event: ${issueList(issues, typos)}` };
  }
  const hookInput = hostFields === undefined ? undefined : hostHookInput(name, input, hostFields, transcriptFilled);
  return { ok: true, value: { event: name, input, warnings, transcriptFilled, ...(hookInput ? { hookInput } : {}) } };
}

/** The event's known fields; each unknown one dropped with `W_UNKNOWN_INPUT_FIELD`, and the field it likely meant. */
function knownFields(
  name: EventName,
  obj: JsonObject,
  schema: JsonSchema,
): { input: JsonObject; warnings: Warning[]; typos: Map<string, string> } {
  const props = schema.properties ?? {};
  const warnings: Warning[] = [];
  const input: JsonObject = {};
  /** Dropped fields by the known field each most likely meant (`tool_nmae` → `tool_name`). */
  const typos = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    if (Object.hasOwn(props, k)) {
      input[k] = v;
      continue;
    }
    const meant = closest(k, Object.keys(props));
    if (meant !== null && !Object.hasOwn(obj, meant)) typos.set(meant, k);
    warnings.push(
      warning(
        "W_UNKNOWN_INPUT_FIELD",
        `unknown ${name} input field ${JSON.stringify(k)} dropped${
          meant ? `; did you mean ${JSON.stringify(meant)}?` : ""
        }`,
        "stdin",
      ),
    );
  }
  return { input, warnings, typos };
}

/** Fills a missing or null `transcript_path` (§11) in place; true when the engine filled it. */
async function fillTranscriptPath(
  name: EventName,
  input: JsonObject,
  fillTranscript: (sessionId: string, agentId?: string) => Promise<string | null>,
): Promise<boolean> {
  if (Object.hasOwn(input, "transcript_path") && input.transcript_path !== null) return false;
  if (typeof input.session_id !== "string") return false;
  // An event raised inside a subagent points at the subagent's own transcript (§11); the
  // Subagent* events themselves are raised by the parent and point at the parent's.
  const inSubagent = typeof input.agent_id === "string" && EVENTS[name].subagentTranscript;
  const filled = await fillTranscript(input.session_id, inSubagent ? input.agent_id as string : undefined);
  input.transcript_path = filled;
  // Without a home (SPEC §1 r3) there is no transcript to point at: the path stays null.
  return filled !== null;
}

/** Problems shown in one error; the rest are counted (up to {@link MAX_COUNTED}). */
const MAX_ISSUES = 20;
/** Problems looked for at most: an event may hold millions of wrong values. */
const MAX_COUNTED = 100;

/** `tool_name is required ("tool_nmae" was given); cwd: expected string, got integer 3`. */
function issueList(issues: readonly SchemaIssue[], typos: ReadonlyMap<string, string>): string {
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => {
    const typo = issue.message === "is required" ? typos.get(issue.path) : undefined;
    return formatIssue(issue) + (typo === undefined ? "" : ` (${JSON.stringify(typo)} was given)`);
  });
  const more = issues.length - MAX_ISSUES;
  if (more > 0) lines.push(`${issues.length >= MAX_COUNTED ? "at least " : ""}${more} more problems`);
  return lines.join("; ");
}

/**
 * What a hook reads in adapter mode (issue 33): the host's event as it sent it — a field mind does not
 * know passes through unchanged (the whole event was checked for depth), and nothing the host did not
 * send is added, but the transcript path mind filled (§5) and, on tool events that carry them, the §5
 * tool form of `tool_name` and `tool_input`. The placeholders the engine reads itself (`model`,
 * `turn_id`, … when the host sends none) never reach a hook.
 */
export function hostHookInput(
  event: EventName,
  input: JsonObject,
  sent: JsonObject,
  transcriptFilled: boolean,
): JsonObject {
  const out: JsonObject = { ...sent, hook_event_name: event };
  if (transcriptFilled || Object.hasOwn(sent, "transcript_path")) out.transcript_path = input.transcript_path;
  if (EVENTS[event].matcher.kind === "tool" && Object.hasOwn(sent, "tool_name")) {
    const compat = hookInputFor(event, input);
    out.tool_name = compat.tool_name;
    if (Object.hasOwn(sent, "tool_input")) out.tool_input = compat.tool_input;
  }
  return out;
}

/** The object a handler reads on stdin: tool events in the compatibility form (SPEC §5). */
export function hookInputFor(event: EventName, input: JsonObject): JsonObject {
  if (EVENTS[event].matcher.kind !== "tool") return input;
  const compat = toCompatTool(
    String(input.tool_name),
    input.tool_input as JsonObject,
  );
  return {
    ...input,
    tool_name: compat.tool_name,
    tool_input: compat.tool_input,
  };
}

/** The usual `fillTranscript` for {@link validateEvent}: §11's path under `home` (loaded only when needed). */
export function transcriptFiller(home: string | null): (sessionId: string, agentId?: string) => Promise<string | null> {
  return async (sessionId, agentId) => {
    if (home === null) return null;
    const t = await import("../session/transcript.ts");
    return agentId === undefined
      ? await t.transcriptPath(home, sessionId)
      : await t.subagentTranscriptPath(home, sessionId, agentId);
  };
}

/**
 * The input stage of a dispatch: the event validated (SPEC §5), its transcript path filled under
 * `home`. A failure is the outcome the dispatch answers with: the input's one problem, or — for a
 * tool event refused for its nesting — the refusal (recorded in `trace` when one is kept).
 */
export async function readInput(
  raw: unknown,
  home: string | null,
  trace?: DispatchTrace,
  hostFields?: JsonObject,
): Promise<Result<EventInput, Prepared & { kind: "invalid" | "answered" }>> {
  const validated = await validateEvent(raw, transcriptFiller(home), hostFields);
  if (validated.ok) return ok(validated.value);
  const refused = validated.refused;
  if (!refused || !gatesToolCall(EVENTS[refused.event])) return fail({ kind: "invalid", error: validated.error });
  const result = refusal(refused.event, validated.error);
  // The engine's own trace (it is returned with the outcome), not the front end's.
  if (trace) [trace.event, trace.refused] = [refused.event, result.reason];
  return fail({
    kind: "answered",
    event: refusedInput(refused.event, refused.value),
    result,
    ...(trace ? { trace } : {}),
  });
}

/** A tool call the event's decision gates: refusing the event must deny the call, never let it through. */
function gatesToolCall(facts: EventFacts): boolean {
  return facts.control === "tool-permission" || facts.control === "permission-request";
}

/** The identity of a refused event, as far as it can be read (the result names the session it came from). */
function refusedInput(event: EventName, value: JsonObject): EventInput {
  const sessionId = typeof value.session_id === "string" ? value.session_id : "";
  return { event, input: { hook_event_name: event, session_id: sessionId }, warnings: [] };
}

/**
 * The result for a tool event refused before its hooks could see it (SPEC §15, nesting past the
 * bound): the host reads a failed dispatch as "no hooks ran" and would run the call unchecked, so a
 * prompt-injected model could skip every guard by nesting its arguments; the call is denied instead.
 */
function refusal(event: EventName, why: string): DispatchResult {
  const reason = `mind-hooks refused this ${event}: ${why}; the tool call is denied unseen by hooks`;
  return { ...emptyResult(event, []), decision: "deny", reason, systemMessages: [reason] };
}
