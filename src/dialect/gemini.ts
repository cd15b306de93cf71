/**
 * The Gemini dialect (SPEC §2.8 r4): hooks written for Gemini CLI 0.61 — a project's
 * `.gemini/settings.json`, the user's `~/.gemini/settings.json`, an enabled extension's
 * `hooks/hooks.json` — read exactly as Gemini CLI reads them (measured against the real CLI).
 *
 * - Events: `BeforeTool`, `AfterTool`, `BeforeAgent`, `AfterAgent`, `SessionStart`, `SessionEnd`,
 *   `PreCompress`, `Notification` onto mind's; `BeforeModel`, `AfterModel` and `BeforeToolSelection` have
 *   no mind counterpart and are named.
 * - Matchers: unanchored regular expressions over Gemini's own tool names (`run_shell_command`).
 * - Handlers: `type: "command"`, `command`, `name`, `timeout` in milliseconds (default 60000).
 * - Input: Gemini's (`tool_name: "run_shell_command"`, `timestamp`, AfterAgent's `prompt_response`).
 * - Answers: `{"decision": "deny"|"block", "reason"}` denies or blocks ("No reason provided" without
 *   one); exit 2 with stderr blocks, and so does any other exit ≥ 2 with stderr; exit 2 without stderr
 *   and exit 1 are failures; JSON on stderr with an empty stdout is read; `decision: "ask"` asks;
 *   `hookSpecificOutput.additionalContext` is context and `hookSpecificOutput.tool_input` rewrites.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { isObject, type JsonObject, type ValuePath } from "../util/json.ts";
import { fail, ok, type Result } from "../util/result.ts";
import type { Matcher } from "../matching/matcher.ts";
import {
  answerObject,
  claudeAnswer,
  DIALECT_SKIPPED,
  hostEventNames,
  hostToolName,
  secondsOf,
  text,
  toHostTool,
} from "./common.ts";
import type { Answer, DialectModule, DialectNote, ToolTable, TranslatedHooks } from "./types.ts";

/** Gemini CLI's hook events onto mind's (null: no counterpart in mind). */
export const GEMINI_HOOK_EVENTS: Readonly<Record<string, EventName | null>> = Object.freeze({
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  PreCompress: "PreCompact",
  BeforeModel: null,
  AfterModel: null,
  BeforeToolSelection: null,
  Notification: "Notification",
});

/** Gemini CLI's built-in tools that mind hooks know by Claude Code's names (and their renamed parameters). */
export const GEMINI_TOOLS: ToolTable = new Map([
  ["run_shell_command", { name: "Bash", params: new Map([["is_background", "run_in_background"]]) }],
  ["replace", { name: "Edit", params: new Map([["allow_multiple", "replace_all"]]) }],
  ["write_file", { name: "Write", params: new Map() }],
  ["read_file", { name: "Read", params: new Map() }],
]);

/** Gemini CLI's hook types mind runs (its own vocabulary: a command line run by a shell). */
const RUNNABLE_TYPES: ReadonlySet<string> = new Set(["command"]);

/** Gemini CLI's default hook timeout (ms). */
const DEFAULT_TIMEOUT_MS = 60_000;
/** Keys of Gemini's `hooks` object that are settings, not events (older releases kept them there). */
const SETTINGS = new Set(["enabled", "disabled", "notifications"]);
const HOST_EVENT = hostEventNames(GEMINI_HOOK_EVENTS);

/** A Gemini handler in mind's fields; null for a hook of another type (named, skipped). */
function handlerOf(raw: unknown, extensionPath: string | null): unknown {
  if (!isObject(raw)) return raw;
  if (!RUNNABLE_TYPES.has(String(raw.type))) return null;
  let command = raw.command;
  // An extension's commands name their own folder so (Gemini's `${extensionPath}`).
  if (typeof command === "string" && extensionPath !== null) {
    command = command.replaceAll("${extensionPath}", extensionPath);
  }
  return {
    type: "command",
    command,
    timeout: secondsOf(raw.timeout ?? DEFAULT_TIMEOUT_MS),
    ...(typeof raw.name === "string" ? { name: raw.name } : {}),
  };
}

/** Gemini's hooks object in mind's form (`extensionPath`: the extension folder its commands name). */
export function translateGeminiHooks(
  hooks: JsonObject,
  base: ValuePath,
  extensionPath: string | null = null,
): TranslatedHooks {
  const out: JsonObject = {};
  const notes: DialectNote[] = [];
  const names = new Map<EventName, string>();
  for (const [name, groups] of Object.entries(hooks)) {
    if (SETTINGS.has(name)) continue;
    const event = Object.hasOwn(GEMINI_HOOK_EVENTS, name) ? GEMINI_HOOK_EVENTS[name] : undefined;
    if (event === undefined || event === null) {
      const count = Array.isArray(groups)
        ? groups.reduce((n, g) => n + (isObject(g) && Array.isArray(g.hooks) ? g.hooks.length : 0), 0)
        : 0;
      notes.push({
        code: "W_HOST_EVENT_UNMAPPED",
        message: event === null
          ? `Gemini CLI's ${name} has no counterpart in mind: ${
            count === 1 ? "its hook does" : `its ${count} hooks do`
          } not run`
          : `${JSON.stringify(name)} is not a Gemini CLI hook event: its hooks do not run`,
        path: [...base, name],
      });
      continue;
    }
    names.set(event, name);
    out[event] = Array.isArray(groups)
      ? groups.map((g, gi) =>
        isObject(g)
          ? {
            ...(g.matcher !== undefined ? { matcher: g.matcher } : {}),
            hooks: Array.isArray(g.hooks)
              ? g.hooks.map((h, hi) => {
                const mind = handlerOf(h, extensionPath);
                if (mind !== null) return mind;
                notes.push({
                  code: "W_UNSUPPORTED_HANDLER",
                  message: `Gemini CLI hook ${name}[${gi}].hooks[${hi}] has type ${
                    JSON.stringify((h as JsonObject).type ?? null)
                  }: it cannot run here; skipped`,
                  path: [...base, name, gi, "hooks", hi],
                });
                return DIALECT_SKIPPED;
              })
              : g.hooks,
          }
          : g
      )
      : groups;
  }
  return {
    hooks: out,
    notes,
    pathOf: (event, gi, hi) => [...base, names.get(event) ?? event, gi, "hooks", hi],
  };
}

