/**
 * The `mcp_tool` handler type (SPEC §2.2, §7.3): a tool of an `[mcp_servers.<name>]` entry, called with
 * its expanded `input`. The server it resolves is part of its hash (`serverSpec`, set by discovery).
 * @module
 */
import { EVENTS } from "../../events/registry.ts";
import { isObject, type JsonObject } from "../../util/json.ts";
import { DEFAULT_CONTEXT_LIMIT } from "./command.ts";
import type { HandlerModule } from "./types.ts";

/** The `mcp_tool` handler type. */
export const mcpToolHandler: HandlerModule<"mcp_tool"> = {
  type: "mcp_tool",
  defaultTimeout: null,
  // Seed 003: the event does not support MCP-tool hooks (on SessionEnd the connections are going away).
  refusedOn: (event) => EVENTS[event].mcpAllowed ? null : `mcp_tool hooks are not supported on ${event}`,
  normalize(raw, c) {
    if (!raw.server || !raw.tool) return c.bad("mcp_tool needs non-empty server and tool");
    if (raw.input !== undefined && !isObject(raw.input)) return c.bad("input must be an object", "input");
    if (raw.async === true) c.warn("W_ASYNC_IGNORED", `${c.where}: mcp_tool hooks always run synchronously`, "async");
    const { timeout, statusMessage, once, failClosed, ...claude } = c.common;
    return {
      type: "mcp_tool",
      server: raw.server as string,
      tool: raw.tool as string,
      input: (raw.input as JsonObject | undefined) ?? {},
      timeout,
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      ...claude,
      ...(failClosed ? { failClosed } : {}),
      ...(once ? { once } : {}),
      // Resolved by discovery, which knows every layer's servers (SPEC §2.7).
      serverSpec: null,
    };
  },
  summary: (h) => `mcp_tool ${h.server}/${h.tool}`,
  listPrefix: "",
  details: (h) => [
    ["Server", h.server, true],
    ["Tool", h.tool, true],
    ["Input", JSON.stringify(h.input)],
    ["Timeout", `${h.timeout} s`],
  ],
  json: (h) => ({ server: h.server, tool: h.tool, input: h.input }),
  reviewWarnings: () => [],
  commandText: () => null,
  runsProcess: false,
  contextLimit: () => DEFAULT_CONTEXT_LIMIT,
  async: () => false,
  netReach: () => [],
  cannotRun: () => null,
  mcpServer: (h) => h.server,
};
