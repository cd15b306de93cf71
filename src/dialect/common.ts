/**
 * What the dialect modules share: mind's own names (the mind and Claude dialects), the tool tables'
 * two directions, reading a host's JSON answer, and the sentinel a translation leaves where a host hook
 * cannot run (its indexes still count, SPEC §3.1).
 * @module
 */
import type { EventName } from "../events/names.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { compileMatcher } from "../matching/matcher.ts";
import { toolMatchSubjects } from "../matching/tool_names.ts";
import type { Answer, DialectModule, ToolTable } from "./types.ts";

/**
 * Left by a translation in place of a host hook it does not run, so that the handlers after it keep
 * their indexes; the translation names it (`DialectNote`), collecting skips it silently.
 */
export const DIALECT_SKIPPED: Readonly<JsonObject> = Object.freeze({});

/** The facts of a dialect that uses mind's own names and answers as they are. */
export const MIND_NAMES: Pick<
  DialectModule,
  "events" | "tools" | "translate" | "compileMatcher" | "matchSubjects" | "input" | "answer" | "env"
> = {
  events: null,
  tools: new Map(),
  translate: null,
  compileMatcher,
  matchSubjects: toolMatchSubjects,
  input: (_event, hookInput) => hookInput,
  answer: (_event, raw) => raw,
  env: () => ({}),
};

/**
 * The tool call in the names mind hooks are written for (`Bash`, `Edit`, `Write`, `Read` and Claude
 * Code's parameter names); a tool the table does not know keeps its own name and arguments.
 */
export function toMindTool(
  table: ToolTable,
  name: unknown,
  input: unknown,
): { tool_name: unknown; tool_input: unknown } {
  const alias = typeof name === "string" ? table.get(name) : undefined;
  if (!alias || !isObject(input)) return { tool_name: alias?.name ?? name, tool_input: input };
  // fromEntries defines the keys: a stranger's `__proto__` stays a plain (unknown, dropped) field.
  const out = Object.fromEntries(Object.entries(input).map(([k, v]) => [alias.params.get(k) ?? k, v]));
  return { tool_name: alias.name, tool_input: out };
}

/** The host's own name of mind's tool `name` (the first the table gives), else `name` itself. */
export function hostToolName(table: ToolTable, name: string): string {
  for (const [host, alias] of table) if (alias.name === name) return host;
  return name;
}

/** A §5 tool call (mind's names) in the host's names: what a host's own hook reads. */
export function toHostTool(table: ToolTable, name: string, input: unknown): { name: string; input: unknown } {
  const host = hostToolName(table, name);
  const alias = table.get(host);
  if (!alias || alias.name !== name || !isObject(input)) return { name: host, input };
  const back = new Map([...alias.params].map(([h, m]) => [m, h]));
  return { name: host, input: Object.fromEntries(Object.entries(input).map(([k, v]) => [back.get(k) ?? k, v])) };
}

/** A host answer's stdout as a JSON object, or null (not JSON, not an object, or cut at the capture limit). */
export function answerObject(raw: Answer): JsonObject | null {
  const text = raw.stdout.trim();
  if (text[0] !== "{" || raw.stdoutTruncated) return null;
  try {
    const parsed = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** An answer read as Claude Code reads one: `out` as its stdout (nothing when empty), with `exitCode`. */
export function claudeAnswer(raw: Answer, out: JsonObject, exitCode: number | null, stderr = raw.stderr): Answer {
  return {
    ...raw,
    stdout: Object.keys(out).length > 0 ? JSON.stringify(out) : "",
    stdoutTruncated: false,
    exitCode,
    stderr,
  };
}

/** A non-empty string field, or undefined. */
export function text(obj: JsonObject, key: string): string | undefined {
  const v = obj[key];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** The host event names of a dialect's map by mind event (the first host name of each). */
export function hostEventNames(events: Readonly<Record<string, EventName | null>>): ReadonlyMap<EventName, string> {
  const out = new Map<EventName, string>();
  for (const [host, event] of Object.entries(events)) if (event !== null && !out.has(event)) out.set(event, host);
  return out;
}

/** A timeout in whole seconds (at least 1) from milliseconds; anything else is left for the handler check. */
export function secondsOf(ms: unknown): unknown {
  return typeof ms === "number" && Number.isFinite(ms) && ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : ms;
}
