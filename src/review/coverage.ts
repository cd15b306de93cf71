/**
 * Coverage labels (SPEC §14): how much of a tool call a hook can see and
 * steer, which depends on where the tool runs.
 *
 * - `client-full` — a PreToolUse / PostToolUse hook whose matcher can only
 *   meet tools the client executes itself: PreToolUse, PermissionRequest and
 *   PostToolUse all apply, and an `updatedInput` changes what runs.
 * - `server-approval-only` — a PreToolUse / PostToolUse hook whose matcher can
 *   also meet server-side tools: such a tool reaches hooks only at approval
 *   time (PreToolUse, PermissionRequest), an `updatedInput` does not change
 *   what the server runs, and no PostToolUse follows its result.
 * - `approval-events` — every PermissionRequest hook (it only ever sees the
 *   approval step, wherever the tool runs).
 * - `client-only` — session, prompt, compaction, subagent, stop and interrupt
 *   events: no tool is involved, the client raises them all.
 *
 * The rule for "can also meet server-side tools" is deliberately conservative
 * (a label must never claim more control than a hook has), decided from the
 * matcher as written (SPEC §4):
 * - a matcher that matches everything (absent, `""`, `*`) → server-approval-only;
 * - a regular expression → server-approval-only: a regex can meet names nobody
 *   listed, and proving it cannot meet any server tool name is not possible in
 *   general;
 * - literal names (`Bash`, `Edit|Write`) → server-approval-only when any name
 *   is a known server-side tool ({@link SERVER_SIDE_TOOLS}) or an MCP tool
 *   (`mcp__<server>__<tool>`) whose server is not one of the locally
 *   configured `[mcp_servers]` (a remote connector may execute it on the
 *   provider's side); otherwise client-full.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { compileMatcher } from "../matching/matcher.ts";

/** The four coverage labels. */
export type Coverage = "client-full" | "server-approval-only" | "approval-events" | "client-only";

/**
 * Tool names that providers execute on their side (hosted tools). A hook
 * matching one of them by name is labelled server-approval-only.
 */
export const SERVER_SIDE_TOOLS: ReadonlySet<string> = new Set([
  "web_search",
  "web_search_preview",
  "WebSearch",
  "web_fetch",
  "code_interpreter",
  "code_execution",
  "image_generation",
  "file_search",
]);

/** One sentence per label, shown by `review` and `list --json` readers. */
export const COVERAGE_TEXT: Record<Coverage, string> = {
  "client-full": "client-executed tools: PreToolUse, PermissionRequest and PostToolUse all apply",
  "server-approval-only":
    "may also meet server-side tools: those reach hooks only at approval time (PreToolUse, PermissionRequest); updatedInput does not change what the server runs and no PostToolUse follows",
  "approval-events": "PermissionRequest: runs at the approval step only",
  "client-only": "a client lifecycle event (no tool involved)",
};

/** The note `list` and `review` print (SPEC §14). */
export const COVERAGE_NOTE =
  "An enabled hook does not mean a same-named server-side tool is fully controlled: server-side tools reach hooks only at approval time, an updatedInput does not change what the server runs, and no PostToolUse follows them (see the server-approval-only label).";

/** True for the labels of tool hooks (PreToolUse, PostToolUse), the ones {@link COVERAGE_NOTE} is about. */
export function isToolCoverage(c: Coverage): boolean {
  return c === "client-full" || c === "server-approval-only";
}

/** True when the literal tool name may be executed on a server. */
function serverSideName(name: string, localMcpServers: ReadonlySet<string>): boolean {
  if (SERVER_SIDE_TOOLS.has(name)) return true;
  if (name.startsWith("mcp__")) {
    const server = name.slice(5).split("__", 1)[0];
    return !localMcpServers.has(server);
  }
  return false;
}

/** The coverage label of a hook on `event` with `matcher` (as written; null when absent). */
export function coverageOf(
  event: EventName,
  matcher: string | null,
  localMcpServers: ReadonlySet<string> = new Set(),
): Coverage {
  switch (EVENTS[event].coverage) {
    case "approval":
      return "approval-events";
    case "client":
      return "client-only";
    case "tool":
      break;
  }
  const compiled = compileMatcher(matcher);
  if (!compiled.ok) return "server-approval-only";
  const m = compiled.value;
  switch (m.kind) {
    case "all":
    case "regex":
      return "server-approval-only";
    case "exact":
      return [...m.values].some((v) => serverSideName(v, localMcpServers)) ? "server-approval-only" : "client-full";
  }
}
