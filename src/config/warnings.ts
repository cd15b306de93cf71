/**
 * Discovery and dispatch warnings: every one has a stable code (SPEC §2.2) and
 * goes to the observation log, `list`/`review`, `validate` and the dispatch
 * result.
 * @module
 */
import type { ValuePath } from "../util/json.ts";

/** The one line of a run that found no home (SPEC §1 r3): the usage error of every command but dispatch. */
export const NO_HOME = "no home: set MIND_HOME or HOME, or pass --home DIR";

/** What a dispatch without a home says (`W_NO_HOME`, in `warnings` and `systemMessages`). */
export const NO_HOME_DISPATCH = `${NO_HOME} (only managed and command-line hooks were loaded, and nothing was written)`;

/**
 * What a dispatch says when the home it was told to use (`--home`, `$MIND_HOME`) does not exist
 * (`W_HOME_MISSING`): a typo must not quietly become a new, empty home, so nothing is created or
 * written there and only the managed and command-line hooks load.
 */
export function homeMissingDispatch(home: string, namedBy: string): string {
  return `mind-hooks: the home ${home} (${namedBy}) does not exist: only managed and command-line hooks were loaded, and nothing was written — fix ${namedBy}, or create the folder to use it`;
}

/** The `systemMessages` line of a dispatch that ran without a home (missing or not found), or null. */
export function homelessLine(home: string | null, warnings: readonly Warning[]): string | null {
  if (home !== null) return null;
  return warnings.find((w) => w.code === "W_HOME_MISSING")?.message ?? NO_HOME_DISPATCH;
}

/** The stable warning codes. */
export const WARNING_CODES = {
  W_PARSE: "a configuration file does not parse; its hooks are not loaded",
  W_BOTH_REPRESENTATIONS: "a layer has both config.toml hooks and hooks.json; both are loaded",
  W_BAD_MATCHER: "a matcher is not a valid regular expression; its group is skipped",
  W_MATCHER_UNCHECKED:
    "an untrusted hook's matcher could not be evaluated safely; the hook counts as matched (and skipped)",
  W_MATCHER_IGNORED: "this event ignores matchers; the matcher was dropped",
  W_UNSUPPORTED_HANDLER: "handler type not supported; the handler is skipped",
  W_BAD_HANDLER: "a handler is malformed; it is skipped",
  W_BAD_GROUP: "a matcher group is malformed; it is skipped",
  W_EMPTY_COMMAND: "a command handler has no command; it is skipped",
  W_BAD_FIELD: "a field has the wrong type or value; the handler is skipped",
  W_UNKNOWN_FIELD: "an unknown field is ignored",
  W_UNKNOWN_EVENT: "an unknown event name; its hooks are ignored",
  W_HOST_EVENT_UNMAPPED:
    "a Gemini CLI or Copilot CLI hook event has no counterpart in mind (or is not that host's): its hooks do not run",
  W_TIMEOUT_CLAMPED: "a timeout was clamped to the event's range",
  W_ASYNC_IGNORED: "async is not supported here; the handler runs synchronously",
  W_LIMIT_IGNORED: "additionalContextLimit has no effect on this event",
  W_STATE_NOT_AUTHORITATIVE: "hook or project state outside the user config is ignored",
  W_DEPRECATED_ALIAS: "a deprecated setting name was used",
  W_PROJECT_UNTRUSTED: "the project's .mind/ layer is not trusted; its hooks are not loaded",
  W_UNKNOWN_INPUT_FIELD: "an unknown event input field was dropped",
  W_STOP_LOOP_CAP: "consecutive Stop blocks exceeded the cap; the block was ignored",
  W_STOP_GUARD_UNAVAILABLE:
    "the Stop loop guard could not count in the home: it counted in its temp fallback, or the block stood uncounted",
  W_UNREADABLE: "a configuration file or directory could not be read",
  W_PLUGIN: "a plugin could not be loaded as configured",
  W_MANAGED_ONLY: "managed policy allows managed hooks only; other hooks are not loaded",
  W_OUTSIDE_ROOT: "a project or plugin file leads outside its real root (a symlink); it is skipped",
  W_FEATURE_SCOPED: "a project's feature switch applies to its own hooks only",
  W_MCP_SCOPED: "a project's or plugin's MCP server serves only its own hooks",
  W_MCP_SECRET_IGNORED: "a project's or plugin's MCP server may not take values from the environment; ignored",
  W_DUPLICATE_KEY: "a JSON object repeats a key; the last one is used",
  W_FAIL_CLOSED_IGNORED: "failClosed has no effect on this event or on an async handler",
  W_IF_NEVER_MATCHES: "a Claude-dialect `if` on an event without a tool call: the handler never runs",
  W_PLUGIN_MANIFESTS:
    "a plugin has hooks in both its .codex-plugin and .claude-plugin manifests; the Codex one is used",
  W_DELEGATING_HOOK: "a foreign layer's mind-hooks delegating entries (one line per file) are not run by mind itself",
  W_PLUGIN_NO_HOOKS: "an enabled plugin has no hooks",
  W_IF_BUDGET:
    "the if filters of one dispatch passed their 50 ms budget (or a file rule was too costly): the rest counted as matched",
  W_CWD_MISSING:
    "the event's cwd is not an existing directory: hooks ran in the project root or its nearest existing ancestor",
  W_ABOVE_ROOT: "a .claude/ or .codex/ folder with hooks is above a .mind/ project root: it is not loaded",
  W_FOREIGN_USER_SETTINGS:
    "~/.claude or ~/.codex defines more than hooks (MCP servers, feature switches): that host's own, not read by mind",
  W_NO_HOME: "no home was found (MIND_HOME, --home, HOME): only managed and command-line hooks were loaded",
  W_HOME_MISSING: "the home --home or MIND_HOME names does not exist: nothing is created or written there",
  W_SPILL_REFUSED: "the spill folder is a symlink, not a folder or another user's; large outputs are not saved",
  W_HTTP_URL_NOT_ALLOWED: "an http hook's URL matches none of the managed allowed_http_hook_urls; the hook is dropped",
  W_NO_MODEL: "a prompt hook needs the user's [hooks.model]; without one it does not run",
  W_DAEMON_SOCKET:
    "the home's daemon socket is not a socket or belongs to another user: it is never used, dispatch ran in-process",
} as const;

