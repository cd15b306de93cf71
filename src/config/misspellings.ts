/**
 * A misspelling never loses a guard silently (SPEC §2.2 r4). An unknown event name or handler field is
 * only a warning — unless it is within edit distance 2 of a known one (`PreTooluse`, `timout`): then it
 * is a *problem* (SPEC §6: `validate` exits 1, `list` shows `problem:`, every dispatch and session start
 * carries its line), because the hook it was meant for does not run, or runs with a default nobody chose.
 * Another host's name for an event mind serves (Gemini CLI's `BeforeTool`, Copilot CLI's `agentStop`) is
 * read the same way, with mind's name as the suggestion. An event of another host that mind does not
 * serve at all (Claude Code's `ConfigChange`) is no typo: it is named in one line of every session start.
 *
 * Pure: decided from the warnings discovery already makes (their code and the name at the end of their
 * value path), so discovery's handler normalisation stays as it is.
 * @module
 */
import { EVENT_NAMES } from "../events/names.ts";
import { CLAUDE_COMMAND_FIELDS, CLAUDE_MCP_FIELDS, COMMAND_FIELDS, MCP_FIELDS } from "../schema/handler.ts";
import { editDistance } from "../util/suggest.ts";
import type { Warning } from "./warnings.ts";

/** How far a name may be from a known one and still be read as meant for it. */
export const MISSPELLING_DISTANCE = 2;

/** Every field a matcher group or a handler of any type or dialect knows. */
const KNOWN_FIELDS: readonly string[] = [
  ...new Set([
    "matcher",
    "hooks",
    ...Object.keys(COMMAND_FIELDS),
    ...Object.keys(MCP_FIELDS),
    ...Object.keys(CLAUDE_COMMAND_FIELDS),
    ...Object.keys(CLAUDE_MCP_FIELDS),
  ]),
];

/** Other hosts' names of events mind serves under its own name (docs/hosts.md). */
const OTHER_HOSTS_NAMES: ReadonlyMap<string, string> = new Map([
  ["BeforeTool", "PreToolUse"],
  ["AfterTool", "PostToolUse"],
  ["BeforeAgent", "UserPromptSubmit"],
  ["AfterAgent", "Stop"],
  ["PreCompress", "PreCompact"],
  ["userPromptSubmitted", "UserPromptSubmit"],
  ["agentStop", "Stop"],
]);

/** Events other hosts raise that mind does not serve (shared/peers/hosts-features.md, §1a). */
export const UNSERVED_EVENTS: ReadonlySet<string> = new Set([
  // Claude Code
  "Setup",
  "UserPromptExpansion",
  "PermissionDenied",
  "PostToolBatch",
  "StopFailure",
  "PreModelSwitch",
  "PostModelSwitch",
  "Elicitation",
  "ElicitationResult",
  "ConfigChange",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "DirectoryAdded",
  "WorktreeCreate",
  "WorktreeRemove",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "MessageDisplay",
  // Gemini CLI
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
  // Copilot CLI
  "userPromptTransformed",
  "preMcpToolCall",
  "errorOccurred",
]);

/**
 * The known name `name` was most likely meant as: the closest of `known` within
 * {@link MISSPELLING_DISTANCE} edits, case ignored (ties: the earlier one); null for a known name itself or
 * one farther from all.
 */
export function meantName(name: string, known: readonly string[]): string | null {
  if (known.includes(name) || name.length > 64) return null;
  const lower = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = MISSPELLING_DISTANCE + 1;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/** The name a warning is about: the last key of its value path. */
function nameOf(w: Warning): string | null {
  const last = w.path?.at(-1);
  return typeof last === "string" ? last : null;
}

/**
 * For a warning about an unknown event, or an unknown field of a matcher group or handler, the known
 * name it misspells (a problem, SPEC §2.2 r4); null for any other warning.
 */
export function misspelledName(w: Warning): string | null {
  const name = nameOf(w);
  if (name === null) return null;
  if (w.code === "W_UNKNOWN_EVENT") {
    if (UNSERVED_EVENTS.has(name)) return null;
    return OTHER_HOSTS_NAMES.get(name) ?? meantName(name, EVENT_NAMES);
  }
  // A field of a group or a handler sits right after its index in the path (`…, 0, "timout"`).
  if (w.code === "W_UNKNOWN_FIELD" && typeof w.path?.at(-2) === "number") return meantName(name, KNOWN_FIELDS);
  return null;
}

/** The one problem line of a misspelling (SPEC §6): file and position, the name, what was meant, the fix. */
export function misspellingLine(w: Warning, meant: string, where: string): string {
  const name = JSON.stringify(nameOf(w));
  const what = w.code === "W_UNKNOWN_EVENT"
    ? `unknown event ${name}: its hooks do not run`
    : `unknown field ${name}: ignored, the hook runs without it`;
  return `${where}: ${what}; did you mean ${JSON.stringify(meant)}? — fix the name`;
}

/** The events of other hosts that mind does not serve among `warnings`' unknown events, each once. */
export function unservedEvents(warnings: readonly Warning[]): string[] {
  const names = warnings.filter((w) => w.code === "W_UNKNOWN_EVENT").map(nameOf);
  return [...new Set(names.filter((n): n is string => n !== null && UNSERVED_EVENTS.has(n)))];
}

/** The session-start line naming them (SPEC §2.2 r4), or null when there are none. */
export function unservedEventsLine(warnings: readonly Warning[]): string | null {
  const names = unservedEvents(warnings);
  if (names.length === 0) return null;
  const shown = names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
  return `mind-hooks: hooks on ${shown} will not run here (an event of another host that mind does not serve)`;
}
