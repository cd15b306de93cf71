/**
 * The Copilot dialect (SPEC §2.8 r4): hooks written for GitHub Copilot CLI 1.0 — a repository's
 * `.github/hooks/*.json` and the user's `~/.copilot/hooks/*.json` (`{"version": 1, "hooks": …}` files) —
 * read exactly as Copilot CLI reads them (measured against the real CLI).
 *
 * - Events: `sessionStart`, `sessionEnd`, `userPromptSubmitted`, `preToolUse`, `postToolUse`,
 *   `permissionRequest`, `agentStop`, `subagentStart`, `subagentStop`, `preCompact`, `postToolUseFailure`,
 *   `notification` onto mind's, and `errorOccurred` onto PostToolUseFailure (a failed tool call); the
 *   PascalCase (VS Code) names are named, not read.
 * - Handlers: a flat list per event, no matcher; `type: "command"`, `bash` (what runs here), `powershell`
 *   (Windows only: a hook with nothing else is named), `cwd` (from the repository root), `env`,
 *   `timeoutSec` (default 30).
 * - Input: Copilot's (`sessionId`, `toolName: "bash"`, `toolArgs` as the model gave them, `toolResult`).
 * - Answers: on `preToolUse` any non-zero exit denies ("hook errored", a missing program too) and a
 *   timeout does not; `permissionDecision` (`deny`/`ask`/`allow`) with `permissionDecisionReason`,
 *   `modifiedArgs` (the whole arguments) and a top-level `additionalContext`; `decision: "block"` +
 *   `reason` on `postToolUse`, `userPromptSubmitted`, `agentStop`, `subagentStop`; `behavior`/`message`
 *   on `permissionRequest` (exit 2 denies). Everything else is ignored, as Copilot ignores it.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { isObject, type JsonObject, type ValuePath } from "../util/json.ts";
import { ok } from "../util/result.ts";
import { shellQuote } from "../matching/tool_names.ts";
import { answerObject, claudeAnswer, DIALECT_SKIPPED, text, toHostTool } from "./common.ts";
import type { Answer, DialectModule, DialectNote, ToolTable, TranslatedHooks } from "./types.ts";

/** Copilot CLI's hook events onto mind's (null: no counterpart in mind). */
export const COPILOT_HOOK_EVENTS: Readonly<Record<string, EventName | null>> = Object.freeze({
  sessionStart: "SessionStart",
  sessionEnd: "SessionEnd",
  userPromptSubmitted: "UserPromptSubmit",
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  permissionRequest: "PermissionRequest",
  agentStop: "Stop",
  subagentStart: "SubagentStart",
  subagentStop: "SubagentStop",
  preCompact: "PreCompact",
  postToolUseFailure: "PostToolUseFailure",
  // Copilot's error hook: mind raises it for a failed tool call (SPEC §2.8 r4), beside postToolUseFailure.
  errorOccurred: "PostToolUseFailure",
  notification: "Notification",
});

/** Copilot CLI's built-in tools that mind hooks know by Claude Code's names (and their renamed parameters). */
export const COPILOT_TOOLS: ToolTable = new Map([
  ["bash", { name: "Bash", params: new Map() }],
  ["edit", {
    name: "Edit",
    params: new Map([["path", "file_path"], ["old_str", "old_string"], ["new_str", "new_string"]]),
  }],
  ["create", { name: "Write", params: new Map([["path", "file_path"], ["file_text", "content"]]) }],
  ["view", { name: "Read", params: new Map([["path", "file_path"]]) }],
]);

/** Copilot CLI's hook types mind runs (its own vocabulary: `bash` run by a shell). */
const RUNNABLE_TYPES: ReadonlySet<string> = new Set(["command"]);

/** Copilot CLI's default `timeoutSec`. */
const DEFAULT_TIMEOUT_SEC = 30;

/**
 * A Copilot handler in mind's fields: `bash` run from its `cwd` with its `env` exported, all in the
 * command (so both are hashed: a changed env or folder is a changed hook). Null: a hook that cannot run
 * here (another type, or PowerShell only).
 */
