/**
 * The observation log (SPEC §12): `$MIND_HOME/logs/hooks.jsonl`, one line per
 * discovery warning and per handler run (with the session it ran for); rotated at
 * 10 MiB keeping 3 files (`hooks.jsonl`, `.1`, `.2`). Never holds hook stdin or
 * full outputs. Logging must never fail a dispatch, so every error here is
 * swallowed. Read back by `mind-hooks logs` and by `review` (each hook's last run).
 * @module
 */
import { dirname, join } from "../util/paths.ts";
import type { DispatchResult } from "../schema/result.ts";
import { withFileLock } from "../util/file_lock.ts";
import { appendWholeLines } from "../util/line_file.ts";

/** Rotation threshold. */
export const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/** Files kept, the live one included. */
export const LOG_FILES_KEPT = 3;

/** One log line. `session_id` names the session of the dispatch that wrote it (absent: a `serve` load). */
export type LogEntry =
  | {
    kind: "warning";
    code: string;
    message: string;
    source: string;
    line?: number;
    column?: number;
    session_id?: string;
  }
  | {
    kind: "run";
    key: string;
    event: string;
    status: string;
    duration_ms: number | null;
    reason: string | null;
    exit_code: number | null;
    session_id?: string;
  };

/** A log line as read back: an entry with the time it was written. */
export type LogRecord = LogEntry & { timestamp: string };

/**
 * The lines one dispatch logs: `warnings` (by default all of the result's) and one line per run,
 * each with the session. The one-shot dispatch and `serve` (which logs discovery warnings once per
 * load, so passes only the event's own) both build them here.
 */
export function dispatchLogEntries(
  result: DispatchResult,
  sessionId: string,
  warnings: DispatchResult["warnings"] = result.warnings,
): LogEntry[] {
  return [
    ...warnings.map((w): LogEntry => ({ kind: "warning", ...w, session_id: sessionId })),
    ...result.runs.map((r): LogEntry => ({
      kind: "run",
      key: r.key,
      event: result.hook_event_name,
      status: r.status,
      duration_ms: r.duration_ms,
      reason: r.reason,
      exit_code: r.exit_code,
      session_id: sessionId,
    })),
  ];
}

/** Path of the live log file. */
export function logPath(home: string): string {
  return join(home, "logs", "hooks.jsonl");
}

/** Every log file, oldest first: `hooks.jsonl.2`, `hooks.jsonl.1`, `hooks.jsonl`. */
export function logFiles(home: string, kept = LOG_FILES_KEPT): string[] {
  const live = logPath(home);
  return [...Array.from({ length: kept - 1 }, (_, i) => `${live}.${kept - 1 - i}`), live];
}

/** One log line parsed, or null for a line that is not a log record (torn, or written by hand). */
export function parseLogLine(line: string): LogRecord | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const r = v as Record<string, unknown>;
  if (typeof r.timestamp !== "string" || (r.kind !== "run" && r.kind !== "warning")) return null;
  if (r.kind === "run" && (typeof r.key !== "string" || typeof r.status !== "string")) return null;
  return r as LogRecord;
}

/** Longest text field (`reason`, `message`) kept in a log line: a reason can quote a hook's output. */
export const LOG_FIELD_MAX = 500;

/**
 * Rotates `path` when it is at or over `limit` bytes: path → .1 → .2; the oldest is dropped
 * (`kept` files in all, the live one included; with `kept` ≤ 1 the live file is just removed).
 *
 * Processes share the log, so two of them can find it over the limit at once; run one after the
 * other, both would rotate and the second would push a fresh generation out. The rotation is
 * therefore done under an exclusive lock on `.<name>.lock` beside it, after checking the size again. The
 * common case — under the limit — costs one stat and no lock.
 */
export async function rotateIfNeeded(
  path: string,
  limit = LOG_ROTATE_BYTES,
  kept = LOG_FILES_KEPT,
): Promise<void> {
  if (!(await isOver(path, limit))) return;
  const name = path.slice(dirname(path).length + 1);
  await withFileLock(join(dirname(path), `.${name}.lock`), async () => {
    if (!(await isOver(path, limit))) return; // another process rotated meanwhile
    if (kept <= 1) {
      await Deno.remove(path).catch(() => {});
      return;
    }
    for (let i = kept - 1; i >= 1; i--) {
      const from = i === 1 ? path : `${path}.${i - 1}`;
      try {
        await Deno.rename(from, `${path}.${i}`);
      } catch { /* a missing generation is fine */ }
    }
  });
}

async function isOver(path: string, limit: number): Promise<boolean> {
  try {
    return (await Deno.stat(path)).size >= limit;
  } catch {
    return false;
  }
}

/** An entry with its text fields cut to {@link LOG_FIELD_MAX} characters. */
function bounded(entry: LogEntry): LogEntry {
  const out: Record<string, unknown> = { ...entry };
  for (const key of ["reason", "message"]) {
    const v = out[key];
    if (typeof v === "string" && v.length > LOG_FIELD_MAX) out[key] = v.slice(0, LOG_FIELD_MAX) + "…";
  }
  return out as LogEntry;
}

/** Appends entries (with a timestamp) to the log; never throws. */
export async function appendLog(
  home: string,
  entries: LogEntry[],
  limit = LOG_ROTATE_BYTES,
): Promise<void> {
  if (entries.length === 0) return;
  const path = logPath(home);
  const ts = new Date().toISOString();
  const text = entries.map((e) => JSON.stringify({ timestamp: ts, ...bounded(e) })).join("\n") + "\n";
  try {
    await Deno.mkdir(join(home, "logs"), { recursive: true });
    await rotateIfNeeded(path, limit);
    // Whole lines, under the file's lock: a line torn by a full disk or a crash is closed first, so
    // it cannot swallow this record (as in the transcript).
    const file = await Deno.open(path, { read: true, append: true, create: true, mode: 0o600 });
    try {
      await appendWholeLines(file, new TextEncoder().encode(text));
    } finally {
      file.close();
    }
  } catch {
    // The log is an observation aid; a read-only home must not break dispatch.
  }
}

/**
 * The last logged run of each of `keys` (`review` shows it beside each hook): the newest file is
 * read first and an older one only while some key has not been found. A file that cannot be read
 * counts as empty.
 */
export async function lastRuns(home: string, keys: ReadonlySet<string>): Promise<Map<string, LogRecord>> {
  const found = new Map<string, LogRecord>();
  for (const file of logFiles(home).reverse()) {
    if (found.size === keys.size) break;
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch {
      continue;
    }
    const inFile = new Map<string, LogRecord>();
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const r = parseLogLine(line);
      if (r !== null && r.kind === "run" && keys.has(r.key) && !found.has(r.key)) inFile.set(r.key, r);
    }
    for (const [k, r] of inFile) found.set(k, r);
  }
  return found;
}
