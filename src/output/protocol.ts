/**
 * The output protocol (SPEC §8, §8.1), event-agnostic part: exit codes, plain
 * vs JSON stdout, schema validation, in the handler's dialect, for a
 * synchronous or an async handler; the event module supplies the semantic
 * rules.
 * @module
 */
import type { Dialect, EventModule, HandlerOutcome } from "../events/types.ts";
import { CLAUDE_BLOCK_REASON, informational } from "../events/common.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import type { RawCompletion } from "../runner/types.ts";
import { formatIssue, type JsonSchema, validateJson } from "../schema/validate.ts";
import { nestsTooDeep, TOO_DEEP } from "../util/nesting.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { DIALECTS } from "../dialect/registry.ts";

function firstLine(text: string, max = 200): string {
  const line = text.trim().split(/[\r\n\u2028\u2029]/, 1)[0] ?? "";
  return line.length > max ? line.slice(0, max) + "…" : line;
}

/** The reason text for a completion that did not exit normally, or null. */
function abnormalEnd(raw: RawCompletion): string | null {
  // One line (SPEC §8 reasons): an MCP transport error may span lines.
  if (raw.spawnError !== null) return `spawn failed: ${firstLine(raw.spawnError, 500) || "unknown error"}`;
  if (raw.failure !== undefined) return firstLine(raw.failure, 500);
  if (raw.timedOut) return `timeout after ${raw.timeoutSec}s`;
  if (raw.exitCode === null) {
    return `killed by signal ${raw.signal ?? "unknown"}`;
  }
  return null;
}

/** How one completion is read: the handler's dialect, and whether it ran `async` (SPEC §7.2). */
export type ReadOptions = { dialect?: Dialect; async?: boolean };

/** The failure reason of text followed by a JSON object on stdout (SPEC §8 r2, mind dialect). */
export const JSON_AFTER_TEXT = "JSON after other output on stdout";
/** The failure reason of JSON stdout cut at the capture limit. */
export const JSON_TRUNCATED = "invalid JSON: output exceeded the 1 MiB capture limit";
/** The failure reason of JSON stdout that is not an object. */
export const JSON_NOT_OBJECT = "invalid JSON: expected a JSON object";
/** The failure reason of a mind-dialect exit 2 without a reason. */
export const EXIT2_NO_REASON = "exit 2 without a reason on stderr — nothing was blocked";

/**
 * Reads one handler's completion for `event`. `outputSchema` is the event's generated output JSON
 * Schema for how the handler's dialect is read (`OUTPUT_SCHEMAS`, or `CLAUDE_OUTPUT_SCHEMAS` for every
 * dialect read as Claude Code's).
 */
export function readCompletion(
  event: EventModule,
  outputSchema: JsonSchema,
  raw: RawCompletion,
  opts: ReadOptions = {},
): HandlerOutcome {
  const abnormal = abnormalEnd(raw);
  if (abnormal) return { status: "failed", reason: abnormal, systemMessage: stderrHint(raw) };
  // A host's own hook (Gemini CLI, Copilot CLI) answers in its host's form: its module translates it into
  // the form its reader takes (SPEC §2.8 r4); mind's and Claude Code's are read as they are.
  const module = DIALECTS[opts.dialect ?? "mind"];
  raw = { ...raw, ...module.answer(event.name, raw) };
  const dialect = module.reads;
  if (opts.async) return readAsync(event, raw, dialect);
  if (dialect === "claude") return readClaude(event, outputSchema, raw);
  if (raw.exitCode === 2) return exitTwo(event, raw, "mind");
  if (raw.exitCode !== 0) return exitFailure(raw);
  const trimmed = raw.stdout.trim();
  if (trimmed === "") return { status: "completed", effect: {} };
  if (trimmed[0] === "{" || trimmed[0] === "[") {
    const parsed = parseObject(trimmed, raw);
    if (!parsed.ok) return { status: "failed", reason: parsed.error };
    const issue = validateJson(outputSchema, parsed.value);
    if (issue) return { status: "failed", reason: `invalid ${event.name} output: ${formatIssue(issue)}` };
    return event.interpret(parsed.value, "mind");
  }
  return plainText(event, raw.stdout, "mind");
}

/** Exit 2: a block with the stderr reason on events that can block (SPEC §8), else a failure. */
function exitTwo(event: EventModule, raw: RawCompletion, dialect: Dialect): HandlerOutcome {
  if (!event.canBlock) return { status: "failed", reason: "exit 2", systemMessage: stderrHint(raw) };
  const reason = raw.stderr.trim();
  if (reason !== "") return { status: "blocked", effect: { blockReason: reason } };
  // Claude Code blocks on exit 2 whatever stderr holds (SPEC §8.1); mind wants the reason.
  if (dialect === "claude") return { status: "blocked", effect: { blockReason: CLAUDE_BLOCK_REASON } };
  return { status: "failed", reason: EXIT2_NO_REASON };
}

/** A non-zero exit other than a block. */
function exitFailure(raw: RawCompletion): HandlerOutcome {
  return { status: "failed", reason: `exit ${raw.exitCode}`, systemMessage: stderrHint(raw) };
}

/** JSON stdout as an object, or the reason it fails the handler (never downgraded to text). */
function parseObject(trimmed: string, raw: RawCompletion): Result<JsonObject> {
  if (raw.stdoutTruncated) return fail(JSON_TRUNCATED);
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (e) {
    return fail(`invalid JSON: ${jsonErrorWhere(e)}`);
  }
  // What reads it next (rewrites, the adapter's mappings, logging) must never meet such depth.
  if (nestsTooDeep(parsed)) return fail(`invalid JSON: ${TOO_DEEP}`);
  if (!isObject(parsed)) return fail(JSON_NOT_OBJECT);
  return ok(parsed);
}