function handlerOf(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  if (!RUNNABLE_TYPES.has(String(raw.type)) || (raw.bash === undefined && typeof raw.powershell === "string")) {
    return null;
  }
  let command = raw.bash;
  if (typeof command === "string") {
    const env = isObject(raw.env) ? Object.entries(raw.env) : [];
    const exports = env.filter(([k]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
      .map(([k, v]) => `export ${k}=${shellQuote(String(v))}; `).join("");
    const cwd = typeof raw.cwd === "string" && raw.cwd !== "" && raw.cwd !== "." ? `cd ${shellQuote(raw.cwd)} && ` : "";
    command = `${exports}${cwd}${command}`;
  }
  return { type: "command", command, timeout: raw.timeoutSec ?? DEFAULT_TIMEOUT_SEC };
}

/** Copilot's hooks object (event → handlers) in mind's form: one group per event, handlers as listed. */
export function translateCopilotHooks(hooks: JsonObject, base: ValuePath): TranslatedHooks {
  const out: JsonObject = {};
  const notes: DialectNote[] = [];
  // Each mind event's groups: one per host event mapped onto it (errorOccurred and postToolUseFailure).
  const groups = new Map<EventName, { name: string; hooks: unknown }[]>();
  for (const [name, list] of Object.entries(hooks)) {
    const event = Object.hasOwn(COPILOT_HOOK_EVENTS, name) ? COPILOT_HOOK_EVENTS[name] : undefined;
    if (event === undefined || event === null) {
      const count = Array.isArray(list) ? list.length : 0;
      const pascal = /^[A-Z]/.test(name) ? " (mind reads Copilot's camelCase names: preToolUse, …)" : "";
      notes.push({
        code: "W_HOST_EVENT_UNMAPPED",
        message: event === null
          ? `Copilot CLI's ${name} has no counterpart in mind: ${
            count === 1 ? "its hook does" : `its ${count} hooks do`
          } not run`
          : `${JSON.stringify(name)} is not a Copilot CLI hook event${pascal}: its hooks do not run`,
        path: [...base, name],
      });
      continue;
    }
    const mine = groups.get(event) ?? [];
    groups.set(event, mine);
    if (!Array.isArray(list)) {
      mine.push({ name, hooks: list }); // the handler check names it
      continue;
    }
    const handlers = list.map((h, i) => {
      const mind = handlerOf(h);
      if (mind !== null) return mind;
      notes.push({
        code: "W_UNSUPPORTED_HANDLER",
        message: isObject(h) && !RUNNABLE_TYPES.has(String(h.type))
          ? `Copilot CLI hook ${name}[${i}] has type ${JSON.stringify(h.type ?? null)}: it cannot run here; skipped`
          : `Copilot CLI hook ${name}[${i}] is PowerShell only (no bash): it cannot run here; skipped`,
        path: [...base, name, i],
      });
      return DIALECT_SKIPPED;
    });
    mine.push({ name, hooks: handlers });
  }
  for (const [event, list] of groups) out[event] = list.map((g) => ({ hooks: g.hooks }));
  return {
    hooks: out,
    notes,
    pathOf: (event, gi, hi) => [...base, groups.get(event)?.[gi]?.name ?? event, hi],
  };
}

/** The hook input Copilot CLI sends for `event`, from the §5 hook input. */
function copilotInput(event: EventName, h: JsonObject): JsonObject {
  const out: JsonObject = { sessionId: h.session_id, timestamp: Date.now(), cwd: h.cwd };
  const tool = () => toHostTool(COPILOT_TOOLS, String(h.tool_name), h.tool_input);
  switch (event) {
    case "SessionStart":
      out.source = h.source === "startup" ? "new" : h.source;
      break;
    case "SessionEnd":
      out.reason = h.reason;
      break;
    case "UserPromptSubmit":
      out.prompt = h.prompt;
      break;
    case "PreToolUse":
    case "PostToolUse": {
      const t = tool();
      out.toolName = t.name;
      out.toolArgs = t.input;
      if (event === "PostToolUse") {
        const r = h.tool_response;
        out.toolResult = { resultType: "success", textResultForLlm: typeof r === "string" ? r : JSON.stringify(r) };
      }
      break;
    }
    case "PermissionRequest": {
      const t = tool();
      Object.assign(out, {
        hookName: "permissionRequest",
        toolName: t.name,
        toolInput: t.input,
        permissionSuggestions: [],
      });
      break;
    }
    case "PostToolUseFailure": {
      const t = tool();
      const message = typeof h.error === "string" ? h.error : "";
      Object.assign(out, { toolName: t.name, toolArgs: t.input, error: { message, name: "Error" } });
      break;
    }
    case "Notification":
      Object.assign(out, { message: h.message, notificationType: h.notification_type });
      break;
    case "Stop":
    case "SubagentStop":
      Object.assign(out, {
        transcriptPath: h.transcript_path,
        stopReason: "end_turn",
        stop_hook_active: h.stop_hook_active,
      });
      break;
    default:
      break;
  }
  return out;
}

/** The events whose `decision: "block"` + `reason` Copilot CLI honours. */
const BLOCKING: ReadonlySet<EventName> = new Set(["PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"]);

/** A Copilot answer as Claude Code's form, which mind's Claude reader then reads (SPEC §8.1). */
function copilotAnswer(event: EventName, raw: Answer): Answer {
  const failed = raw.exitCode !== 0 && raw.exitCode !== null;
  if (failed && event === "PreToolUse") {
    // Any non-zero exit denies the call (measured: exit 1, exit 2, a missing program).
    const why = raw.stderr.trim().split("\n")[0] || `hook exited with code ${raw.exitCode}`;
    return claudeAnswer(raw, {}, 2, why);
  }
  if (failed && event === "PermissionRequest" && raw.exitCode === 2) {
    return claudeAnswer(raw, {
      hookSpecificOutput: {
        hookEventName: event,
        decision: { behavior: "deny", message: "Permission denied by hook." },
      },
    }, 0);
  }
  // Elsewhere a failing hook steers nothing: a failure, never a block.
  if (failed) return claudeAnswer(raw, {}, 1);
  const json = answerObject(raw);
  if (json === null) return claudeAnswer(raw, {}, raw.exitCode);
  const out: JsonObject = {};
  const hso: JsonObject = { hookEventName: event };
  const context = text(json, "additionalContext");
  if (context !== undefined && event !== "SessionStart") hso.additionalContext = context;
  if (event === "PreToolUse") {
    const decision = json.permissionDecision;
    if (decision === "deny" || decision === "ask" || decision === "allow") {
      hso.permissionDecision = decision;
      if (decision !== "allow") {
        hso.permissionDecisionReason = text(json, "permissionDecisionReason") ?? "No reason provided";
      }
    }
    if (isObject(json.modifiedArgs) && decision !== "deny") {
      hso.permissionDecision ??= "allow";
      hso.updatedInput = json.modifiedArgs;
    }
  } else if (event === "PermissionRequest" && (json.behavior === "allow" || json.behavior === "deny")) {
    hso.decision = { behavior: json.behavior, ...(text(json, "message") ? { message: json.message } : {}) };
  } else if (BLOCKING.has(event) && json.decision === "block") {
    out.decision = "block";
    out.reason = text(json, "reason") ?? "No reason provided";
  }
  if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
  return claudeAnswer(raw, out, 0);
}

/** Copilot CLI's hooks. */
export const COPILOT_DIALECT: DialectModule = {
  dialect: "copilot",
  hostName: "Copilot CLI",
  reads: "claude",
  shell: "sh",
  events: COPILOT_HOOK_EVENTS,
  tools: COPILOT_TOOLS,
  translate: translateCopilotHooks,
  // Copilot's hook files have no matchers: every hook of an event matches.
  compileMatcher: () => ok({ kind: "all" }),
  matchSubjects: (toolName) => [toolName],
  input: copilotInput,
  answer: copilotAnswer,
  env: (ctx) => ({ COPILOT_PROJECT_DIR: ctx.projectDir ?? ctx.cwd }),
};