/** A stable warning code. */
export type WarningCode = keyof typeof WARNING_CODES;

/**
 * Codes of warnings that drop something: a file that did not load, or a group or handler that was
 * skipped. `validate` fails on them; `review` lists what they dropped in its file.
 */
export const DROPPING_CODES: ReadonlySet<WarningCode> = new Set([
  "W_PARSE",
  "W_UNREADABLE",
  "W_BAD_MATCHER",
  "W_BAD_HANDLER",
  "W_BAD_GROUP",
  "W_BAD_FIELD",
  "W_EMPTY_COMMAND",
  "W_UNSUPPORTED_HANDLER",
  "W_HTTP_URL_NOT_ALLOWED",
  "W_HOST_EVENT_UNMAPPED",
]);

/** One warning. */
export type Warning = {
  code: WarningCode;
  message: string;
  /** The file (or key, or `cli-override`) it is about. */
  source: string;
  line?: number;
  column?: number;
  /**
   * The value it is about, from the root of the file `source` names (`["hooks", "Stop", 0,
   * "hooks", 1, "command"]`), set where the warning is made: `list`, `review` and `validate` find
   * its line and column from it.
   */
  path?: ValuePath;
};

/** Where a warning points: a position the parser gave, or the value path. */
export type WarningAt = { line?: number; column?: number; path?: ValuePath };

/** Builds a warning. */
export function warning(code: WarningCode, message: string, source: string, at?: WarningAt): Warning {
  const w: Warning = { code, message, source };
  if (at?.line !== undefined) w.line = at.line;
  if (at?.column !== undefined) w.column = at.column;
  if (at?.path !== undefined) w.path = at.path;
  return w;
}

/** W_OUTSIDE_ROOT for `path`, whose real path `real` leaves the project's or plugin's real root (SPEC §3.6). */
export function outsideRootWarning(path: string, real: string, what: "project" | "plugin", source = path): Warning {
  return warning(
    "W_OUTSIDE_ROOT",
    `${path} leads outside the ${what} (to ${real}); skipped: a ${what} can never borrow another folder's hooks or trust`,
    source,
  );
}

/** One line for people: `W_BAD_MATCHER /repo/.mind/hooks.json:3:5: …`. */
export function formatWarning(w: Warning): string {
  const pos = w.line !== undefined ? `:${w.line}${w.column !== undefined ? `:${w.column}` : ""}` : "";
  return `${w.code} ${w.source}${pos}: ${w.message}`;
}