/** Plain (non-JSON) stdout of a completion that exited 0, by the event's rule (SPEC §8). */
function plainText(event: EventModule, text: string, dialect: Dialect): HandlerOutcome {
  // A login profile that printed first must not make a deny vanish (SPEC §8 r2).
  if (dialect === "mind" && endsWithJsonObject(text.trim())) return { status: "failed", reason: JSON_AFTER_TEXT };
  switch (event.plainStdout) {
    case "context":
      return { status: "completed", effect: { additionalContext: text.replace(/\s+$/, "") } };
    case "ignore":
      return { status: "completed", effect: {} };
    case "invalid":
      // Claude Code ignores plain stdout where mind wants JSON (SPEC §8.1: Stop, SubagentStop).
      if (dialect === "claude") return { status: "completed", effect: {} };
      return { status: "failed", reason: `${event.name} hooks must answer JSON or nothing; got plain text` };
  }
}

/** At most this many line starts are tried as the start of a trailing JSON object. */
const TRAILING_JSON_TRIES = 16;

/**
 * True when `text` (trimmed, not itself starting with `{`) ends with a JSON object that starts at a
 * line start: on its last line, or spanning its last lines.
 */
export function endsWithJsonObject(text: string): boolean {
  if (!text.endsWith("}")) return false;
  let tries = 0;
  for (let nl = text.lastIndexOf("\n"); nl >= 0 && tries < TRAILING_JSON_TRIES; nl = text.lastIndexOf("\n", nl - 1)) {
    const rest = text.slice(nl + 1).trimStart();
    if (rest[0] !== "{") {
      if (nl === 0) break;
      continue;
    }
    tries++;
    try {
      if (isObject(JSON.parse(rest))) return true;
    } catch {
      // not the start of the object: an earlier line may be
    }
    if (nl === 0) break;
  }
  return false;
}

/**
 * The Claude dialect (SPEC §8.1), as Claude Code reads a command hook: stdout starting with `{` that
 * parses is its answer whatever the exit code (exit 2 adds a block when the answer has none); any
 * other stdout is plain text; exit 2 blocks, with `Blocked by hook` when stderr is empty.
 */
function readClaude(event: EventModule, outputSchema: JsonSchema, raw: RawCompletion): HandlerOutcome {
  const trimmed = raw.stdout.trim();
  let json: JsonObject | null = null;
  if (trimmed[0] === "{") {
    if (raw.stdoutTruncated) return { status: "failed", reason: JSON_TRUNCATED };
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined; // Claude Code reads stdout that does not parse as plain text
    }
    if (nestsTooDeep(parsed)) return { status: "failed", reason: `invalid JSON: ${TOO_DEEP}` };
    if (isObject(parsed)) json = parsed;
  }
  if (json === null) {
    if (raw.exitCode === 2) return exitTwo(event, raw, "claude");
    if (raw.exitCode !== 0) return exitFailure(raw);
    return trimmed === "" ? { status: "completed", effect: {} } : plainText(event, raw.stdout, "claude");
  }
  const issue = validateJson(outputSchema, json);
  if (issue) return { status: "failed", reason: `invalid ${event.name} output: ${formatIssue(issue)}` };
  const outcome = event.interpret(json, "claude");
  if (outcome.status === "failed" || raw.exitCode !== 2 || !event.canBlock) return outcome;
  if (outcome.effect.blockReason !== undefined) return outcome;
  return { status: "blocked", effect: { ...outcome.effect, blockReason: raw.stderr.trim() || CLAUDE_BLOCK_REASON } };
}

/**
 * An async handler's completion (SPEC §7.2): read for `systemMessage` and `additionalContext` only —
 * control fields are ignored, not a failure; a non-zero exit, invalid JSON or a timeout fails it.
 */
function readAsync(event: EventModule, raw: RawCompletion, dialect: Dialect): HandlerOutcome {
  if (raw.exitCode !== 0) return exitFailure(raw);
  const trimmed = raw.stdout.trim();
  if (trimmed === "") return { status: "completed", effect: {} };
  if (trimmed[0] === "{" || trimmed[0] === "[") {
    const parsed = parseObject(trimmed, raw);
    if (!parsed.ok) {
      // Claude Code reads stdout that does not parse as plain text.
      if (dialect === "claude" && !raw.stdoutTruncated) return plainText(event, raw.stdout, dialect);
      return { status: "failed", reason: parsed.error };
    }
    const effect = informational(parsed.value);
    if (event.contextLimit !== "context") delete effect.additionalContext;
    return { status: "completed", effect };
  }
  return plainText(event, raw.stdout, dialect);
}

function stderrHint(raw: RawCompletion): string | undefined {
  const line = firstLine(raw.stderr);
  return line === "" ? undefined : line;
}

/**
 * Where JSON.parse failed, without V8's excerpt of the text: that excerpt quotes hook output, which
 * may hold secrets and would land in the result and the observation log.
 */
export function jsonErrorWhere(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /line (\d+) column (\d+)/.exec(msg) ?? /position (\d+)/.exec(msg);
  if (pos && pos.length === 3) return `does not parse (line ${pos[1]}, column ${pos[2]})`;
  if (pos) return `does not parse (at character ${pos[1]})`;
  if (/end of (JSON )?input/i.test(msg)) return "does not parse (unexpected end of input)";
  return "does not parse";
}
