/**
 * One line of the session transcript (§11): an entry checked and rendered as its JSONL line (exactly
 * `timestamp`, `event`, `session_id`, `turn_id`, `actor` and `payload`), the failures of an append,
 * and a line rendered back for people. Written by src/session/transcript.ts (one append) and
 * src/session/transcript_writer.ts (`serve`).
 * @module
 */

import { oneLine } from "../util/terminal_text.ts";
import { formatValuePath, TOO_DEEP, tooDeepPath } from "../util/nesting.ts";
import { TRANSCRIPT_EVENTS } from "./transcript_events.ts";
import { ok, type Result } from "../util/result.ts";

const EVENT_SET: ReadonlySet<string> = new Set(TRANSCRIPT_EVENTS);

/** What a caller asks to append. `agentId` routes the line to that subagent's own file. */
export type TranscriptEntry = {
  sessionId: string;
  event: string;
  turnId?: string | null;
  actor?: string | null;
  /** Must be a JSON object; checked at run time because entries come from JSON-RPC and the CLI. */
  payload: Record<string, unknown>;
  agentId?: string | null;
};

/** Why an append did not happen: bad input (nothing written) or a file-system failure. */
export type AppendError = { kind: "invalid"; message: string } | {
  kind: "io";
  message: string;
};

/** Outcome of one append. */
export type AppendResult = { ok: true; path: string } | {
  ok: false;
  error: AppendError;
};

// ---------------------------------------------------------------------------------------------
// Building and validating a line
// ---------------------------------------------------------------------------------------------

/**
 * Validates an entry and renders its line (with the trailing line break). Hand-written rather than
 * a zod parse because it runs on every append; the tests check its output against
 * {@link TranscriptLine}.
 *
 * @returns the line, or an `invalid` error saying what is wrong
 */
export function buildTranscriptLine(
  entry: TranscriptEntry,
  now: Date = new Date(),
): Result<string, AppendError> {
  const problem = entryProblem(entry);
  if (problem) return invalid(problem);
  let payload: string | undefined;
  try {
    payload = JSON.stringify(entry.payload);
  } catch (error) {
    return invalid(
      `payload is not serializable as JSON: ${errorMessage(error)}`,
    );
  }
  // A toJSON() may turn an object into something else (a Date becomes a string).
  if (payload === undefined || !payload.startsWith("{")) {
    return invalid("payload must be a JSON object");
  }
  // Like every other input (SPEC §15): a line this deep breaks the transcript's readers. Checked
  // once it serialized (a cycle is "not serializable", not deep).
  const deep = tooDeepPath(entry.payload);
  if (deep) return invalid(`payload ${TOO_DEEP} (at ${formatValuePath(deep)})`);
  const line = `{"timestamp":${JSON.stringify(now.toISOString())},"event":${JSON.stringify(entry.event)},` +
    `"session_id":${JSON.stringify(entry.sessionId)},"turn_id":${JSON.stringify(entry.turnId ?? null)},` +
    `"actor":${JSON.stringify(entry.actor ?? null)},"payload":${payload}}\n`;
  return ok(line);
}

/** The first thing wrong with an entry (its shape comes from untyped JSON), or null. */
function entryProblem(entry: TranscriptEntry): string | null {
  if (typeof entry !== "object" || entry === null) {
    return "entry must be an object";
  }
  if (typeof entry.sessionId !== "string" || entry.sessionId === "") {
    return "sessionId must be a non-empty string";
  }
  if (typeof entry.event !== "string" || !EVENT_SET.has(entry.event)) {
    return `unknown transcript event ${JSON.stringify(entry.event)}; expected one of ${TRANSCRIPT_EVENTS.join(", ")}`;
  }
  for (
    const [field, value] of [["turnId", entry.turnId], [
      "actor",
      entry.actor,
    ]] as const
  ) {
    if (value !== undefined && value !== null && typeof value !== "string") {
      return `${field} must be a string or null`;
    }
  }
  if (
    entry.agentId !== undefined && entry.agentId !== null &&
    typeof entry.agentId !== "string"
  ) {
    return "agentId must be a string or null";
  }
  const payload: unknown = entry.payload;
  if (
    typeof payload !== "object" || payload === null || Array.isArray(payload)
  ) {
    return "payload must be a JSON object";
  }
  return null;
}

/** The failure of an entry that is wrong: nothing is written. */
function invalid(message: string): { ok: false; error: AppendError } {
  return { ok: false, error: { kind: "invalid", message } };
}

/** The failure of a file-system operation, with its message. */
export function ioError(error: unknown): { ok: false; error: AppendError } {
  return { ok: false, error: { kind: "io", message: errorMessage(error) } };
}

/** The message of anything thrown. */
function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------------------------------------
// Rendering for people
// ---------------------------------------------------------------------------------------------

/** Longest payload summary shown by {@link renderTranscriptLine}. */
const SUMMARY_MAX = 200;

/**
 * Renders one transcript line for people: `10:20:30.123  user  message.created  hello` (UTC time,
 * actor or `-`, event, a one-line payload summary). A line that is not a valid transcript object — a
 * torn line from a crash — becomes a `[torn line skipped: …]` marker; an empty line stays empty.
 *
 * @param line one line of a transcript file, without its line break
 */
export function renderTranscriptLine(line: string): string {
  if (line.trim() === "") return "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return tornMarker(line);
  }
  if (!isTranscriptObject(parsed)) return tornMarker(line);
  const { timestamp, actor, event, payload } = parsed;
  const time = timestamp.slice(11, 23);
  return `${time}  ${actor ?? "-"}  ${event}  ${summarize(payload)}`.trimEnd();
}

const LINE_KEYS = ["timestamp", "event", "session_id", "turn_id", "actor", "payload"];

/** The shape check of a line, by hand: rendering must not load zod (the schema lives in transcript_schema.ts). */
function isTranscriptObject(v: unknown): v is {
  timestamp: string;
  event: string;
  actor: string | null;
  payload: Record<string, unknown>;
} {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  return keys.length === LINE_KEYS.length && LINE_KEYS.every((k) => Object.hasOwn(o, k)) &&
    typeof o.timestamp === "string" && typeof o.event === "string" && EVENT_SET.has(o.event) &&
    typeof o.session_id === "string" && (o.turn_id === null || typeof o.turn_id === "string") &&
    (o.actor === null || typeof o.actor === "string") &&
    o.payload !== null && typeof o.payload === "object" && !Array.isArray(o.payload);
}

/** The marker shown for a line that is not a transcript object. */
function tornMarker(line: string): string {
  return `[torn line skipped: ${oneLine(line, 60)}]`;
}

/** The payload's text (`content`, `text` or `message`) if it has one, else its compact JSON. */
function summarize(payload: Record<string, unknown>): string {
  for (const key of ["content", "text", "message"]) {
    if (typeof payload[key] === "string") {
      // A message's line breaks are prose, not command separators: a summary reads them as spaces.
      return oneLine(payload[key].replace(/[\r\n]+/g, " "), SUMMARY_MAX);
    }
  }
  const json = JSON.stringify(payload);
  return json === "{}" ? "" : oneLine(json, SUMMARY_MAX);
}
