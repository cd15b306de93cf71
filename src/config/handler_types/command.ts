/**
 * The `command` handler type (SPEC §2.2, §7.1): a shell command line, run with the event on stdin.
 * @module
 */
import { EVENTS } from "../../events/registry.ts";
import type { HandlerModule, HandlerOf } from "./types.ts";

/** Default additionalContextLimit in approximate tokens. */
export const DEFAULT_CONTEXT_LIMIT = 2500;

/** The `command` handler type. */
export const commandHandler: HandlerModule<"command"> = {
  type: "command",
  defaultTimeout: null,
  refusedOn: () => null,
  normalize(raw, c) {
    if (raw.command === undefined || raw.command === "" || (typeof raw.command === "string" && !raw.command.trim())) {
      c.warn("W_EMPTY_COMMAND", `${c.where}: empty or missing command; handler skipped`, "command");
      return null;
    }
    if (typeof raw.command !== "string") return c.bad("command must be a string", "command");
    const limit = raw.additionalContextLimit;
    if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0)) {
      return c.bad("additionalContextLimit must be an integer ≥ 0", "additionalContextLimit");
    }
    if (limit !== undefined && EVENTS[c.event].contextLimit === "none") {
      c.warn(
        "W_LIMIT_IGNORED",
        `${c.where}: additionalContextLimit has no effect on ${c.event}`,
        "additionalContextLimit",
      );
    }
    // As written (SPEC §3.2): SessionEnd's forced synchronous run is decided at run time (runsAsync).
    const isAsync = raw.async === true || (c.dialect === "claude" && raw.asyncRewake === true);
    if (isAsync && !EVENTS[c.event].asyncAllowed) {
      c.warn("W_ASYNC_IGNORED", `${c.where}: ${c.event} hooks always run synchronously`, "async");
    }
    const commandWindows = (raw.commandWindows ?? raw.command_windows) as string | undefined;
    const { timeout, statusMessage, once, failClosed, ...claude } = c.common;
    return {
      type: "command",
      command: raw.command,
      timeout,
      async: isAsync,
      additionalContextLimit: (limit as number | undefined) ?? DEFAULT_CONTEXT_LIMIT,
      ...(commandWindows !== undefined ? { commandWindows } : {}),
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      ...claude,
      ...(failClosed ? { failClosed } : {}),
      ...(once ? { once } : {}),
    };
  },
  summary: (h) => h.command,
  listPrefix: "command: ",
  details: (h) => [
    ["Command", h.command, true],
    ...(h.commandWindows !== undefined ? [["Windows", h.commandWindows] as const] : []),
    ["Timeout", `${h.timeout} s`],
    ["Async", h.async ? "yes (runs in the background, no control effect)" : "no"],
    ["Ctx limit", `${h.additionalContextLimit} tokens (additionalContextLimit)`],
  ],
  json: (h) => ({ command: h.command, commandWindows: h.commandWindows ?? null }),
  reviewWarnings: () => [],
  commandText: (h: HandlerOf<"command">, os) => os === "windows" ? h.commandWindows ?? h.command : h.command,
  runsProcess: true,
  contextLimit: (h) => h.additionalContextLimit,
  async: (h) => h.async,
  netReach: () => [],
  cannotRun: () => null,
  mcpServer: () => null,
};