/** Gemini's matchers: unanchored regular expressions (`*` and none match everything). */
function compileGeminiMatcher(matcher: string | null): Result<Matcher> {
  if (matcher === null || matcher === "" || matcher === "*") return ok({ kind: "all" });
  try {
    return ok({ kind: "regex", re: new RegExp(matcher) });
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
}

/** The hook input Gemini CLI sends for `event`, from the §5 hook input. */
function geminiInput(event: EventName, h: JsonObject): JsonObject {
  const out: JsonObject = {
    session_id: h.session_id,
    transcript_path: h.transcript_path,
    cwd: h.cwd,
    hook_event_name: HOST_EVENT.get(event) ?? event,
    timestamp: new Date().toISOString(),
  };
  switch (event) {
    case "SessionStart":
      out.source = h.source === "compact" ? "startup" : h.source;
      break;
    case "SessionEnd":
      out.reason = h.reason;
      break;
    case "UserPromptSubmit":
      out.prompt = h.prompt;
      break;
    case "PreToolUse":
    case "PostToolUse": {
      const tool = toHostTool(GEMINI_TOOLS, String(h.tool_name), h.tool_input);
      out.tool_name = tool.name;
      out.tool_input = tool.input;
      if (event === "PostToolUse") out.tool_response = h.tool_response;
      break;
    }
    case "PreCompact":
      out.trigger = h.trigger;
      break;
    case "Notification":
      out.notification_type = h.notification_type;
      out.message = h.message;
      break;
    case "Stop":
      out.prompt_response = h.last_assistant_message ?? "";
      out.stop_hook_active = h.stop_hook_active;
      break;
    default:
      break;
  }
  return out;
}

/** A Gemini answer as Claude Code's form, which mind's Claude reader then reads (SPEC §8.1). */
function geminiAnswer(event: EventName, raw: Answer): Answer {
  const stderr = raw.stderr.trim();
  let json = answerObject(raw);
  // Gemini reads a JSON answer on stderr when stdout is empty (measured: a deny there blocks).
  if (json === null && raw.stdout.trim() === "" && stderr[0] === "{") json = answerObject({ ...raw, stdout: stderr });
  if (raw.exitCode !== 0 && raw.exitCode !== null) {
    // Exit ≥ 2 with a reason on stderr blocks; exit 1, or exit 2 without one, is a failure.
    const blocks = raw.exitCode >= 2 && stderr !== "";
    return claudeAnswer(raw, {}, blocks ? 2 : 1);
  }
  if (json === null) return claudeAnswer(raw, {}, raw.exitCode);
  const out: JsonObject = {};
  for (const k of ["continue", "stopReason", "systemMessage", "suppressOutput"]) if (k in json) out[k] = json[k];
  const hso: JsonObject = { hookEventName: event };
  const given = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  if (typeof given.additionalContext === "string") hso.additionalContext = given.additionalContext;
  const reason = text(json, "reason") ?? "No reason provided";
  if (json.decision === "deny" || json.decision === "block") {
    out.decision = "block";
    out.reason = reason;
  } else if (json.decision === "ask" && event === "PreToolUse") {
    hso.permissionDecision = "ask";
    hso.permissionDecisionReason = reason;
  }
  if (event === "PreToolUse" && isObject(given.tool_input) && out.decision === undefined) {
    hso.permissionDecision ??= "allow";
    // The whole input, as Gemini runs the tool with it (its own parameter names, as the hook read them).
    hso.updatedInput = given.tool_input;
  }
  if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
  return claudeAnswer(raw, out, 0);
}

/** Gemini CLI's hooks. */
export const GEMINI_DIALECT: DialectModule = {
  dialect: "gemini",
  hostName: "Gemini CLI",
  reads: "claude",
  shell: "sh",
  events: GEMINI_HOOK_EVENTS,
  tools: GEMINI_TOOLS,
  translate: (hooks, base, opts) => translateGeminiHooks(hooks, base, opts.extensionPath ?? null),
  compileMatcher: compileGeminiMatcher,
  matchSubjects: (toolName) => [hostToolName(GEMINI_TOOLS, toolName)],
  input: geminiInput,
  answer: geminiAnswer,
  env: (ctx) => ({
    GEMINI_PROJECT_DIR: ctx.projectDir ?? ctx.cwd,
    GEMINI_CWD: ctx.cwd,
    GEMINI_SESSION_ID: ctx.sessionId,
  }),
};
