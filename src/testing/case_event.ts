/**
 * The event of one `mind-hooks test` case (SPEC §16): written whole (`input = {…}`, the §5 form, or with
 * `host` the host's own hook input), or in short form (`event`, `tool`, `command`, `file_path`, `prompt`,
 * …) with the rest filled in exactly as an adapter fills what a host does not send
 * (`completeInput`, src/adapter/host.ts) — so a short case is an event a real host could send.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { completeInput } from "../adapter/host.ts";
import { EVENTS } from "../events/registry.ts";
import { ADAPTERS } from "../adapter/hosts.ts";
import type { Host } from "../adapter/host_names.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { fail, ok, type Result } from "../util/result.ts";
import type { TestCase } from "./test_file.ts";

/** Where a case's event happens unless it says: the search start, and the run's session. */
export type CaseDefaults = { cwd: string; sessionId: string };

/** One case's event: for mind (`host` absent) the §5 object; with a host, that host's own stdin object. */
export type CaseEvent = { event: EventName | null; input: JsonObject; host?: Host };

/** The short-form keys (the rest of a case is its name, host and expectations). */
const SHORT_KEYS = [
  "event",
  "tool",
  "command",
  "file_path",
  "prompt",
  "tool_input",
  "tool_response",
  "fields",
] as const;

/** Hosts whose hook input uses §5's field names, so that a short form can be written for them. */
const SNAKE_CASE_HOSTS: ReadonlySet<Host> = new Set(["claude", "codex"]);

/** The event a short form means when it names none: a tool call, else a prompt. */
function impliedEvent(c: TestCase): EventName | null {
  if (c.event) return c.event;
  if (c.tool !== undefined || c.command !== undefined || c.file_path !== undefined || c.tool_input) return "PreToolUse";
  if (c.prompt !== undefined) return "UserPromptSubmit";
  return null;
}

/**
 * The §5 event of a short-form case: `tool` (default `Bash` on a tool event, `Write` with a `file_path` alone),
 * `command` and `file_path` into `tool_input`, then every required field a host may leave out filled in
 * as the adapters fill it.
 */
export function shortFormEvent(c: TestCase, event: EventName, d: CaseDefaults): JsonObject {
  const cwd = c.cwd ?? d.cwd;
  const input: JsonObject = {
    session_id: c.session_id ?? d.sessionId,
    transcript_path: null,
    cwd,
    hook_event_name: event,
    ...(c.fields ?? {}),
  };
  const toolInput: JsonObject = { ...(c.tool_input ?? {}) };
  if (c.command !== undefined) toolInput.command = c.command;
  if (c.file_path !== undefined) toolInput.file_path = c.file_path;
  // A tool event names a tool even when the case does not: `Bash`, or `Write` for a file_path alone.
  const isTool = EVENTS[event].matcher.kind === "tool";
  const tool = c.tool ?? (c.file_path !== undefined && c.command === undefined ? "Write" : isTool ? "Bash" : undefined);
  if (tool !== undefined) input.tool_name = tool;
  if (Object.keys(toolInput).length > 0 || tool !== undefined) input.tool_input = toolInput;
  if (c.prompt !== undefined) input.prompt = c.prompt;
  if (c.tool_response !== undefined) input.tool_response = c.tool_response as JsonObject;
  if (input.tool_name !== undefined && input.tool_use_id === undefined) input.tool_use_id = "test-call";
  return completeInput(event, input, {}, cwd);
}

/** The event of case `c`, or why it has none (one sentence). */
export function caseEvent(c: TestCase, d: CaseDefaults): Result<CaseEvent> {
  const short = SHORT_KEYS.filter((k) => c[k] !== undefined);
  if (c.input !== undefined) {
    if (short.length > 0) return fail(`give either input or the short form (${short.join(", ")}), not both`);
    const named = c.input.hook_event_name;
    // A whole event without a cwd or session happens where the run is (a test file holds no machine's paths).
    const input = { session_id: d.sessionId, cwd: c.cwd ?? d.cwd, ...c.input };
    return ok({ event: typeof named === "string" ? named as EventName : null, input, host: c.host });
  }
  const event = impliedEvent(c);
  if (event === null) return fail('no event: give input = {…} or event = "…"');
  const mind = shortFormEvent(c, event, d);
  if (c.host === undefined) return ok({ event, input: mind });
  if (!SNAKE_CASE_HOSTS.has(c.host)) {
    return fail(`a short form is written for mind, claude and codex: give ${c.host}'s own hook input as input = {…}`);
  }
  const hostEvent = ADAPTERS[c.host].events[event];
  if (hostEvent === null) return fail(`${c.host} has no ${event} event`);
  return ok({ event, input: { ...mind, hook_event_name: hostEvent }, host: c.host });
}

/** What a host's answer says, read back into the fields a case expects (SPEC §16). */
export type HostAnswer = {
  decision: string | null;
  reason: string | null;
  context: string[];
  continue: boolean;
  updatedInput: JsonObject | null;
};

/**
 * Reads a host's hook stdout (null: it answered nothing) into a case's fields: a deny or block as
 * `decision` with its reason, Claude Code's and Codex's `hookSpecificOutput`, Gemini CLI's top-level
 * `decision`, Copilot CLI's `permissionDecision`, `behavior` and `modifiedArgs`.
 */
export function readHostAnswer(stdout: JsonObject | null): HostAnswer {
  const out = stdout ?? {};
  const hso = isObject(out.hookSpecificOutput) ? out.hookSpecificOutput : {};
  const permission = isObject(hso.decision) ? hso.decision : {};
  const str = (...vs: unknown[]) => (vs.find((v) => typeof v === "string") as string | undefined) ?? null;
  const decision = str(hso.permissionDecision, permission.behavior, out.permissionDecision, out.behavior, out.decision);
  const reason = str(
    hso.permissionDecisionReason,
    permission.message,
    out.permissionDecisionReason,
    out.message,
    out.reason,
    out.stopReason,
  );
  const context = str(hso.additionalContext, out.additionalContext);
  const updated = [hso.updatedInput, hso.tool_input, out.modifiedArgs].find(isObject) ?? null;
  const stopped = out.continue === false;
  return {
    // A rewrite is mind's allow; a host's stop is `continue: false`, mind's `stop` where it is the only control.
    decision: decision ?? (updated !== null ? "allow" : stopped ? "stop" : null),
    reason,
    context: context === null ? [] : [context],
    continue: !stopped,
    updatedInput: updated,
  };
}
